import { SignJWT } from 'jose';
import { deriveKey, loadServerSecret } from '../../server/services/serverSecret';
import { buildTestApp, describeEachDialect, openTestDatabase, type TestDatabase } from './helpers';

describeEachDialect('onboarding session tokens', (dialect) => {
  let database: TestDatabase;
  let server: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    server = await buildTestApp({ ONBOARDING_TOKEN_SECONDS: '1800' }, { database });
  });
  afterAll(async () => {
    await server.close();
    await database.destroy();
  });

  const renew = (token: string) =>
    server.app.inject({ method: 'POST', url: '/api/onboarding-management-private/session/renew', headers: { authorization: `Bearer ${token}` } });

  /** The key the server signs onboarding tokens with (derived from its secret in the test's data directory). */
  const tokenKey = () => deriveKey(loadServerSecret((server.database as { dataDir: string }).dataDir), 'onboarding-tokens');

  describe('renewal', () => {
    it('a live token is renewed for the same application, with a later expiry', async () => {
      // A token issued ten minutes ago, still live: no waiting for the clock to move.
      const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
      const token = await new SignJWT({ session_end: tenMinutesAgo + 86_400 })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('application-1')
        .setIssuer(server.config.publicUrl)
        .setAudience('divilo-onboarding')
        .setIssuedAt(tenMinutesAgo)
        .setExpirationTime(tenMinutesAgo + 1800)
        .sign(tokenKey());
      const before = await server.app.onboardingTokens.verify(token);
      const response = await renew(token);
      expect(response.statusCode).toBe(200);
      const { token: renewed, expiresIn } = response.json() as { token: string; expiresIn: number };
      expect(expiresIn).toBe(1800);
      const after = await server.app.onboardingTokens.verify(renewed);
      expect(after.applicationId).toBe('application-1');
      expect(after.expiresAt).toBeGreaterThan(before.expiresAt);
    });

    it('a token without a session end (issued before sessions had one) is not extended', async () => {
      const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject('application-1')
        .setIssuer(server.config.publicUrl)
        .setAudience('divilo-onboarding')
        .setIssuedAt(tenMinutesAgo)
        .setExpirationTime(tenMinutesAgo + 1800)
        .sign(tokenKey());
      const response = await renew(token);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'SESSION_ENDED' });
    });

    it('an expired token is not renewed', async () => {
      const expired = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('application-1')
        .setIssuer(server.config.publicUrl)
        .setAudience('divilo-onboarding')
        .setExpirationTime(Math.floor(Date.now() / 1000) - 5)
        .sign(tokenKey());
      const response = await renew(expired);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: 'TOKEN_EXPIRED' });
    });

    it('a token signed with another key, or none at all, is refused', async () => {
      const forged = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('application-1')
        .setIssuer(server.config.publicUrl)
        .setAudience('divilo-onboarding')
        .setExpirationTime('10m')
        .sign(Buffer.alloc(32, 7));
      expect((await renew(forged)).json()).toMatchObject({ code: 'INVALID_TOKEN' });
      const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"a","exp":9999999999}').toString('base64url')}.`;
      expect((await renew(unsigned)).json()).toMatchObject({ code: 'INVALID_TOKEN' });
    });
  });
});
