import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { STAFF_PASSWORD_MIN_LENGTH } from '../../src/validation/constants';
import type { Config } from '../config';
import { CognitoTriggers, embeddedCognito } from '../embedded/cognito';
import { createIdentityService, type IdentityService, type KeysLog } from '../services/identity';
import { cachedProbe, type CachedProbe } from '../services/reachability';
import { signInRefusal } from '../services/onboardingGate';
import { STAFF_ROLES, STAFF_TEMPORARY_PASSWORD_DAYS } from '../staffRoles';
import { deriveAccessKey, deriveKey } from '../services/serverSecret';

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityService;
    /** The staff pool's (the back office's sign-in), when the configuration has one. */
    staffIdentity?: IdentityService;
    /** Whether the identity service's signing keys can be fetched, probed at most every IDENTITY_PROBE_MS. */
    identityReachability: CachedProbe;
  }
}

/** How long /health reuses the identity service's last probe. */
export const IDENTITY_PROBE_MS = 30_000;

interface IdentityPluginOptions {
  config: Config;
  secret: Buffer;
  /** The embedded pool's pre-token-generation trigger (default on); off, the pool signs in anyone, as a Cognito pool without the Lambda. */
  preTokenGenerationTrigger?: boolean;
}

export { ONBOARDING_STATUS_ATTRIBUTE } from '../services/onboardingGate';

/** The server's credentials for the embedded identity service (its admin calls); AWS uses the SDK's own chain. */
export const embeddedIdentityCredentials = (secret: Buffer) => deriveAccessKey(secret, 'cognito-admin');

/** The identity service of the configuration: Amazon Cognito, or the embedded pool with the server's own credentials. */
export function identityServiceOf(config: Config, secret: Buffer, log?: KeysLog) {
  return createIdentityService({
    region: config.identity.region,
    userPoolId: config.identity.userPoolId,
    clientId: config.identity.clientId,
    endpoint: config.identity.endpoint,
    issuerBaseUrl: config.identity.embedded ? config.identity.endpoint : undefined,
    jwksUrl: config.identity.jwksUrl,
    credentials: config.identity.embedded ? embeddedIdentityCredentials(secret) : undefined,
    log,
  });
}

export { STAFF_ROLES, type StaffRole } from '../staffRoles';

/** The staff pool's identity service: the same calls and checks as the customers', on its own pool and client. */
export function staffIdentityServiceOf(config: Config, secret: Buffer, log?: KeysLog) {
  if (!config.staff) return undefined;
  return createIdentityService({
    region: config.identity.region,
    userPoolId: config.staff.userPoolId,
    clientId: config.staff.clientId,
    endpoint: config.identity.endpoint,
    issuerBaseUrl: config.identity.embedded ? config.identity.endpoint : undefined,
    jwksUrl: config.staff.jwksUrl,
    credentials: config.identity.embedded ? embeddedIdentityCredentials(secret) : undefined,
    log,
  });
}

/**
 * The identity service the rest of the server uses, the same code against Amazon Cognito and against the
 * embedded pool, which is mounted at /cognito when no user pool is configured.
 */
export const identityPlugin = fp(async (app: FastifyInstance, { config, secret, preTokenGenerationTrigger = true }: IdentityPluginOptions) => {
  const credentials = config.identity.embedded ? embeddedIdentityCredentials(secret) : undefined;
  if (credentials) {
    const triggers = new CognitoTriggers();
    // The pre-token-generation trigger: ERR-2809 until the application is complete (as server/lambdas on AWS).
    if (preTokenGenerationTrigger) {
      triggers.setPreTokenGeneration((user) => {
        const code = signInRefusal(user.attributes);
        return code ? { code } : undefined;
      });
    }
    await app.register(embeddedCognito, {
      prefix: '/cognito',
      db: app.db,
      poolId: config.identity.userPoolId,
      clientId: config.identity.clientId,
      issuerBaseUrl: config.identity.endpoint!,
      adminCredentials: credentials,
      serverSecret: deriveKey(secret, 'cognito').toString('base64'),
      identityPoolId: config.identity.identityPoolId,
      developerProviderName: config.identity.developerProvider,
      // The server's own CORS plugin already answers for every route, these included.
      corsOrigins: false,
      triggers,
      // The staff's pool: every sign-in asks for an authenticator app's code, enrolled at the first one.
      // Its password policy is the staff pool's on AWS (deploy/lib/identity.ts).
      additionalPools: config.staff
        ? [
            {
              poolId: config.staff.userPoolId,
              clientId: config.staff.clientId,
              mfa: 'ON',
              groups: [...STAFF_ROLES],
              passwordPolicy: { minimumLength: STAFF_PASSWORD_MIN_LENGTH, temporaryPasswordValidityDays: STAFF_TEMPORARY_PASSWORD_DAYS },
            },
          ]
        : [],
    });
  }
  const identity = identityServiceOf(config, secret, app.log);
  app.decorate('identity', identity);
  const staffIdentity = staffIdentityServiceOf(config, secret, app.log);
  if (staffIdentity) {
    app.decorate('staffIdentity', staffIdentity);
    app.addHook('onClose', async () => staffIdentity.destroy());
  }
  app.decorate(
    'identityReachability',
    cachedProbe(() => identity.keysReachable(), {
      ttlMs: IDENTITY_PROBE_MS,
      now: app.clock,
      onChange: (reachable) =>
        reachable
          ? app.log.info({ jwksUrl: identity.jwksUrl }, 'health: the identity service answers')
          : app.log.error({ jwksUrl: identity.jwksUrl }, "health: the identity service's signing keys cannot be fetched"),
    }),
  );
  // The first probe once the server listens (the embedded pool answers through it), so /health knows early.
  app.addHook('onListen', async () => void app.identityReachability.current());
  app.addHook('onClose', async () => identity.destroy());
});
