// The identity pool half: an id token in, short-lived storage credentials out (what fromCognitoIdentityPool asks).
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { PoolContext } from './context';
import { AwsError, errors } from './errors';
import { requireString, stringMap, type JsonObject } from './input';
import { createIdentityRepository } from './repository';
import { deriveKey, open, seal } from './sealing';
import type { IdentityTables } from './tables';
import type { IdTokenClaims } from './tokens';

const IDENTITY_POOL_ID = { max: 55, pattern: /^[\w-]+:[0-9a-f-]+$/ };
const IDENTITY_ID = { max: 55, pattern: /^[\w-]+:[0-9a-f-]+$/ };
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export const CREDENTIALS_KEY_PURPOSE = 'temporary-credentials';

function invalidLogin(reason: string) {
  return new AwsError('NotAuthorizedException', `Invalid login token. ${reason}`);
}

async function verifiedLogin(context: PoolContext, body: JsonObject): Promise<IdTokenClaims> {
  const logins = stringMap(body, 'Logins', 50_000);
  const providers = Object.keys(logins);
  if (providers.length === 0) throw errors.notAuthorized('Unauthenticated access is not supported for this identity pool.');
  const token = logins[context.settings.loginProvider];
  if (providers.length !== 1 || token === undefined) throw invalidLogin(`Issuer doesn't match providerName`);
  const claims = await context.tokens.verifyIdToken(token);
  if (!claims) throw invalidLogin('Not a valid OpenId Connect identity token.');
  return claims;
}

export async function getId(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const identityPoolId = requireString(body, 'IdentityPoolId', IDENTITY_POOL_ID);
  if (identityPoolId !== context.settings.identityPoolId) throw errors.resourceNotFound(`IdentityPool '${identityPoolId}' not found.`);
  const claims = await verifiedLogin(context, body);
  const region = identityPoolId.split(':')[0];
  const identityId = await context.repository.identities.findOrCreate(
    identityPoolId,
    context.settings.loginProvider,
    claims.sub,
    `${region}:${randomUUID()}`,
    context.now(),
  );
  return { IdentityId: identityId };
}

/** AWS-looking temporary credentials: an `ASIA…` key id, a 40-character secret and a session token. */
function mintCredentials() {
  const keyBytes = randomBytes(16);
  const accessKeyId = `ASIA${Array.from(keyBytes, (byte) => BASE32[byte % 32]).join('')}`;
  return { accessKeyId, secretAccessKey: randomBytes(30).toString('base64'), sessionToken: randomBytes(192).toString('base64') };
}

export async function getCredentialsForIdentity(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const identityId = requireString(body, 'IdentityId', IDENTITY_ID);
  const identity = await context.repository.identities.find(identityId);
  if (!identity || identity.identityPoolId !== context.settings.identityPoolId) throw errors.resourceNotFound(`Identity '${identityId}' not found.`);
  const claims = await verifiedLogin(context, body);
  if (claims.sub !== identity.sub || identity.provider !== context.settings.loginProvider) {
    throw errors.notAuthorized(`Access to Identity '${identityId}' is forbidden.`);
  }
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

export interface TemporaryCredentials {
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
 * The live credentials minted for `accessKeyId` (for the storage endpoint's SigV4 check), or undefined when
 * unknown or expired. `serverSecret` defaults to the one the embeddedCognito plugin was started with.
 */
export async function lookupTemporaryCredentials<DB>(
  db: Kysely<DB>,
  accessKeyId: string,
  now: number | Date = Date.now(),
  serverSecret: string | undefined = registeredServerSecret,
): Promise<TemporaryCredentials | undefined> {
  if (serverSecret === undefined) throw new Error('lookupTemporaryCredentials needs the server secret: start embeddedCognito first or pass it');
  if (!/^ASIA[A-Z2-7]{16}$/.test(accessKeyId)) return undefined;
  const repository = createIdentityRepository(db.withTables<IdentityTables>() as unknown as Kysely<IdentityTables>);
  const record = await repository.credentials.findLive(accessKeyId, now instanceof Date ? now.getTime() : now);
  if (!record) return undefined;
  const secret = open(deriveKey(serverSecret, CREDENTIALS_KEY_PURPOSE), record.sealedSecret, accessKeyId);
  if (!secret) return undefined;
  const { secretAccessKey, sessionToken } = JSON.parse(secret.toString('utf8')) as { secretAccessKey: string; sessionToken: string };
  return { secretAccessKey, sessionToken, identityId: record.identityId, expiresAt: new Date(record.expiresAt) };
}
