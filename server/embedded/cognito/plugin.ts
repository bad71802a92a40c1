// The Fastify face of the embedded pool: one POST endpoint speaking AWS JSON 1.1 (X-Amz-Target picks the
// operation), the JWKS, and CORS for the browser client.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  adminCreateUser,
  adminDeleteUser,
  adminDisableUser,
  adminEnableUser,
  adminGetUser,
  adminSetUserPassword,
  adminUpdateUserAttributes,
  adminUserGlobalSignOut,
} from './adminOps';
import { getUser, globalSignOut, initiateAuth, respondToAuthChallenge, revokeToken } from './authFlows';
import type { PasswordPolicy, PoolContext, PreTokenGenerationHook } from './context';
import { isDatabaseUnavailable, unavailabilityReason } from '../../db';
import { AwsError, errors } from './errors';
import { adminAddUserToGroup, adminListGroupsForUser, adminRemoveUserFromGroup } from './groupOps';
import { deleteIdentities, getCredentialsForIdentity, getId, getOpenIdTokenForDeveloperIdentity, lookupDeveloperIdentity, registerCredentialSecret } from './identityPool';
import type { JsonObject } from './input';
import { adminDeleteSoftwareToken, adminSetUserMFAPreference, associateSoftwareToken, setUserMFAPreference, verifySoftwareToken } from './mfaOps';
import { MAINTENANCE_INTERVAL_MS, createPools, type AdditionalPoolOptions } from './pools';
import { clientOf } from './signInCore';
import { verifySignatureV4, type AwsCredentials } from './sigv4';
import type { TokenLifetimes } from './tokens';

/** Holds the API server's sign-in checks; hand it to the plugin, set the hooks whenever. */
export class CognitoTriggers {
  private preTokenGenerationHook: PreTokenGenerationHook | undefined;

  setPreTokenGeneration(hook: PreTokenGenerationHook | undefined): void {
    this.preTokenGenerationHook = hook;
  }

  get preTokenGeneration(): PreTokenGenerationHook | undefined {
    return this.preTokenGenerationHook;
  }
}

export interface EmbeddedCognitoOptions {
  /** The application's Kysely instance; the pool reaches its own tables through `withTables`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any application Database type is accepted
  db: Kysely<any>;
  /** `<region>_<name>`, e.g. `local_Divilo1`; the name part enters every SRP password hash. */
  poolId: string;
  clientId: string;
  /** Where the pool is reachable, e.g. `http://localhost:3000/cognito`; tokens get `iss = <this>/<poolId>`. */
  issuerBaseUrl: string;
  /** The only credentials accepted on the Admin* calls (SigV4, service `cognito-idp`). */
  adminCredentials: AwsCredentials;
  /** Derives the keys that seal signing keys, SRP state and credential secrets, and the fake users' salts. */
  serverSecret: string;
  /** `<region>:<uuid>` of the identity pool. */
  identityPoolId: string;
  /** Enables GetOpenIdTokenForDeveloperIdentity (signed with adminCredentials) for this provider name. */
  developerProviderName?: string;
  tokenLifetimes?: Partial<TokenLifetimes>;
  /** A new signing key takes over after this long (default 30 days). */
  keyRotationSeconds?: number;
  /**
   * A new signing key is in the JWKS this long before it signs (default 30 minutes): longer than the interval at
   * which every server process rereads the keys (10 minutes), and than the JWKS's cache time (5 minutes).
   */
  keyPublishSeconds?: number;
  lockout?: Partial<{ maxFailures: number; lockSeconds: number; nameMaxFailures: number; clientMaxFailures: number }>;
  /** Tolerated distance between the client's TIMESTAMP or x-amz-date and the server clock (default 300 s). */
  maxClockSkewSeconds?: number;
  /** How long the InitiateAuth Session may be answered (default 180 s, as Cognito). */
  authSessionSeconds?: number;
  temporaryCredentialsSeconds?: number;
  passwordPolicy?: Partial<PasswordPolicy>;
  /**
   * Access-Control-Allow-Origin: `*` (default, as Cognito), a list of allowed origins, or false when the host app
   * already answers CORS for every route (it must then allow X-Amz-Target, X-Amz-User-Agent and Cache-Control).
   */
  corsOrigins?: '*' | string[] | false;
  triggers?: CognitoTriggers;
  /** More user pools on the same endpoint (the staff's), sharing the settings above but their id and client. */
  additionalPools?: AdditionalPoolOptions[];
  now?: () => number;
}

const JSON_1_1 = 'application/x-amz-json-1.1';
const BODY_LIMIT = 64 * 1024;
const ALLOWED_HEADERS = [
  'content-type', 'x-amz-target', 'x-amz-user-agent', 'cache-control', 'authorization', 'x-amz-date',
  'x-amz-security-token', 'x-amz-content-sha256', 'amz-sdk-invocation-id', 'amz-sdk-request',
].join(', ');
const EXPOSED_HEADERS = 'x-amzn-RequestId, x-amzn-ErrorType, x-amzn-ErrorMessage, Date';

const POOL_PARAMS = {
  hide: true,
  params: { type: 'object', properties: { poolId: { type: 'string', maxLength: 55 } }, required: ['poolId'] },
};

type Operation = (context: PoolContext, body: JsonObject) => Promise<JsonObject>;

const USER_POOL_OPERATIONS: Record<string, Operation> = {
  InitiateAuth: initiateAuth,
  RespondToAuthChallenge: respondToAuthChallenge,
  GetUser: getUser,
  GlobalSignOut: globalSignOut,
  RevokeToken: revokeToken,
  AssociateSoftwareToken: associateSoftwareToken,
  VerifySoftwareToken: verifySoftwareToken,
  SetUserMFAPreference: setUserMFAPreference,
};

const ADMIN_OPERATIONS: Record<string, Operation> = {
  AdminCreateUser: adminCreateUser,
  AdminSetUserPassword: adminSetUserPassword,
  AdminGetUser: adminGetUser,
  AdminUpdateUserAttributes: adminUpdateUserAttributes,
  AdminDisableUser: adminDisableUser,
  AdminEnableUser: adminEnableUser,
  AdminUserGlobalSignOut: adminUserGlobalSignOut,
  AdminDeleteUser: adminDeleteUser,
  AdminAddUserToGroup: adminAddUserToGroup,
  AdminRemoveUserFromGroup: adminRemoveUserFromGroup,
  AdminListGroupsForUser: adminListGroupsForUser,
  AdminSetUserMFAPreference: adminSetUserMFAPreference,
  AdminDeleteSoftwareToken: adminDeleteSoftwareToken,
};

const IDENTITY_POOL_OPERATIONS: Record<string, Operation> = {
  GetId: getId,
  GetCredentialsForIdentity: getCredentialsForIdentity,
};

const IDENTITY_POOL_ADMIN_OPERATIONS: Record<string, Operation> = {
  GetOpenIdTokenForDeveloperIdentity: getOpenIdTokenForDeveloperIdentity,
  LookupDeveloperIdentity: lookupDeveloperIdentity,
  DeleteIdentities: deleteIdentities,
};

function sendError(reply: FastifyReply, error: AwsError): FastifyReply {
  return reply
    .code(error.statusCode)
    .header('x-amzn-requestid', reply.request.id)
    .header('x-amzn-errortype', error.type)
    .type(JSON_1_1)
    .send({ __type: error.type, message: error.message });
}

function parseBody(raw: Buffer): JsonObject {
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw errors.serialization();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw errors.serialization();
  return parsed as JsonObject;
}

export async function embeddedCognito(app: FastifyInstance, options: EmbeddedCognitoOptions): Promise<void> {
  const pools = createPools(options);
  const context = pools.main;
  // One after the other: the first makes the shared signing key, the others read it.
  for (const pool of pools.all) await pool.tokens.maintainKeys();
  registerCredentialSecret(options.serverSecret);

  const timer = setInterval(() => {
    Promise.all([...pools.all.map((pool) => pool.tokens.maintainKeys()), context.repository.deleteExpired(context.now())]).catch((error: unknown) =>
      app.log.error({ err: error }, 'embedded cognito maintenance failed'),
    );
  }, MAINTENANCE_INTERVAL_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));

  // Every body is kept raw: admin calls are verified over the exact bytes, and a bad body gets AWS's error.
  // The SDKs' own type is named too: Fastify remembers the parser it found for a named type, while a request
  // that only the catch-all takes has its Content-Type parsed and looked up again every time.
  app.removeAllContentTypeParsers();
  const keepRaw = (_request: FastifyRequest, body: Buffer, done: (error: null, body: Buffer) => void) => done(null, body);
  app.addContentTypeParser(JSON_1_1, { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, keepRaw);
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: BODY_LIMIT }, keepRaw);

  const origins = options.corsOrigins ?? '*';
  if (origins !== false) {
    // A callback hook: an async one costs a promise per request for work that never waits.
    app.addHook('onRequest', (request, reply, done) => {
      const origin = request.headers.origin;
      if (origins === '*') reply.header('access-control-allow-origin', '*');
      else if (origin && origins.includes(origin)) reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
      reply.header('access-control-expose-headers', EXPOSED_HEADERS);
      done();
    });
    const preflight = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply
        .code(204)
        .header('access-control-allow-methods', 'GET, POST, OPTIONS')
        .header('access-control-allow-headers', ALLOWED_HEADERS)
        .header('access-control-max-age', '600')
        .send();
    app.options('/', { schema: { hide: true } }, preflight);
    app.options('/*', { schema: { hide: true } }, preflight);
  }

  app.setErrorHandler((error: unknown, request, reply) => {
    if (error instanceof AwsError) return sendError(reply, error);
    const statusCode = (error as { statusCode?: number }).statusCode;
    if (statusCode === 413) {
      return sendError(reply, new AwsError('InvalidParameterException', `Request body is larger than ${BODY_LIMIT} bytes.`, 413));
    }
    // The host app's rate limit, in the shape the SDKs know as throttling.
    if (statusCode === 429) return sendError(reply, new AwsError('TooManyRequestsException', 'Too many requests.'));
    if (statusCode !== undefined && statusCode >= 400 && statusCode < 500) return sendError(reply, errors.serialization());
    // Cognito has no "unavailable" answer: its internal error, which the SDKs retry, as for any other failure.
    if (isDatabaseUnavailable(error)) request.log.error({ event: 'database.unavailable', reason: unavailabilityReason(error) }, 'embedded cognito: the database is unreachable');
    else request.log.error({ err: error }, 'embedded cognito operation failed');
    return sendError(reply, errors.internal());
  });

  // An AWS protocol endpoint, not part of the product API: the body is checked per operation, not by a schema.
  app.post('/', { schema: { hide: true } }, async (request, reply) => {
    const target = request.headers['x-amz-target'];
    const [service, operationName] = typeof target === 'string' ? target.split('.', 2) : [];
    const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    // Admin calls must be signed (SigV4) with the admin credentials, for the service they belong to.
    const verifyAdmin = (signingService: string) =>
      verifySignatureV4(
        { method: request.method, rawUrl: request.raw.url ?? request.url, headers: request.headers, body: raw },
        {
          credentials: context.settings.adminCredentials,
          service: signingService,
          now: context.now(),
          maxSkewSeconds: context.settings.maxClockSkewSeconds,
        },
      );
    let operation: Operation | undefined;
    // The identity pool trusts the main user pool only; user pool calls go to the pool they name.
    let userPoolCall = true;
    if (service === 'AWSCognitoIdentityProviderService' && Object.hasOwn(ADMIN_OPERATIONS, operationName)) {
      await verifyAdmin('cognito-idp');
      operation = ADMIN_OPERATIONS[operationName];
    } else if (service === 'AWSCognitoIdentityService' && Object.hasOwn(IDENTITY_POOL_ADMIN_OPERATIONS, operationName)) {
      await verifyAdmin('cognito-identity');
      operation = IDENTITY_POOL_ADMIN_OPERATIONS[operationName];
      userPoolCall = false;
    } else if (service === 'AWSCognitoIdentityProviderService' && Object.hasOwn(USER_POOL_OPERATIONS, operationName)) {
      operation = USER_POOL_OPERATIONS[operationName];
    } else if (service === 'AWSCognitoIdentityService' && Object.hasOwn(IDENTITY_POOL_OPERATIONS, operationName)) {
      operation = IDENTITY_POOL_OPERATIONS[operationName];
      userPoolCall = false;
    }
    if (!operation) throw errors.unknownOperation();
    const body = parseBody(raw);
    const pool = userPoolCall ? pools.poolOf(body) : context;
    const result = await operation({ ...pool, client: clientOf(pool, request.ip) }, body);
    return reply.header('x-amzn-requestid', request.id).type(JSON_1_1).send(result);
  });

  app.get<{ Params: { poolId: string } }>('/:poolId/.well-known/jwks.json', { schema: POOL_PARAMS }, async (request, reply) => {
    const pool = pools.byPoolId(request.params.poolId);
    if (!pool) return reply.code(404).send({ message: `User pool ${request.params.poolId.slice(0, 64)} does not exist.` });
    // Short caching so verifiers pick up a rotation soon (jose also refetches when it meets an unknown kid).
    return reply.header('cache-control', 'public, max-age=300').send(pool.tokens.jwks());
  });

  app.get<{ Params: { poolId: string } }>('/:poolId/.well-known/openid-configuration', { schema: POOL_PARAMS }, async (request, reply) => {
    const pool = pools.byPoolId(request.params.poolId);
    if (!pool) return reply.code(404).send({ message: `User pool ${request.params.poolId.slice(0, 64)} does not exist.` });
    const { issuer } = pool.settings;
    return reply.send({
      issuer,
      jwks_uri: `${issuer}/.well-known/jwks.json`,
      id_token_signing_alg_values_supported: ['RS256'],
      subject_types_supported: ['public'],
      response_types_supported: ['code', 'token'],
    });
  });
}
