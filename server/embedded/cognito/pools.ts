// The service's user pools: the main one (the customers'), and any more (the staff's), each with its own id,
// client, users and issuer. One request is answered by the pool it names: its client, its pool id, the issuer of
// its access token, or the key its Session was sealed with.
import { decodeJwt } from 'jose';
import type { Kysely } from 'kysely';
import { openMfaSession } from './authSession';
import type { PasswordPolicy, PoolContext } from './context';
import { CREDENTIALS_KEY_PURPOSE } from './identityPool';
import type { JsonObject } from './input';
import type { EmbeddedCognitoOptions } from './plugin';
import { createIdentityRepository } from './repository';
import { deriveKey } from './sealing';
import type { IdentityTables } from './tables';
import { createTokenIssuer, type TokenLifetimes } from './tokens';

export interface AdditionalPoolOptions {
  /** `<region>_<name>`, distinct from the main pool's. */
  poolId: string;
  clientId: string;
  /** ON: sign-ins need an authenticator app's code (default OFF). */
  mfa?: 'OFF' | 'ON';
  /** The pool's groups, created with it. */
  groups?: string[];
  /** Its own password policy, over the service's (the staff's is stricter than the customers'). */
  passwordPolicy?: Partial<PasswordPolicy>;
  /** The pool's own Lambda triggers, as each Cognito pool has its own (default none). */
  triggers?: EmbeddedCognitoOptions['triggers'];
}

/** How often every process rereads the signing keys and deletes what has expired. */
export const MAINTENANCE_INTERVAL_MS = 10 * 60 * 1000;
const KEY_PUBLISH_SECONDS = 3 * (MAINTENANCE_INTERVAL_MS / 1000);

/**
 * `repositoryKey` is '' for the main pool: its users keep the key they had before there were more pools. The other
 * pools derive their own keys, so a Session or a fake user's salt of one pool means nothing in another.
 */
function buildContext(options: EmbeddedCognitoOptions, pool: AdditionalPoolOptions, repositoryKey: string): PoolContext {
  const match = /^([\w-]+)_([0-9a-zA-Z]+)$/.exec(pool.poolId);
  if (!match) throw new Error(`embeddedCognito: poolId ${pool.poolId} is not <region>_<name>`);
  if (!/^[\w+]{1,128}$/.test(pool.clientId)) throw new Error('embeddedCognito: clientId must match [\\w+]+ as Cognito client ids do');
  const issuer = `${options.issuerBaseUrl.replace(/\/+$/, '')}/${pool.poolId}`;
  const lifetimes: TokenLifetimes = { idTokenSeconds: 3600, accessTokenSeconds: 3600, refreshTokenSeconds: 30 * 86_400, ...options.tokenLifetimes };
  const now = options.now ?? Date.now;
  const repository = createIdentityRepository(options.db.withTables<IdentityTables>() as unknown as Kysely<IdentityTables>, repositoryKey);
  // Triggers belong to a pool: the main pool's are the plugin's, another pool has only the ones it names.
  const triggers = repositoryKey === '' ? options.triggers : pool.triggers;
  const purpose = (name: string) => (repositoryKey === '' ? name : `${name}/${pool.poolId}`);
  return {
    settings: {
      poolId: pool.poolId,
      poolName: match[2],
      clientId: pool.clientId,
      issuer,
      loginProvider: issuer.replace(/^https?:\/\//, ''),
      identityPoolId: options.identityPoolId,
      developerProviderName: options.developerProviderName,
      adminCredentials: options.adminCredentials,
      lifetimes,
      lockout: { maxFailures: 5, lockSeconds: 15 * 60, nameMaxFailures: 20, clientMaxFailures: 20, ...options.lockout },
      maxClockSkewSeconds: options.maxClockSkewSeconds ?? 300,
      authSessionSeconds: options.authSessionSeconds ?? 180,
      temporaryCredentialsSeconds: options.temporaryCredentialsSeconds ?? 3600,
      passwordPolicy: {
        minimumLength: 8,
        requireLowercase: true,
        requireUppercase: true,
        requireNumbers: true,
        requireSymbols: true,
        temporaryPasswordValidityDays: 7,
        ...options.passwordPolicy,
        ...pool.passwordPolicy,
      },
      mfa: pool.mfa ?? 'OFF',
      groups: pool.groups ?? [],
    },
    keys: {
      fakeUser: deriveKey(options.serverSecret, purpose('fake-users')),
      srpSession: deriveKey(options.serverSecret, purpose('srp-sessions')),
      credentials: deriveKey(options.serverSecret, CREDENTIALS_KEY_PURPOSE),
      softwareTokens: deriveKey(options.serverSecret, 'software-tokens'),
    },
    repository,
    // Every pool signs with the same keys (one table, one succession): its tokens differ by `iss` and client.
    tokens: createTokenIssuer({
      issuer,
      clientId: pool.clientId,
      lifetimes,
      keyRotationSeconds: options.keyRotationSeconds ?? 30 * 86_400,
      keyPublishSeconds: options.keyPublishSeconds ?? KEY_PUBLISH_SECONDS,
      keyEncryptionKey: deriveKey(options.serverSecret, 'signing-keys'),
      store: repository.signingKeys,
      now,
    }),
    preTokenGeneration: () => triggers?.preTokenGeneration,
    now,
  };
}

export function createPools(options: EmbeddedCognitoOptions) {
  if (!/^[\w-]+:[0-9a-f-]+$/.test(options.identityPoolId)) throw new Error('embeddedCognito: identityPoolId is not <region>:<uuid>');
  if (options.serverSecret.length < 32) throw new Error('embeddedCognito: serverSecret must be at least 32 characters');
  const main = buildContext(options, { poolId: options.poolId, clientId: options.clientId }, '');
  const all = [main, ...(options.additionalPools ?? []).map((pool) => buildContext(options, pool, pool.poolId))];
  for (const field of ['poolId', 'clientId'] as const) {
    if (new Set(all.map((context) => context.settings[field])).size !== all.length) throw new Error(`embeddedCognito: every pool needs its own ${field}`);
  }

  const byPoolId = (poolId: unknown) => all.find((context) => context.settings.poolId === poolId);

  function issuerOf(token: string): unknown {
    try {
      return decodeJwt(token).iss;
    } catch {
      return undefined;
    }
  }

  /** The pool a request is for; the main pool when it names none, which then answers as it always did. */
  function poolOf(body: JsonObject): PoolContext {
    const { ClientId: clientId, UserPoolId: poolId, AccessToken: accessToken, Session: session } = body;
    let found: PoolContext | undefined;
    if (clientId !== undefined) found = all.find((context) => context.settings.clientId === clientId);
    else if (poolId !== undefined) found = byPoolId(poolId);
    else if (typeof accessToken === 'string') {
      const issuer = issuerOf(accessToken);
      found = all.find((context) => context.settings.issuer === issuer);
    } else if (typeof session === 'string') {
      found = all.find((context) => openMfaSession(context.keys.srpSession, session, context.now()) !== undefined);
    }
    return found ?? main;
  }

  return { main, all, byPoolId, poolOf };
}
