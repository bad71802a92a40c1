// The identity pool half: an id token in, short-lived storage credentials out (what fromCognitoIdentityPool asks).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PoolContext } from './context';
import { AwsError, errors } from './errors';
import { optionalString, requireParameter, requireString, stringMap, type JsonObject } from './input';
import { createIdentityRepository } from './repository';
import { deriveKey, open, seal } from './sealing';
import type { IdentityTables } from './tables';
import { OPENID_LOGIN, OPENID_TOKEN_MAX_SECONDS, type IdTokenClaims } from './tokens';

const IDENTITY_POOL_ID = { max: 55, pattern: /^[\w-]+:[0-9a-f-]+$/ };
const IDENTITY_ID = { max: 55, pattern: /^[\w-]+:[0-9a-f-]+$/ };
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const DEVELOPER_USER_ID_MAX = 128;
/** GetOpenIdTokenForDeveloperIdentity's default TokenDuration, as on AWS: 15 minutes. */
const DEFAULT_OPENID_TOKEN_SECONDS = 900;

export const CREDENTIALS_KEY_PURPOSE = 'temporary-credentials';

function invalidLogin(reason: string) {
  return new AwsError('NotAuthorizedException', `Invalid login token. ${reason}`);
}

/**
 * Who the request's single login is: a user of the pool (its id token), or an identity the pool already
 * vouched for (its own OpenID token, from GetOpenIdTokenForDeveloperIdentity).
 */
type VerifiedLogin = { kind: 'user'; claims: IdTokenClaims } | { kind: 'identity'; identityId: string };

async function verifiedLogin(context: PoolContext, body: JsonObject): Promise<VerifiedLogin> {
  const logins = stringMap(body, 'Logins', 50_000);
  const providers = Object.keys(logins);
  if (providers.length === 0) throw errors.notAuthorized('Unauthenticated access is not supported for this identity pool.');
  if (providers.length === 1 && logins[OPENID_LOGIN] !== undefined) {
    const identityId = await context.tokens.verifyOpenIdToken(logins[OPENID_LOGIN], context.settings.identityPoolId);
    if (!identityId) throw invalidLogin('Not a valid OpenId Connect identity token.');
    return { kind: 'identity', identityId };
  }
  const token = logins[context.settings.loginProvider];
  if (providers.length !== 1 || token === undefined) throw invalidLogin(`Issuer doesn't match providerName`);
  const claims = await context.tokens.verifyIdToken(token);
  if (!claims) throw invalidLogin('Not a valid OpenId Connect identity token.');
  return { kind: 'user', claims };
}

function requirePool(context: PoolContext, body: JsonObject): string {
  const identityPoolId = requireString(body, 'IdentityPoolId', IDENTITY_POOL_ID);
  if (identityPoolId !== context.settings.identityPoolId) throw errors.resourceNotFound(`IdentityPool '${identityPoolId}' not found.`);
  return identityPoolId;
}

const newIdentityId = (identityPoolId: string) => `${identityPoolId.split(':')[0]}:${randomUUID()}`;

export async function getId(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const identityPoolId = requirePool(context, body);
  const login = await verifiedLogin(context, body);
  if (login.kind === 'identity') return { IdentityId: login.identityId };
  const identityId = await context.repository.identities.findOrCreate(
    identityPoolId,
    context.settings.loginProvider,
    login.claims.sub,
    newIdentityId(identityPoolId),
    context.now(),
  );
  return { IdentityId: identityId };
}

/**
 * A backend (signed with the admin credentials) vouches for one of its users: the identity of that user id under
 * the pool's developer provider name, created on first use, and an OpenID token the browser trades for
 * credentials with `Logins: { 'cognito-identity.amazonaws.com': token }`.
 */
export async function getOpenIdTokenForDeveloperIdentity(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const identityPoolId = requirePool(context, body);
  const provider = developerProvider(context);
  const logins = stringMap(body, 'Logins');
  const names = Object.keys(logins);
  if (names.length !== 1 || names[0] !== provider) throw errors.notAuthorized(`Developer provider name does not match the identity pool's.`);
  const userIdentifier = requireParameter(logins, provider, DEVELOPER_USER_ID_MAX);
  const duration = body.TokenDuration ?? DEFAULT_OPENID_TOKEN_SECONDS;
  if (typeof duration !== 'number' || !Number.isInteger(duration) || duration < 1 || duration > OPENID_TOKEN_MAX_SECONDS) {
    throw errors.invalidParameter(`1 validation error detected: Value at 'tokenDuration' failed to satisfy constraint: Member must have value between 1 and ${OPENID_TOKEN_MAX_SECONDS}`);
  }
  const identityId = await context.repository.identities.findOrCreate(identityPoolId, provider, userIdentifier, newIdentityId(identityPoolId), context.now());
  const requested = optionalString(body, 'IdentityId', IDENTITY_ID);
  if (requested !== undefined && requested !== identityId) {
    throw new AwsError('ResourceConflictException', 'The developer user identifier is already linked to another identity.');
  }
  const token = await context.tokens.issueOpenIdToken(
    { identityId, identityPoolId, amr: ['authenticated', provider, `${provider}:${identityPoolId}:${userIdentifier}`] },
    duration,
  );
  return { IdentityId: identityId, Token: token };
}

/**
 * The identity a backend's user already has under the developer provider name, without creating one or issuing
 * a token (ResourceNotFoundException when there is none). Signed with the admin credentials.
 */
export async function lookupDeveloperIdentity(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const identityPoolId = requirePool(context, body);
  const provider = developerProvider(context);
  const userIdentifier = requireString(body, 'DeveloperUserIdentifier', { max: DEVELOPER_USER_ID_MAX });
  const identityId = await context.repository.identities.findBySubject(identityPoolId, provider, userIdentifier);
  const requested = optionalString(body, 'IdentityId', IDENTITY_ID);
  if (identityId === undefined || (requested !== undefined && requested !== identityId)) {
    throw errors.resourceNotFound(`No identity found for the developer user identifier.`);
  }
  return { IdentityId: identityId, DeveloperUserIdentifierList: [userIdentifier] };
}

/**
 * Forgets identities and the credentials they were given: an applicant whose data is erased leaves no identity that
 * names them. Ids of no identity (deleted already) are taken as done, as AWS does; none is left unprocessed.
 */
export async function deleteIdentities(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const ids = body.IdentityIdsToDelete;
  if (!Array.isArray(ids) || ids.length < 1 || ids.length > 60) {
    throw errors.invalidParameter('1 validation error detected: Value at \'identityIdsToDelete\' failed to satisfy constraint: Member must have length between 1 and 60');
  }
  if (!ids.every((id): id is string => typeof id === 'string' && id.length <= IDENTITY_ID.max && IDENTITY_ID.pattern.test(id))) {
    throw errors.invalidParameter('1 validation error detected: Value at \'identityIdsToDelete\' failed to satisfy constraint: Member must satisfy regular expression pattern: [\\w-]+:[0-9a-f-]+');
  }
  const identityIds = ids;
  await context.repository.identities.remove(identityIds);
  return { UnprocessedIdentityIds: [] };
}

function developerProvider(context: PoolContext): string {
  const provider = context.settings.developerProviderName;
  if (!provider) throw errors.notAuthorized('Developer authentication is not enabled for this identity pool.');
  return provider;
}

/** AWS-looking temporary credentials: an `ASIA…` key id, a 40-character secret and a session token. */
function mintCredentials() {
  const keyBytes = randomBytes(16);
  const accessKeyId = `ASIA${Array.from(keyBytes, (byte) => BASE32[byte % 32]).join('')}`;
  return { accessKeyId, secretAccessKey: randomBytes(30).toString('base64'), sessionToken: randomBytes(192).toString('base64') };
}

export async function getCredentialsForIdentity(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const identityId = requireString(body, 'IdentityId', IDENTITY_ID);
  // The login first, then one answer for an unknown identity and someone else's: neither tells whether it exists.
  const login = await verifiedLogin(context, body);
  const identity = await context.repository.identities.find(identityId);
  const allowed =
    identity !== undefined &&
    identity.identityPoolId === context.settings.identityPoolId &&
    (login.kind === 'identity' ? login.identityId === identityId : login.claims.sub === identity.sub && identity.provider === context.settings.loginProvider);
  if (!allowed) throw errors.notAuthorized(`Access to Identity '${identityId}' is forbidden.`);
  const now = context.now();
  const minted = mintCredentials();
  const expiresAt = Math.floor(now / 1000 + context.settings.temporaryCredentialsSeconds) * 1000;
  await context.repository.credentials.insert(
    {
      accessKeyId: minted.accessKeyId,
      sealedSecret: seal(
        context.keys.credentials,
        JSON.stringify({ secretAccessKey: minted.secretAccessKey, sessionToken: minted.sessionToken }),
        minted.accessKeyId,
      ),
      sessionTokenHash: createHash('sha256').update(minted.sessionToken, 'utf8').digest('hex'),
      identityId,
      expiresAt,
    },
    now,
  );
  return {
    IdentityId: identityId,
    Credentials: {
      AccessKeyId: minted.accessKeyId,
      SecretKey: minted.secretAccessKey,
      SessionToken: minted.sessionToken,
      Expiration: expiresAt / 1000,
    },
  };
}

interface TemporaryCredentials {
  secretAccessKey: string;
  sessionToken: string;
  identityId: string;
  expiresAt: Date;
}

let registeredServerSecret: string | undefined;

/** Called by the plugin at start, so the storage endpoint in the same process need not know the secret. */
export function registerCredentialSecret(serverSecret: string): void {
  registeredServerSecret = serverSecret;
}

/**
 * The credentials minted for `accessKeyId` (for the storage endpoint's SigV4 check), or undefined when unknown.
 * Expired ones are returned too, with their `expiresAt`, for a day after it: the caller refuses them as
 * ExpiredToken, as AWS does. `serverSecret` defaults to the one the embeddedCognito plugin was started with.
 */
export async function lookupTemporaryCredentials<DB>(
  db: Kysely<DB>,
  accessKeyId: string,
  serverSecret: string | undefined = registeredServerSecret,
): Promise<TemporaryCredentials | undefined> {
  if (serverSecret === undefined) throw new Error('lookupTemporaryCredentials needs the server secret: start embeddedCognito first or pass it');
  if (!/^ASIA[A-Z2-7]{16}$/.test(accessKeyId)) return undefined;
  const repository = createIdentityRepository(db.withTables<IdentityTables>() as unknown as Kysely<IdentityTables>);
  const record = await repository.credentials.find(accessKeyId);
  if (!record) return undefined;
  const secret = open(deriveKey(serverSecret, CREDENTIALS_KEY_PURPOSE), record.sealedSecret, accessKeyId);
  if (!secret) return undefined;
  const { secretAccessKey, sessionToken } = JSON.parse(secret.toString('utf8')) as { secretAccessKey: string; sessionToken: string };
  return { secretAccessKey, sessionToken, identityId: record.identityId, expiresAt: new Date(record.expiresAt) };
}
