import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import { awsServiceOrigin } from '../../src/config/awsPartition';
import { storageOrigin } from '../../src/documentStorage/storageOrigin';
import { S3_CORS_ALLOWED_HEADERS, S3_CORS_EXPOSED_HEADERS } from '../embedded/s3';
import { FIRST_SCREEN_SCRIPT_HASH } from '../services/firstPage';
import { redisOrLocalStore } from './rateLimitStore';
import { connectRedis, type RedisState } from './redis';

/**
 * Origins other than our own that the browser must reach: the user pool, the identity pool and storage (each
 * its configured endpoint, or AWS's in the region's partition), and Google's with reCAPTCHA.
 */
export function extraOrigins(config: Config): { connect: string[]; google: string[] } {
  const own = new URL(config.publicUrl).origin;
  const { identity, storage } = config;
  const originOf = (endpoint: string | undefined, service: string) => (endpoint ? new URL(endpoint).origin : awsServiceOrigin(service, identity.region));
  const identityOrigins = [originOf(identity.endpoint, 'cognito-idp'), originOf(identity.identityPoolEndpoint, 'cognito-identity')];
  const connect = [...new Set([...identityOrigins, storageOrigin(storage)])].filter((origin) => origin !== own);
  const google = config.captcha.provider === 'recaptcha' ? ['https://www.google.com', 'https://www.gstatic.com'] : [];
  return { connect, google };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Route option for the routes that send codes, check captchas or change passwords. */
    sensitiveRateLimit: { max: number; timeWindow: number };
    /** Whether the shared Redis answers (REDIS_URL), for /health; undefined without one. */
    redisState: () => RedisState | undefined;
  }
}

/** Security headers with a CSP that allows only what the app loads, CORS for the configured origins, rate limits. */
export const securityPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  app.decorate('sensitiveRateLimit', { max: config.rateLimit.sensitiveMax, timeWindow: config.rateLimit.windowMs });
  const { connect, google } = extraOrigins(config);
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The login page's one inline script (services/firstPage.ts), by its hash.
        scriptSrc: ["'self'", FIRST_SCREEN_SCRIPT_HASH, ...google],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...connect, ...google],
        // blob: the contract PDF the page fetched with the applicant's token and shows in a frame (/docu-sign).
        frameSrc: ['blob:', ...(google.length ? ['https://www.google.com'] : [])],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.production ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // Cross-origin isolation headers would block the identity and storage endpoints in production.
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
    strictTransportSecurity: config.production ? { maxAge: 31_536_000, includeSubDomains: true } : false,
  });
  await app.register(cors, {
    origin: config.corsOrigins,
    credentials: true,
    // Uploads (PUT), aborting one (DELETE) and finishing a password reset (PUT) come from the browser too.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    allowedHeaders: [
      'content-type',
      'authorization',
      'x-divilo-session-id',
      'x-divilo-verification-signature',
      'x-request-id',
      // The AWS SDKs' headers, for the embedded identity and storage endpoints.
      'x-amz-target',
      'x-amz-user-agent',
      'x-amz-date',
      'x-amz-content-sha256',
      'x-amz-security-token',
      'amz-sdk-invocation-id',
      'amz-sdk-request',
      'cache-control',
      ...S3_CORS_ALLOWED_HEADERS,
    ].filter((header, index, all) => all.indexOf(header) === index),
    exposedHeaders: [...new Set(['x-request-id', ...S3_CORS_EXPOSED_HEADERS])],
    maxAge: 600,
  });
  const redis = config.redis && { ...(await connectRedis(app, config.redis.url)), nameSpace: `${config.redis.keyPrefix}rate-limit:` };
  app.decorate('redisState', (): RedisState | undefined => redis?.state());
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    // With several server processes the counters live in Redis, so a client's requests count together
    // whichever process they reach; while Redis is away each process counts in its memory (rateLimitStore.ts).
    ...(redis ? { store: redisOrLocalStore(redis.redis, redis.nameSpace) } : {}),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: `Too many requests; try again in ${Math.ceil(context.ttl / 1000)} s`,
    }),
  });
});
