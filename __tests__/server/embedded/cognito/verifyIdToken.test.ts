import type { Kysely } from 'kysely';
import { createIdentityRepository } from '../../../../server/embedded/cognito/repository';
import { deriveKey } from '../../../../server/embedded/cognito/sealing';
import type { IdentityTables } from '../../../../server/embedded/cognito/tables';
import { createTokenIssuer } from '../../../../server/embedded/cognito/tokens';
import { createIdentityService } from '../../../../server/services/identity';
import { CLIENT_ID, POOL_ID, REGION, SERVER_SECRET, startHarness, type Harness } from './harness';
import { srpSignIn } from './srpClient';
import { describeEachDialect } from '../../helpers';

let harness: Harness;
let idToken: string;
let accessToken: string;

// The tokens come from an SRP sign-in with the library's requests, the maths through OpenSSL (srpClient.ts):
// signIn.test.ts signs in with the library itself.
jest.setTimeout(60_000);

describeEachDialect('id tokens of the embedded pool', (dialect) => {
  beforeAll(async () => {
    harness = await startHarness(dialect);
    await harness.identity.createUser('F3333333C', '+34633333333');
    await harness.identity.setPassword('F3333333C', 'Verify-Pass-1', true);
    ({ IdToken: idToken, AccessToken: accessToken } = await srpSignIn(harness.endpoint, POOL_ID, CLIENT_ID, 'F3333333C', 'Verify-Pass-1'));
  });

  afterAll(async () => {
    await harness.close();
  });

  /** Signs with the pool's own key but other claims: only the claim checks can refuse these. */
  async function forged(overrides: { issuer?: string; clientId?: string; now?: number }) {
    const tokens = createTokenIssuer({
      issuer: overrides.issuer ?? `${harness.issuerBaseUrl}/${POOL_ID}`,
      clientId: overrides.clientId ?? CLIENT_ID,
      lifetimes: { idTokenSeconds: 3600, accessTokenSeconds: 3600, refreshTokenSeconds: 3600 },
      keyRotationSeconds: 86_400,
      keyPublishSeconds: 1800,
      keyEncryptionKey: deriveKey(SERVER_SECRET, 'signing-keys'),
      store: createIdentityRepository(harness.db as Kysely<IdentityTables>).signingKeys,
      now: () => overrides.now ?? Date.now(),
    });
    await tokens.reload();
    const subject = { sub: '00000000-0000-4000-8000-000000000000', username: 'F3333333C', attributes: {} };
    return (await tokens.issue(subject, { authTime: Math.floor(Date.now() / 1000), originJti: 'o' })).idToken;
  }

  const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

  describe('identity.verifyIdToken', () => {
    it('accepts a genuine id token and one forged with the right claims (the control for the cases below)', async () => {
      await expect(harness.identity.verifyIdToken(idToken)).resolves.toMatchObject({ 'cognito:username': 'F3333333C', token_use: 'id' });
      await expect(harness.identity.verifyIdToken(await forged({}))).resolves.toMatchObject({ token_use: 'id' });
    });

    it('refuses a token with any byte changed', async () => {
      const [header, payload, signature] = idToken.split('.');
      const flip = (part: string, at: number) => {
        const bytes = Buffer.from(part, 'base64url');
        bytes[at] ^= 0x01;
        return bytes.toString('base64url');
      };
      for (const tampered of [
        [header, flip(payload, 10), signature],
        [header, payload, flip(signature, 5)],
        [flip(header, 3), payload, signature],
        [header, base64url({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), 'cognito:username': 'someone' }), signature],
      ]) {
        await expect(harness.identity.verifyIdToken(tampered.join('.'))).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
      }
    });

    it('refuses alg none, HS256 keyed with the public key, an access token, and garbage', async () => {
      const payload = idToken.split('.')[1];
      await expect(harness.identity.verifyIdToken(`${base64url({ alg: 'none', typ: 'JWT' })}.${payload}.`)).rejects.toMatchObject({
        code: 'INVALID_TOKEN',
      });
      const kid = JSON.parse(Buffer.from(idToken.split('.')[0], 'base64url').toString()).kid;
      await expect(harness.identity.verifyIdToken(`${base64url({ alg: 'HS256', kid })}.${payload}.c2lnbmF0dXJl`)).rejects.toMatchObject({
        code: 'INVALID_TOKEN',
      });
      await expect(harness.identity.verifyIdToken(accessToken)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
      for (const garbage of ['', 'a.b.c', 'not a token']) {
        await expect(harness.identity.verifyIdToken(garbage)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
      }
    });

    it('refuses a wrong audience, a wrong issuer and an expired token', async () => {
      await expect(harness.identity.verifyIdToken(await forged({ clientId: 'someOtherClient' }))).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
      await expect(harness.identity.verifyIdToken(await forged({ issuer: 'http://127.0.0.1:1/cognito/local_Other1' }))).rejects.toMatchObject({
        code: 'INVALID_TOKEN',
      });
      await expect(harness.identity.verifyIdToken(await forged({ now: Date.now() - 3601_000 }))).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
    });

    it('refuses a token of the right pool when the service is configured for another client', async () => {
      const other = createIdentityService({ region: REGION, userPoolId: POOL_ID, clientId: 'anotherClient', issuerBaseUrl: harness.issuerBaseUrl });
      await expect(other.verifyIdToken(idToken)).rejects.toMatchObject({ code: 'INVALID_TOKEN' });
      other.destroy();
    });

    it('publishes only public keys in the JWKS', async () => {
      const response = await fetch(`${harness.issuerBaseUrl}/${POOL_ID}/.well-known/jwks.json`);
      const { keys } = (await response.json()) as { keys: Record<string, string>[] };
      expect(keys.length).toBeGreaterThanOrEqual(1);
      for (const key of keys) {
        expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig', e: 'AQAB' });
        expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      }
      expect((await fetch(`${harness.issuerBaseUrl}/local_Other1/.well-known/jwks.json`)).status).toBe(404);
    });
  });
});
