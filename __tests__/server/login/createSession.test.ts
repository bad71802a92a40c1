import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { ONBOARDING_STATUS_ATTRIBUTE } from '../../../server/plugins/identity';
import { TOKEN_PHONE_MAX_AGE_SECONDS } from '../../../server/routes/user-authorization-management';
import { describeEachDialect } from '../helpers';
import { lastCode, librarySignIn, passCaptcha, signIn, startLoginServerOn, verificationSignature } from './loginServer';

const [ana, pending] = DEMO_CUSTOMERS;

describeEachDialect('create-session', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, {});
  });
  afterAll(() => server.close());

  /** The first call of a login: the id token as bearer, from the browser session `sessionId`. */
  const createSession = (idToken: string, sessionId: string, headers: Record<string, string> = {}) =>
    fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId, ...headers },
    });

  async function startLogin(sessionId = randomUUID(), cookie?: string, language?: string) {
    const idToken = await signIn(server.base, ana.username, ana.password);
    await passCaptcha(server.api, sessionId);
    const response = await createSession(idToken, sessionId, { ...(cookie ? { cookie } : {}), ...(language ? { 'accept-language': language } : {}) });
    return { response, sessionId, idToken };
  }

  const confirm = (sessionId: string, token: string, code: string) =>
    fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, code) },
    });

  describe('the call', () => {
    it('refuses a session id without a captcha pass, even with a valid id token', async () => {
      const idToken = await signIn(server.base, ana.username, ana.password);
      const response = await createSession(idToken, randomUUID());
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: 'CAPTCHA_REQUIRED' });
    });

    it('a captcha pass serves one call only', async () => {
      const { response, sessionId, idToken } = await startLogin();
      expect(response.status).toBe(200);
      const again = await createSession(idToken, sessionId);
      expect(again.status).toBe(403);
    });

    it('refuses a forged id token', async () => {
      const sessionId = randomUUID();
      await passCaptcha(server.api, sessionId);
      const idToken = await signIn(server.base, ana.username, ana.password);
      const [header, payload, signature] = idToken.split('.');
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'someone-else' })).toString('base64url')}.${signature}`;
      const response = await createSession(forged, sessionId);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ code: 'INVALID_TOKEN' });
    });

    it('sends a 6-digit SMS code and confirms the session with it: 201 and a strict, secure, HttpOnly cookie', async () => {
      // Signed in as the SPA signs in, with the unmodified browser client.
      const sessionId = randomUUID();
      const idToken = await librarySignIn(server.base, ana.username, ana.password);
      await passCaptcha(server.api, sessionId);
      const response = await createSession(idToken, sessionId);
      const answer = (await response.json()) as { maskedPhone: string; token: string; resendAfterSeconds: number };
      expect(answer.maskedPhone).toBe('********001');
      expect(answer.token).toMatch(/^[\w-]{40,}$/);
      const code = await lastCode(server.app, ana.phone);
      expect(code).toMatch(/^\d{6}$/);

      const confirmed = await confirm(sessionId, answer.token, code);
      expect(confirmed.status).toBe(201);
      const cookie = confirmed.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^divilo_session=[\w-]{40,};/);
      expect(cookie).toMatch(/HttpOnly/i);
      expect(cookie).toMatch(/Secure/i);
      expect(cookie).toMatch(/SameSite=Strict/i);
      // Beside it, the hint the app reads to know a session may exist: no secret, not HttpOnly.
      const hint = confirmed.headers.getSetCookie().find((header) => header.startsWith('divilo_signed_in='));
      expect(hint).toMatch(/^divilo_signed_in=1;/);
      expect(hint).not.toMatch(/HttpOnly/i);
      expect(hint).toMatch(/Secure/i);

      const sessionCookie = cookie.split(';')[0];
      const session = await fetch(`${server.api}/user-authorization-management/get-session`, { headers: { cookie: sessionCookie } });
      expect(session.status).toBe(200);

      // The code is single use.
      expect((await confirm(sessionId, answer.token, code)).status).toBe(410);
      // Starting again from a browser that holds the confirmed session: 201 at once, no new SMS.
      const outboxBefore = await server.app.db.selectFrom('outbox').select('id').execute();
      const { response: again } = await startLogin(randomUUID(), sessionCookie);
      expect(again.status).toBe(201);
      expect(await server.app.db.selectFrom('outbox').select('id').execute()).toHaveLength(outboxBefore.length);
    });

    it("writes the SMS in the app's language (Accept-Language), Spanish by default", async () => {
      const lastText = async () =>
        (await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', ana.phone).orderBy('id', 'desc').executeTakeFirstOrThrow()).text;
      await startLogin(randomUUID(), undefined, 'en');
      expect(await lastText()).toMatch(/^Divilo: your sign-in code is \d{6}\. It expires in \d+ min\./);
      await startLogin(randomUUID(), undefined, 'fr-FR, es;q=0.8, en;q=0.5');
      expect(await lastText()).toMatch(/^Divilo: tu código para entrar es \d{6}\./);
      await startLogin();
      expect(await lastText()).toMatch(/^Divilo: tu código para entrar es \d{6}\./);
    });

    it('a code only works from the browser session it was sent to', async () => {
      const { response } = await startLogin();
      const { token } = (await response.json()) as { token: string };
      const code = await lastCode(server.app, ana.phone);
      expect((await confirm(randomUUID(), token, code)).status).toBe(410);
    });

    it('a wrong code says how many attempts are left; the fifth blocks, and a new login is blocked too', async () => {
      const { response, sessionId } = await startLogin();
      const { token } = (await response.json()) as { token: string };
      const code = await lastCode(server.app, ana.phone);
      const wrong = code === '000000' ? '111111' : '000000';
      for (let left = 4; left >= 1; left -= 1) {
        const answer = await confirm(sessionId, token, wrong);
        expect(answer.status).toBe(401);
        expect(await answer.json()).toMatchObject({ code: 'CODE_INVALID', attemptsLeft: left });
      }
      const fifth = await confirm(sessionId, token, wrong);
      expect(fifth.status).toBe(423);
      // The answer says how long the block lasts (the login's block time, 15 minutes by default).
      expect(await fifth.json()).toMatchObject({ code: 'CODE_BLOCKED', retryAfterSeconds: server.app.codes.settings.lockSeconds });
      // Even the right code no longer works, and starting again is refused while the block lasts.
      expect((await confirm(sessionId, token, code)).status).toBe(423);
      const { response: blocked } = await startLogin();
      expect(blocked.status).toBe(423);
      const { retryAfterSeconds } = (await blocked.json()) as { retryAfterSeconds: number };
      expect(retryAfterSeconds).toBeGreaterThan(0);
      expect(retryAfterSeconds).toBeLessThanOrEqual(server.app.codes.settings.lockSeconds);
      await server.app.db.deleteFrom('code_blocks').execute();
      await server.app.db.deleteFrom('code_failures').execute();
    });

    it('resending waits for the cooldown', async () => {
      const { response, sessionId } = await startLogin();
      const { token } = (await response.json()) as { token: string };
      const resend = () =>
        fetch(`${server.api}/user-authorization-management/resend-code`, {
          method: 'POST',
          headers: { 'x-divilo-session-id': sessionId, 'content-type': 'application/json' },
          body: JSON.stringify({ token }),
        });
      const early = await resend();
      expect(early.status).toBe(429);
      expect(await early.json()).toMatchObject({ code: 'RESEND_TOO_SOON', retryAfterSeconds: expect.any(Number) });
      server.clock.offsetMs += 6_000;
      const first = await lastCode(server.app, ana.phone);
      const later = await resend();
      expect(later.status).toBe(200);
      expect(await later.json()).toEqual({ maskedPhone: '********001', resendAfterSeconds: 5 });
      const second = await lastCode(server.app, ana.phone);
      // A new code (the same six digits again: one chance in a million); the old one no longer works, the new one does.
      expect(second).not.toBe(first);
      expect((await confirm(sessionId, token, first)).status).toBe(401);
      expect((await confirm(sessionId, token, second)).status).toBe(201);
    });

    it('a malformed verification signature is a 400 with a code', async () => {
      const response = await fetch(`${server.api}/user-authorization-management/create-session`, {
        method: 'POST',
        headers: { 'x-divilo-session-id': randomUUID(), 'x-divilo-verification-signature': 'bm90IGpzb24=' },
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'MALFORMED_SIGNATURE' });
    });

    it('a customer whose onboarding is pending cannot sign in: the error carries ERR-2809', async () => {
      // As the SPA sees it, through the unmodified browser client.
      await expect(librarySignIn(server.base, pending.username, pending.password)).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
    });

    it('a wrong password and an unknown user fail alike', async () => {
      const wrong = await signIn(server.base, ana.username, 'Not-The-Password-1').catch((error: Error) => error);
      const unknown = await signIn(server.base, '87654321X', 'Not-The-Password-1').catch((error: Error) => error);
      expect(wrong).toMatchObject({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
      expect(unknown).toMatchObject({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    });

    it('logout revokes the session and expires the cookie', async () => {
      const { response, sessionId } = await startLogin();
      const { token } = (await response.json()) as { token: string };
      const confirmed = await confirm(sessionId, token, await lastCode(server.app, ana.phone));
      const cookie = (confirmed.headers.get('set-cookie') ?? '').split(';')[0];
      const out = await fetch(`${server.api}/user-authorization-management/logout`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: '{}' });
      expect(out.status).toBe(204);
      expect(out.headers.get('set-cookie')).toMatch(/divilo_session=;/);
      expect(out.headers.getSetCookie().find((header) => header.startsWith('divilo_signed_in='))).toMatch(/^divilo_signed_in=;.*Expires=Thu, 01 Jan 1970/);
      expect((await fetch(`${server.api}/user-authorization-management/get-session`, { headers: { cookie } })).status).toBe(401);
    });

    it('the audit log records the steps, never the codes', async () => {
      const before = (await server.app.auditLog.listBySubject(`user:${ana.username}`)).length;
      const { response, sessionId } = await startLogin();
      const { token } = (await response.json()) as { token: string };
      const code = await lastCode(server.app, ana.phone);
      expect((await confirm(sessionId, token, code === '000000' ? '111111' : '000000')).status).toBe(401);
      expect((await confirm(sessionId, token, code)).status).toBe(201);
      const entries = (await server.app.auditLog.listBySubject(`user:${ana.username}`)).slice(before);
      expect(entries.map((entry) => entry.action)).toEqual(['login.code_sent', 'login.code_wrong', 'login.session_started']);
      expect(JSON.stringify(entries)).not.toContain(code);
    });
  });

  describe('the phone the code goes to', () => {
    const password = 'Phone-change-1';
    /** A customer signed in at the identity service, whose phone support then changes to `newPhone`. */
    async function signedInThenPhoneChanged(username: string, oldPhone: string, newPhone: string) {
      await server.app.identity.createUser(username, oldPhone, { [ONBOARDING_STATUS_ATTRIBUTE]: 'complete' });
      await server.app.identity.setPassword(username, password, true);
      const idToken = await signIn(server.base, username, password);
      await server.app.identity.updateAttributes(username, { phone_number: newPhone });
      return idToken;
    }
    const begin = async (idToken: string) => {
      const sessionId = randomUUID();
      await passCaptcha(server.api, sessionId);
      const response = await createSession(idToken, sessionId);
      expect(response.status).toBe(200);
      return { sessionId, ...((await response.json()) as { token: string; maskedPhone: string }) };
    };

    it("is the fresh sign-in's, as its id token says; the session starts only if the account still has that phone", async () => {
      const idToken = await signedInThenPhoneChanged('Y1000001A', '+34600000101', '+34600000102');
      const { sessionId, token, maskedPhone } = await begin(idToken);
      expect(maskedPhone).toBe('********101');
      const code = await lastCode(server.app, '+34600000101');
      const refused = await confirm(sessionId, token, code);
      expect(refused.status).toBe(410);
      expect(await refused.json()).toMatchObject({ code: 'CODE_EXPIRED' });
      expect(refused.headers.get('set-cookie')).toBeNull();
    });

    it("is the account's own when the sign-in is more than five minutes old", async () => {
      const idToken = await signedInThenPhoneChanged('Y1000002B', '+34600000103', '+34600000104');
      const past = (TOKEN_PHONE_MAX_AGE_SECONDS + 60) * 1000;
      server.clock.offsetMs += past;
      try {
        const { sessionId, token, maskedPhone } = await begin(idToken);
        expect(maskedPhone).toBe('********104');
        const confirmed = await confirm(sessionId, token, await lastCode(server.app, '+34600000104'));
        expect(confirmed.status).toBe(201);
      } finally {
        server.clock.offsetMs -= past;
      }
    });
  });
});
