import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import type { DestinationStream } from 'pino';
import { toRuntimeConfig, type Config } from './config';
import type { DatabaseHandle } from './db';
import { loggerOptions } from './logging';
import { atRoot } from './paths';
import { databasePlugin } from './plugins/database';
import { errorsPlugin } from './plugins/errors';
import { answerClientError, answerFrameworkError, forgetRequestPath, rememberRequestPath } from './plugins/frameworkErrors';
import { openapiPlugin } from './plugins/openapi';
import { personalDataPlugin } from './plugins/personalData';
import { sameOriginPlugin } from './plugins/sameOrigin';
import { securityPlugin } from './plugins/security';
import { shutdownPlugin } from './plugins/shutdown';
import { spaPlugin } from './plugins/spa';
import { telemetryPlugin } from './plugins/telemetry';
import { healthRoutes } from './routes/health';
import { legalRoutes } from './routes/legal';
import { publicFileRoutes } from './routes/publicFiles';
import { captchaRoutes } from './routes/captcha';
import { credentialsRoutes } from './routes/credentials-management';
import { devRoutes } from './routes/dev';
import { FONT_FILES, SERVER_CSS } from './routes/html';
import { mainAppRoutes } from './routes/main-app';
import { onboardingRoutes } from './routes/onboarding-management';
import { onboardingPrivateRoutes } from './routes/onboarding-management-private';
import { userAuthorizationRoutes } from './routes/user-authorization-management';
import { staffRoutes } from './routes/staff-api';
import { contractsPlugin } from './plugins/contracts';
import { demoCustomersPlugin } from './plugins/demoCustomers';
import { documentsPlugin } from './plugins/documents';
import { identityPlugin } from './plugins/identity';
import { identityCheckPlugin } from './plugins/identityCheck';
import { servicesPlugin } from './plugins/services';
import { storagePlugin } from './plugins/storage';
import { loadServerSecret } from './services/serverSecret';

export interface AppOptions {
  /** The built SPA; default `dist/` at the project root. */
  distDir?: string;
  /** The locale files; default `locales/` at the project root. */
  localesDir?: string;
  /** Where logs go (tests read them); default standard output. */
  logStream?: DestinationStream;
  /** An open database (tests); default one from the configuration, closed with the app. */
  database?: DatabaseHandle;
  /** Where the server's "now" comes from (tests move it instead of waiting); default the system clock. */
  clock?: () => Date;
  /**
   * The embedded storage endpoint's clock, in epoch milliseconds; default the system clock. Tests move it to when an
   * Object Lock is over, with the clients that sign for it (S3 refuses a request signed 15 minutes away from its clock).
   */
  storageClock?: () => number;
  /**
   * The embedded pool's pre-token-generation trigger (ERR-2809), on by default. Off, the pool lets anyone with
   * the right password sign in, as an Amazon Cognito pool without its Lambda would: the server still refuses.
   */
  preTokenGenerationTrigger?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's one source of time: every service and repository that needs "now" is handed it from here. */
    clock: () => Date;
  }
}

const REQUEST_ID = /^[\w-]{8,64}$/;

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

/** The whole server as one Fastify instance: listening is server.ts's business. */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream),
    // A number trusts that many proxies in front (proxy-addr's rule); Fastify's types only take the function form.
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A request has this long to arrive whole, body included (Node checks at a quarter of it, at most every 30 s).
    // Node reads it when the server is made: setting it afterwards, as Fastify's own option does, is not enough.
    requestTimeout: config.requestTimeoutMs,
    http: { requestTimeout: config.requestTimeoutMs, connectionsCheckingInterval: Math.min(30_000, Math.max(250, config.requestTimeoutMs / 4)) },
    // S3 keys reach 1,024 bytes, percent-encoded up to three times longer.
    routerOptions: { maxParamLength: 4096 },
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    requestIdHeader: false,
    // Closing (SIGTERM): idle kept-alive connections close at once, and a request that still arrives on a busy
    // one is served, its answer closing the connection (plugins/shutdown.ts), rather than refused with a 503.
    forceCloseConnections: 'idle',
    return503OnClosing: false,
    // A caller's request id is kept when it is well-formed, so one id follows a request across systems.
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
  });
  // The only reading of the system clock: everything else asks app.clock, so tests move one clock for all.
  app.decorate('clock', options.clock ?? (() => new Date()));
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onRequest', async (request) => rememberRequestPath(request));
  app.addHook('onResponse', async (request) => forgetRequestPath(request));
  app.addSchema({
    $id: 'error',
    type: 'object',
    properties: { code: { type: 'string' }, message: { type: 'string' } },
    required: ['code'],
    additionalProperties: true,
  });

  // First: every answer is counted, a refusal by the plugins after it included; services take app.metrics.
  await app.register(telemetryPlugin, { config });
  await app.register(shutdownPlugin);
  await app.register(securityPlugin, { config });
  await app.register(errorsPlugin);
  await app.register(sameOriginPlugin, { trustedOrigins: [...new Set([new URL(config.publicUrl).origin, ...config.corsOrigins])] });
  await app.register(personalDataPlugin);
  await app.register(openapiPlugin, { publicUrl: config.publicUrl, reader: config.apiDocs });
  await app.register(cookie);
  await app.register(databasePlugin, { dataDir: config.dataDir, databaseUrl: config.databaseUrl, database: options.database });

  const secret = loadServerSecret(config.dataDir, config.serverSecret);
  await app.register(identityPlugin, { config, secret, preTokenGenerationTrigger: options.preTokenGenerationTrigger });
  await app.register(servicesPlugin, { config, secret });
  // The storage endpoint reads the credentials the embedded identity pool mints: it needs that pool.
  if (config.storage.embedded && config.identity.embedded) await app.register(storagePlugin, { config, secret, now: options.storageClock });
  await app.register(documentsPlugin, { config, secret });
  await app.register(identityCheckPlugin, { config });
  await app.register(contractsPlugin, { config, secret });
  if (config.identity.embedded && !config.production) await app.register(demoCustomersPlugin);

  await app.register(healthRoutes);
  // The sample legal documents, unless production points LEGAL_BASE_URL at the bank's own.
  if (config.legalBaseUrl === `${config.publicUrl}/legal`) await app.register(legalRoutes);
  const runtimeConfig = toRuntimeConfig(config);
  const localesDir = options.localesDir ?? atRoot('locales');
  await app.register(publicFileRoutes, { runtimeConfig, localesDir });
  await app.register(
    async (api) => {
      await api.register(userAuthorizationRoutes, {
        prefix: '/user-authorization-management',
        idleSeconds: config.sessionIdleSeconds,
        maxSeconds: 12 * 3600,
      });
      await api.register(credentialsRoutes, { prefix: '/credentials-management' });
      await api.register(captchaRoutes, { prefix: '/captcha' });
      await api.register(onboardingRoutes, { prefix: '/onboarding-management' });
      await api.register(onboardingPrivateRoutes, { prefix: '/onboarding-management-private' });
    },
    { prefix: '/api' },
  );
  if (config.staff) {
    await app.register(staffRoutes, {
      prefix: '/staff-api',
      config: { region: config.identity.region, endpoint: config.identity.endpoint, staff: config.staff },
      warningSeconds: Math.min(config.sessionWarningSeconds, config.staff.sessionIdleSeconds - 30),
      idleSeconds: config.staff.sessionIdleSeconds,
      maxSeconds: config.staff.sessionMaxSeconds,
      targetHours: config.staff.reviewTargetHours,
      localesDir,
      retention: config.retention,
    });
  }
  await app.register(mainAppRoutes, { prefix: '/app', idleSeconds: config.sessionIdleSeconds, warningSeconds: config.sessionWarningSeconds });
  // Browsers ask for /favicon.ico on pages that name no icon: the one icon there is.
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.header('cache-control', 'public, max-age=86400').redirect('/favicon.svg', 301));
  app.get('/server.css', { schema: { hide: true } }, async (_request, reply) => reply.type('text/css').header('cache-control', 'no-cache').send(SERVER_CSS));
  // The typeface of the server's pages (the app bundles its own copy); the address carries the version.
  for (const { url, file } of Object.values(FONT_FILES)) {
    const font = readFileSync(file);
    app.get(url, { schema: { hide: true } }, async (_request, reply) => reply.type('font/woff2').header('cache-control', 'public, max-age=31536000, immutable').send(font));
  }
  if (!config.production) await app.register(devRoutes, { prefix: '/dev' });
  await app.register(spaPlugin, { distDir: options.distDir ?? atRoot('dist'), runtimeConfig, localesDir });
  return app;
}
