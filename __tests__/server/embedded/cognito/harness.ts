// A real server on a real port with the embedded pool mounted at /cognito, for the tests that drive it with
// the real client libraries.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { CognitoTriggers, embeddedCognito, type EmbeddedCognitoOptions } from '../../../../server/embedded/cognito';
import { createIdentityService } from '../../../../server/services/identity';
import { freePort, openTestDatabase, type Dialect } from '../../helpers';

export const POOL_ID = 'local_Divilo1';
export const CLIENT_ID = '5ivilo0nboarding0web0client';
export const IDENTITY_POOL_ID = 'local:4f0c1a52-7c7e-4b55-9a51-8d8a3e5a0b11';
export const ADMIN = { accessKeyId: 'AKIAEMBEDDEDADMIN01', secretAccessKey: 'embedded-admin-secret-key-for-tests-0123' };
export const SERVER_SECRET = 'test-server-secret-0123456789-abcdefghij';
export const REGION = 'eu-west-1';
/** A staff pool beside the customers' (docs/identity.md, "Staff pool"): an authenticator app required, three groups. */
export const STAFF = { poolId: 'local_Staff1', clientId: 'diviloBackOffice' };
export const STAFF_POOL = { ...STAFF, mfa: 'ON' as const, groups: ['reviewer', 'approver', 'administrator'] };

export interface Harness {
  app: FastifyInstance;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the tests reach the pool's tables directly
  db: Kysely<any>;
  /** The pool endpoint, as the clients are configured: `http://127.0.0.1:<port>/cognito/`. */
  endpoint: string;
  issuerBaseUrl: string;
  triggers: CognitoTriggers;
  /** Added to the real time on the server side, to jump past lockouts and expiries. */
  clock: { offsetMs: number };
  identity: ReturnType<typeof createIdentityService>;
  close(): Promise<void>;
}

/** The pool on a fresh, fully migrated database of the given dialect, listening on a real port. */
export async function startHarness(dialect: Dialect, overrides: Partial<EmbeddedCognitoOptions> = {}): Promise<Harness> {
  const database = await openTestDatabase(dialect);
  const { db } = database;
  // The issuer holds the port, and plugins cannot be added after listen(): pick a free port first.
  const port = await freePort();
  const issuerBaseUrl = `http://127.0.0.1:${port}/cognito`;
  const triggers = new CognitoTriggers();
  const clock = { offsetMs: 0 };
  // Behind a trusted proxy: a test names the client of a call with X-Forwarded-For (the lockout counts per client).
  const app = Fastify({ logger: false, trustProxy: true });
  await app.register(embeddedCognito, {
    prefix: '/cognito',
    db,
    poolId: POOL_ID,
    clientId: CLIENT_ID,
    issuerBaseUrl,
    adminCredentials: ADMIN,
    serverSecret: SERVER_SECRET,
    identityPoolId: IDENTITY_POOL_ID,
    triggers,
    now: () => Date.now() + clock.offsetMs,
    ...overrides,
  });
  await app.listen({ port, host: '127.0.0.1' });
  const endpoint = `${issuerBaseUrl}/`;
  const identity = createIdentityService({
    region: REGION,
    userPoolId: POOL_ID,
    clientId: CLIENT_ID,
    endpoint: issuerBaseUrl,
    issuerBaseUrl,
    credentials: ADMIN,
  });
  return {
    app,
    db,
    endpoint,
    issuerBaseUrl,
    triggers,
    clock,
    identity,
    async close() {
      identity.destroy();
      await app.close();
      await database.destroy();
    },
  };
}

/** One unsigned call as the browser library makes it, for the cases its retries would only slow down. */
export async function poolCall(endpoint: string, target: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': target },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** What REFRESH_TOKEN_AUTH answers for a refresh token, without the client's retries with backoff. */
export function refreshOnce(endpoint: string, refreshToken: string) {
  return poolCall(endpoint, 'AWSCognitoIdentityProviderService.InitiateAuth', {
    AuthFlow: 'REFRESH_TOKEN_AUTH',
    ClientId: CLIENT_ID,
    AuthParameters: { REFRESH_TOKEN: refreshToken },
  });
}
