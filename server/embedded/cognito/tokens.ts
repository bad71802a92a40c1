// The pool's tokens as Cognito issues them: RS256 id and access JWTs with a `kid`, opaque refresh tokens.
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  randomBytes,
  randomUUID,
  sign as signData,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, jwtVerify, type JWK, type JWTPayload } from 'jose';
import { open, seal } from './sealing';

const generateRsaKeyPair = promisify(generateKeyPair);

export interface TokenLifetimes {
  idTokenSeconds: number;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
}

/** One row of the signing-key table; the private key is sealed, never stored or logged in the clear. */
export interface SigningKeyRecord {
  kid: string;
  publicJwk: JWK;
  sealedPrivateKey: string;
  createdAt: number;
  /**
   * When a newer key takes (or took) over: set in the future when the successor is made, so every process
   * knows the successor before it signs. The public key stays published until tokens it signed have expired.
   */
  retiredAt: number | null;
}

export interface SigningKeyStore {
  listKeys(): Promise<SigningKeyRecord[]>;
  /**
   * Adds the successor of the key `replaces` ('' for the first key). One successor per key: false when another
   * server process added it first, so processes that rotate at the same moment agree on one key.
   */
  addKey(key: SigningKeyRecord, replaces: string): Promise<boolean>;
  retireKeysExcept(kid: string, at: number): Promise<void>;
  deleteKeysRetiredBefore(at: number): Promise<void>;
}

export interface TokenIssuerOptions {
  /** `<issuer base URL>/<poolId>`, the `iss` of every token. */
  issuer: string;
  clientId: string;
  lifetimes: TokenLifetimes;
  /** A new signing key takes over when the active one is this old. */
  keyRotationSeconds: number;
  /**
   * A new key is published this long before it signs: longer than the interval at which every process rereads
   * the keys, so no process meets a token signed with a key it has not read yet.
   */
  keyPublishSeconds: number;
  /** Seals the private keys in the store. */
  keyEncryptionKey: Buffer;
  store: SigningKeyStore;
  now: () => number;
}

interface TokenSubject {
  sub: string;
  username: string;
  attributes: Record<string, string>;
  /** The user's groups, `cognito:groups` in both tokens; none: no claim, as Cognito. */
  groups?: string[];
}

interface SignInContext {
  /** Epoch seconds of the password check; kept across refreshes. */
  authTime: number;
  /** Identifies the sign-in (and its refresh token); revoking it revokes the access tokens it produced. */
  originJti: string;
}

interface IssuedTokens {
  idToken: string;
  accessToken: string;
  expiresIn: number;
}

interface AccessTokenClaims extends JWTPayload {
  sub: string;
  username: string;
  client_id: string;
  origin_jti: string;
  token_use: 'access';
}

export interface IdTokenClaims extends JWTPayload {
  sub: string;
  token_use: 'id';
}

interface LoadedKey {
  record: SigningKeyRecord;
  publicKey: KeyObject;
  privateKey?: KeyObject;
  /** The JWS protected header `{"alg":"RS256","kid":…}`, base64url: the same for every token of the key. */
  encodedHeader?: string;
}

const ACCESS_SCOPE = 'aws.cognito.signin.user.admin';
const KEY_CONTEXT = 'signing-key';
const UNKNOWN_KID_RELOAD_MS = 30_000;

/** The issuer, and the login name, of the identity pool's own OpenID tokens, as on AWS. */
const OPENID_TOKEN_ISSUER = 'https://cognito-identity.amazonaws.com';
export const OPENID_LOGIN = 'cognito-identity.amazonaws.com';
/** The longest TokenDuration GetOpenIdTokenForDeveloperIdentity accepts (a day, as on AWS). */
export const OPENID_TOKEN_MAX_SECONDS = 86_400;

export function createTokenIssuer(options: TokenIssuerOptions) {
  const { issuer, clientId, lifetimes, store, now } = options;
  /** Newest first. */
  let keys: LoadedKey[] = [];
  let rotation: Promise<void> | undefined;
  let lastReload = 0;
  const longestTokenSeconds = Math.max(lifetimes.idTokenSeconds, lifetimes.accessTokenSeconds, OPENID_TOKEN_MAX_SECONDS);

  const unsealed = (record: SigningKeyRecord) => open(options.keyEncryptionKey, record.sealedPrivateKey, `${KEY_CONTEXT}:${record.kid}`);
  /** The newest key: the one that signs once its predecessor retires. */
  const newestKey = () => keys.find((key) => key.record.retiredAt === null);

  /**
   * The key that signs now: the oldest one not yet retired. A successor is published before its predecessor's
   * retirement time, and every process reads the same times, so they all switch at the same moment.
   */
  function activeKey(): LoadedKey {
    const at = now();
    const key = keys.findLast((candidate) => candidate.record.retiredAt === null || candidate.record.retiredAt > at);
    if (!key) throw new Error('the token issuer has no signing key; call init() first');
    if (!key.privateKey) {
      const pem = unsealed(key.record);
      if (!pem) throw new Error(`signing key ${key.record.kid} cannot be unsealed with the configured secret`);
      key.privateKey = createPrivateKey(pem.toString('utf8'));
      key.encodedHeader = base64url(JSON.stringify({ alg: 'RS256', kid: key.record.kid }));
    }
    return key;
  }

  /** Reads the keys again (another process may have rotated them). */
  async function reload(): Promise<void> {
    lastReload = Date.now();
    const records = await store.listKeys();
    const previous = new Map(keys.map((key) => [key.record.kid, key]));
    keys = records
      .sort((a, b) => b.createdAt - a.createdAt || b.kid.localeCompare(a.kid))
      .map((record) => {
        const known = previous.get(record.kid);
        return known && known.record.retiredAt === record.retiredAt
          ? known
          : { record, publicKey: createPublicKey({ key: record.publicJwk as JsonWebKey, format: 'jwk' }) };
      });
  }

  /** Makes the successor of `replaces`, signing after `takesOverInSeconds`; another process may have made it first. */
  async function addSuccessor(replaces: string, takesOverInSeconds: number): Promise<void> {
    const { publicKey, privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
    const jwk = publicKey.export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint(jwk);
    const createdAt = now();
    const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    const added = await store.addKey(
      {
        kid,
        publicJwk: { kty: jwk.kty, n: jwk.n, e: jwk.e, alg: 'RS256', use: 'sig', kid },
        sealedPrivateKey: seal(options.keyEncryptionKey, pem, `${KEY_CONTEXT}:${kid}`),
        createdAt,
        retiredAt: null,
      },
      replaces,
    );
    if (added) {
      await store.retireKeysExcept(kid, createdAt + takesOverInSeconds * 1000);
      await store.deleteKeysRetiredBefore(createdAt - longestTokenSeconds * 1000);
    }
    await reload();
  }

  /** Publishes a new key now; it signs after keyPublishSeconds. */
  async function rotateKey(): Promise<void> {
    await reload();
    await addSuccessor(newestKey()?.record.kid ?? '', options.keyPublishSeconds);
  }

  /** Loads the keys, creating the first one, and rotates when the newest key is due. Safe to call often. */
  async function maintainKeys(): Promise<void> {
    rotation ??= (async () => {
      await reload();
      const newest = newestKey();
      if (!newest) await addSuccessor('', 0);
      // A changed server secret leaves the stored key unusable: a new key takes over at once instead of every sign-in failing.
      else if (!unsealed(newest.record)) await addSuccessor(newest.record.kid, 0);
      else if (now() - newest.record.createdAt >= options.keyRotationSeconds * 1000) await addSuccessor(newest.record.kid, options.keyPublishSeconds);
      else await store.deleteKeysRetiredBefore(now() - longestTokenSeconds * 1000);
    })().finally(() => {
      rotation = undefined;
    });
    return rotation;
  }

  /**
   * A compact RS256 JWS, written by hand rather than through jose's SignJWT: the header of a key is encoded once,
   * and nothing is checked again per token. Same bytes as SignJWT writes (claims in the same order; RSASSA-PKCS1-v1_5
   * is deterministic), which the tests compare. Signed on the calling thread, like the SRP maths before it: a
   * round trip through the libuv pool costs more than it frees for 0.3 ms of work.
   */
  async function sign(payload: JWTPayload, expiresIn: number, issuedAt: number, tokenIssuer = issuer): Promise<string> {
    const key = activeKey();
    const claims = { ...payload, jti: randomUUID(), iss: tokenIssuer, iat: issuedAt, exp: issuedAt + expiresIn };
    const signingInput = `${key.encodedHeader}.${base64url(JSON.stringify(claims))}`;
    const signature = signData('sha256', Buffer.from(signingInput, 'utf8'), key.privateKey!);
    return `${signingInput}.${signature.toString('base64url')}`;
  }

  async function issue(subject: TokenSubject, context: SignInContext): Promise<IssuedTokens> {
    const issuedAt = Math.floor(now() / 1000);
    const eventId = randomUUID();
    const groups = subject.groups?.length ? { 'cognito:groups': subject.groups } : {};
    const idClaims: JWTPayload = {
      ...attributeClaims(subject.attributes),
      sub: subject.sub,
      ...groups,
      aud: clientId,
      'cognito:username': subject.username,
      origin_jti: context.originJti,
      event_id: eventId,
      token_use: 'id',
      auth_time: context.authTime,
    };
    const accessClaims: JWTPayload = {
      sub: subject.sub,
      ...groups,
      client_id: clientId,
      origin_jti: context.originJti,
      event_id: eventId,
      token_use: 'access',
      scope: ACCESS_SCOPE,
      auth_time: context.authTime,
      username: subject.username,
    };
    const [idToken, accessToken] = await Promise.all([
      sign(idClaims, lifetimes.idTokenSeconds, issuedAt),
      sign(accessClaims, lifetimes.accessTokenSeconds, issuedAt),
    ]);
    return { idToken, accessToken, expiresIn: lifetimes.accessTokenSeconds };
  }

  /** Keys that may still have live tokens: the active one and those retired less than a token lifetime ago. */
  function jwks(): { keys: JWK[] } {
    const horizon = now() - longestTokenSeconds * 1000;
    return {
      keys: keys.filter((key) => key.record.retiredAt === null || key.record.retiredAt > horizon).map((key) => key.record.publicJwk),
    };
  }

  /**
   * The identity pool's OpenID token for a developer-authenticated identity (GetOpenIdTokenForDeveloperIdentity):
   * issued by cognito-identity.amazonaws.com for the pool (audience), naming the identity (subject).
   */
  async function issueOpenIdToken(claims: { identityId: string; identityPoolId: string; amr: string[] }, expiresIn: number): Promise<string> {
    const payload: JWTPayload = { sub: claims.identityId, aud: claims.identityPoolId, amr: claims.amr, token_use: 'openid' };
    return sign(payload, expiresIn, Math.floor(now() / 1000), OPENID_TOKEN_ISSUER);
  }

  async function verify(token: string, tokenIssuer = issuer): Promise<JWTPayload | undefined> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          let key = keys.find((candidate) => candidate.record.kid === header.kid);
          if (!key && header.kid !== undefined && Date.now() - lastReload > UNKNOWN_KID_RELOAD_MS) {
            // Another server process may have rotated the key since this one last read them (at most one
            // reread per interval, so forged kids cannot turn every request into a database read).
            await reload();
            key = keys.find((candidate) => candidate.record.kid === header.kid);
          }
          if (!key) throw new Error('unknown kid');
          return key.publicKey;
        },
        { algorithms: ['RS256'], issuer: tokenIssuer, currentDate: new Date(now()) },
      );
      return payload;
    } catch {
      return undefined;
    }
  }

  /** Checks signature, issuer, client and expiry of an access token; revocation is the caller's business. */
  async function verifyAccessToken(token: string): Promise<AccessTokenClaims | undefined> {
    const payload = await verify(token);
    if (!payload || payload.token_use !== 'access' || payload.client_id !== clientId) return undefined;
    if (typeof payload.sub !== 'string' || typeof payload.origin_jti !== 'string' || typeof payload.username !== 'string') return undefined;
    return payload as AccessTokenClaims;
  }

  /** The same checks for an id token, whose audience is the client. */
  async function verifyIdToken(token: string): Promise<IdTokenClaims | undefined> {
    const payload = await verify(token);
    if (!payload || payload.token_use !== 'id' || payload.aud !== clientId || typeof payload.sub !== 'string') return undefined;
    return payload as IdTokenClaims;
  }

  /** The identity an OpenID token of this pool names, or undefined when the token is not one (or expired). */
  async function verifyOpenIdToken(token: string, identityPoolId: string): Promise<string | undefined> {
    const payload = await verify(token, OPENID_TOKEN_ISSUER);
    if (!payload || payload.token_use !== 'openid' || payload.aud !== identityPoolId || typeof payload.sub !== 'string') return undefined;
    return payload.sub;
  }

  return { maintainKeys, rotateKey, reload, issue, issueOpenIdToken, jwks, verifyAccessToken, verifyIdToken, verifyOpenIdToken };
}

export type TokenIssuer = ReturnType<typeof createTokenIssuer>;

/** Cognito keeps attributes as strings but writes the *_verified ones into the id token as booleans. */
function attributeClaims(attributes: Record<string, string>): Record<string, string | boolean> {
  const claims: Record<string, string | boolean> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'sub') continue;
    claims[name] = name.endsWith('_verified') ? value === 'true' : value;
  }
  return claims;
}

const base64url = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** An opaque refresh token; only its hash is stored. */
export function createRefreshToken(): { token: string; hash: string } {
  const token = randomBytes(48).toString('base64url');
  return { token, hash: hashRefreshToken(token) };
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}
