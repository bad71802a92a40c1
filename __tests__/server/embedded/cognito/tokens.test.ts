import { createHash, createPrivateKey } from 'node:crypto';
import { SignJWT, createLocalJWKSet, decodeJwt, decodeProtectedHeader, jwtVerify } from 'jose';
import { deriveKey, open } from '../../../../server/embedded/cognito/sealing';
import {
  createRefreshToken,
  createTokenIssuer,
  hashRefreshToken,
  type SigningKeyRecord,
  type SigningKeyStore,
  type TokenIssuerOptions,
} from '../../../../server/embedded/cognito/tokens';

/** The database's rules in memory: one successor per key. */
function memoryStore(): SigningKeyStore & { rows: SigningKeyRecord[] } {
  const rows: SigningKeyRecord[] = [];
  const replaced = new Set<string>();
  return {
    rows,
    async listKeys() {
      return rows.map((row) => ({ ...row }));
    },
    async addKey(key, replaces) {
      if (replaced.has(replaces)) return false;
      replaced.add(replaces);
      rows.push({ ...key });
      return true;
    },
    async retireKeysExcept(kid, at) {
      for (const row of rows) if (row.kid !== kid && row.retiredAt === null) row.retiredAt = at;
    },
    async deleteKeysRetiredBefore(at) {
      for (let i = rows.length - 1; i >= 0; i -= 1) if (rows[i].retiredAt !== null && rows[i].retiredAt! < at) rows.splice(i, 1);
    },
  };
}

const ISSUER = 'http://localhost:3000/cognito/local_Divilo1';
const subject = {
  sub: '6f1c2a9e-1111-4222-8333-944455556666',
  username: 'X1234567L',
  attributes: { phone_number: '+34600000000', phone_number_verified: 'true', 'custom:role': 'owner' },
};

function issuer(overrides: Partial<TokenIssuerOptions> & { clock?: { now: number } } = {}) {
  const clock = overrides.clock ?? { now: Date.now() };
  return {
    clock,
    tokens: createTokenIssuer({
      issuer: ISSUER,
      clientId: 'client-1',
      lifetimes: { idTokenSeconds: 600, accessTokenSeconds: 300, refreshTokenSeconds: 86_400 },
      keyRotationSeconds: 30 * 86_400,
      keyPublishSeconds: 1800,
      keyEncryptionKey: deriveKey('server-secret', 'signing-keys'),
      store: memoryStore(),
      now: () => clock.now,
      ...overrides,
    }),
  };
}

describe('the token issuer', () => {
  it('signs RS256 id and access tokens with a kid published in the JWKS, with the claims Cognito writes', async () => {
    const { tokens, clock } = issuer();
    await tokens.maintainKeys();
    const authTime = Math.floor(clock.now / 1000) - 5;
    const issued = await tokens.issue(subject, { authTime, originJti: 'origin-1' });
    expect(issued.expiresIn).toBe(300);

    const jwks = createLocalJWKSet(tokens.jwks());
    expect(tokens.jwks().keys).toHaveLength(1);
    expect(tokens.jwks().keys[0]).not.toHaveProperty('d');
    const header = decodeProtectedHeader(issued.idToken);
    expect(header).toEqual({ alg: 'RS256', kid: tokens.jwks().keys[0].kid });

    const id = (await jwtVerify(issued.idToken, jwks, { issuer: ISSUER, audience: 'client-1', algorithms: ['RS256'] })).payload;
    expect(id).toMatchObject({
      sub: subject.sub,
      'cognito:username': 'X1234567L',
      token_use: 'id',
      auth_time: authTime,
      origin_jti: 'origin-1',
      phone_number: '+34600000000',
      phone_number_verified: true,
      'custom:role': 'owner',
    });
    expect(id.exp! - id.iat!).toBe(600);
    expect(typeof id.jti).toBe('string');

    const access = (await jwtVerify(issued.accessToken, jwks, { issuer: ISSUER, algorithms: ['RS256'] })).payload;
    expect(access).toMatchObject({
      sub: subject.sub,
      client_id: 'client-1',
      username: 'X1234567L',
      token_use: 'access',
      scope: 'aws.cognito.signin.user.admin',
      origin_jti: 'origin-1',
    });
    expect(access.aud).toBeUndefined();
    expect(access.exp! - access.iat!).toBe(300);
    expect(access.jti).not.toBe(id.jti);

    expect(await tokens.verifyAccessToken(issued.accessToken)).toMatchObject({ username: 'X1234567L' });
    expect(await tokens.verifyAccessToken(issued.idToken)).toBeUndefined();
    clock.now += 301_000;
    expect(await tokens.verifyAccessToken(issued.accessToken)).toBeUndefined();
  });

  it('writes the same bytes as jose would for the same header and claims', async () => {
    const store = memoryStore();
    const { tokens } = issuer({ store });
    await tokens.maintainKeys();
    const issued = await tokens.issue(subject, { authTime: 1, originJti: 'origin-1' });
    const openId = await tokens.issueOpenIdToken({ identityId: 'local:identity', identityPoolId: 'local:pool', amr: ['authenticated'] }, 900);
    const [row] = store.rows;
    const privateKey = createPrivateKey(open(deriveKey('server-secret', 'signing-keys'), row.sealedPrivateKey, `signing-key:${row.kid}`)!.toString('utf8'));
    for (const token of [issued.idToken, issued.accessToken, openId]) {
      const again = await new SignJWT(decodeJwt(token)).setProtectedHeader(decodeProtectedHeader(token) as { alg: string }).sign(privateKey);
      expect(token).toBe(again);
    }
    // The registered claims come last, in the order SignJWT's setters add them.
    expect(Object.keys(decodeJwt(issued.accessToken)).slice(-4)).toEqual(['jti', 'iss', 'iat', 'exp']);
  });

  it('stores the private key sealed and keeps using the stored key after a restart', async () => {
    const store = memoryStore();
    const first = issuer({ store }).tokens;
    await first.maintainKeys();
    expect(store.rows).toHaveLength(1);
    // Sealed: neither the PEM nor any stretch of its base64 body is in the stored text, yet the server's key opens it.
    const { sealedPrivateKey, kid } = store.rows[0];
    const pem = open(deriveKey('server-secret', 'signing-keys'), sealedPrivateKey, `signing-key:${kid}`)!.toString('utf8');
    const body = pem.replace(/-----[^-]+-----|\s/g, '');
    expect(body.length).toBeGreaterThan(1000);
    expect(sealedPrivateKey).not.toContain('PRIVATE KEY');
    for (let at = 0; at + 24 <= body.length; at += 24) expect(sealedPrivateKey).not.toContain(body.slice(at, at + 24));
    expect(JSON.stringify(store.rows[0].publicJwk)).not.toMatch(/"d"/);

    const restarted = issuer({ store }).tokens;
    await restarted.maintainKeys();
    expect(store.rows).toHaveLength(1);
    const token = (await restarted.issue(subject, { authTime: 1, originJti: 'o' })).idToken;
    expect(decodeProtectedHeader(token).kid).toBe(store.rows[0].kid);

    // Under another server secret the stored key cannot be opened: a new one takes over, the old stays published.
    const wrongSecret = issuer({ store, keyEncryptionKey: deriveKey('another-secret', 'signing-keys') }).tokens;
    await wrongSecret.maintainKeys();
    const fresh = await wrongSecret.issue(subject, { authTime: 1, originJti: 'o' });
    expect(decodeProtectedHeader(fresh.idToken).kid).not.toBe(store.rows[0].kid);
    expect(wrongSecret.jwks().keys.map((key) => key.kid)).toContain(store.rows[0].kid);
  });

  it('rotates the key when due and publishes the old public key until its tokens have expired', async () => {
    const store = memoryStore();
    const { tokens, clock } = issuer({ store, keyRotationSeconds: 3600, keyPublishSeconds: 0 });
    await tokens.maintainKeys();
    const oldKid = store.rows[0].kid;
    const oldToken = (await tokens.issue(subject, { authTime: 1, originJti: 'o' })).idToken;

    clock.now += 3600_000;
    await tokens.maintainKeys();
    const newToken = (await tokens.issue(subject, { authTime: 1, originJti: 'o' })).idToken;
    expect(decodeProtectedHeader(newToken).kid).not.toBe(oldKid);
    expect(tokens.jwks().keys.map((key) => key.kid)).toContain(oldKid);
    await expect(
      jwtVerify(oldToken, createLocalJWKSet(tokens.jwks()), { issuer: ISSUER, currentDate: new Date(clock.now - 3600_000 + 1000) }),
    ).resolves.toBeDefined();

    clock.now += 86_399_000; // the identity pool's OpenID tokens may live a day: the old key is still published
    await tokens.maintainKeys();
    expect(tokens.jwks().keys.map((key) => key.kid)).toContain(oldKid);
    clock.now += 2_000; // the longest token lifetime has passed since the rotation
    await tokens.maintainKeys();
    expect(tokens.jwks().keys.map((key) => key.kid)).not.toContain(oldKid);
    expect(store.rows.map((row) => row.kid)).not.toContain(oldKid);
  });

  it('publishes a new key before it signs, and processes sharing the store switch to it at the same moment', async () => {
    const store = memoryStore();
    const clock = { now: Date.now() };
    const one = issuer({ store, clock, keyRotationSeconds: 3600, keyPublishSeconds: 1800 }).tokens;
    const other = issuer({ store, clock, keyRotationSeconds: 3600, keyPublishSeconds: 1800 }).tokens;
    await Promise.all([one.maintainKeys(), other.maintainKeys()]);
    const kidOf = async (tokens: typeof one) => decodeProtectedHeader((await tokens.issue(subject, { authTime: 1, originJti: 'o' })).idToken).kid;
    const oldKid = store.rows[0].kid;

    clock.now += 3600_000;
    await one.maintainKeys();
    expect(store.rows).toHaveLength(2);
    const newKid = store.rows[1].kid;
    // Published at once, signing only later: the other process has time to read it before meeting its tokens.
    expect(one.jwks().keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    expect(await kidOf(one)).toBe(oldKid);
    await other.maintainKeys();
    expect(store.rows).toHaveLength(2);
    expect(await kidOf(other)).toBe(oldKid);

    clock.now += 1800_000;
    expect(await kidOf(one)).toBe(newKid);
    expect(await kidOf(other)).toBe(newKid);
    const token = (await one.issue(subject, { authTime: 1, originJti: 'o' })).accessToken;
    expect(await other.verifyAccessToken(token)).toMatchObject({ username: subject.username });
  });

  it('makes one key, not one each, when processes sharing the store start or rotate at the same moment', async () => {
    const store = memoryStore();
    const clock = { now: Date.now() };
    const processes = [1, 2, 3].map(() => issuer({ store, clock, keyRotationSeconds: 3600 }).tokens);
    await Promise.all(processes.map((tokens) => tokens.maintainKeys()));
    expect(store.rows).toHaveLength(1);
    clock.now += 3600_000;
    await Promise.all(processes.map((tokens) => tokens.maintainKeys()));
    expect(store.rows).toHaveLength(2);
    expect(new Set(processes.map((tokens) => JSON.stringify(tokens.jwks())))).toHaveProperty('size', 1);
  });

  it('makes opaque refresh tokens and stores only their SHA-256', () => {
    const one = createRefreshToken();
    const two = createRefreshToken();
    expect(one.token).not.toBe(two.token);
    expect(one.token.length).toBeGreaterThanOrEqual(64);
    expect(one.hash).toBe(createHash('sha256').update(one.token).digest('hex'));
    expect(hashRefreshToken(one.token)).toBe(one.hash);
  });
});
