// The onboarding session's lifetime: it ends a fixed time after its e-mail code whatever the renewals, and once
// the application is signed, approved or rejected its token reads the status and nothing else.
import { randomUUID } from 'node:crypto';
import type { ApplicationStatus } from '../../../server/repositories/applicationRepository';
import { describeEachDialect } from '../helpers';
import { passCaptcha, startLoginServerOn } from '../login/loginServer';

const TOKEN_SECONDS = 1800;
const SESSION_SECONDS = 7200;

describeEachDialect('onboarding: the session ends', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { ONBOARDING_TOKEN_SECONDS: String(TOKEN_SECONDS), ONBOARDING_SESSION_MAX_SECONDS: String(SESSION_SECONDS) });
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.clock.offsetMs = 0;
  });

  const json = { 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST', path: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.api}/onboarding-management-private/${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : json) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json().catch(() => ({}))) as Record<string, unknown> };
  };
  const nowSeconds = () => Math.floor(server.app.clock().getTime() / 1000);

  /** A new applicant's application, opened through the e-mail code: its id and the token the code gave. */
  async function openApplication(): Promise<{ id: string; token: string }> {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const email = `session.${randomUUID().slice(0, 8)}@example.com`;
    const register = await fetch(`${server.api}/onboarding-management/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, idType: 'passport', id: `P${randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase()}`, passportExpeditionCountry: 'FR', privacyPolicy: true, precontractualInformation: true, sessionId }),
    });
    expect(register.status).toBe(200);
    const { token } = (await register.json()) as { token: string };
    const row = await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
    const confirmed = await call('POST', 'email/verify', token, { code: /\b(\d{6})\b/.exec(row.text)![1] });
    expect(confirmed.status).toBe(200);
    return { id: (confirmed.body.application as { id: string }).id, token: confirmed.body.token as string };
  }

  it('renewals never carry the session past its end, counted from the e-mail code', async () => {
    const started = nowSeconds();
    const { token } = await openApplication();
    const end = (await server.app.onboardingTokens.verify(token)).sessionEndsAt;
    expect(end).toBeGreaterThanOrEqual(started + SESSION_SECONDS);
    expect(end).toBeLessThanOrEqual(nowSeconds() + SESSION_SECONDS);
    /** Moves the server's clock to `seconds` before the session's end. */
    const beforeEnd = (seconds: number) => {
      server.clock.offsetMs = (end - seconds) * 1000 - Date.now();
    };

    // Renewed every 1000 seconds, each time for a full token's life while the session has more than that left.
    let current = token;
    for (let left = SESSION_SECONDS - 1000; left > TOKEN_SECONDS; left -= 1000) {
      beforeEnd(left);
      const renewed = await call('POST', 'session/renew', current);
      expect(renewed).toEqual({ status: 200, body: { token: expect.any(String), expiresIn: TOKEN_SECONDS } });
      current = renewed.body.token as string;
    }

    // Ten minutes before the end a renewal lives ten minutes, not a full token's life.
    beforeEnd(600);
    const second = await call('POST', 'session/renew', current);
    expect(second.status).toBe(200);
    expect(second.body.expiresIn).toBeLessThanOrEqual(600);
    expect((await server.app.onboardingTokens.verify(second.body.token as string)).expiresAt).toBe(end);

    // Nothing left to renew: the session ended, and then the token with it.
    beforeEnd(60);
    expect(await call('POST', 'session/renew', second.body.token as string)).toEqual({ status: 401, body: expect.objectContaining({ code: 'SESSION_ENDED' }) });
    beforeEnd(-5);
    expect(await call('POST', 'session/renew', second.body.token as string)).toEqual({ status: 401, body: expect.objectContaining({ code: 'TOKEN_EXPIRED' }) });
    expect((await call('GET', 'application', second.body.token as string)).body).toMatchObject({ code: 'TOKEN_EXPIRED' });
  });

  it("a sign-up's session ends with the sign-up: its renewals do not outlive it", async () => {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const register = await fetch(`${server.api}/onboarding-management/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: `signup.${randomUUID().slice(0, 8)}@example.com`, idType: 'passport', id: `P${randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase()}`, passportExpeditionCountry: 'FR', privacyPolicy: true, precontractualInformation: true, sessionId }),
    });
    const { token } = (await register.json()) as { token: string };
    const { applicationId: subject, sessionEndsAt } = await server.app.onboardingTokens.verify(token);
    const registration = await server.app.applications.findRegistration(subject.replace(/^registration:/, ''), server.app.clock());
    expect(sessionEndsAt).toBe(Math.floor(Date.parse(registration!.expiresAt) / 1000));
  });

  it.each<ApplicationStatus>(['pending-review', 'approved', 'rejected'])('once %s, the token reads the status and nothing else', async (status) => {
    const { id, token } = await openApplication();
    expect((await call('POST', 'storage-identity', token)).status).toBe(200);
    const application = (await server.app.applications.find(id))!;
    await server.app.applications.save(application, { status }, server.app.clock());

    expect(await call('GET', 'application', token)).toEqual({ status: 200, body: { id, status } });
    const closed = { status: 409, body: expect.objectContaining({ code: 'APPLICATION_CLOSED', currentStep: 'welcome' }) };
    expect(await call('POST', 'session/renew', token)).toEqual(closed);
    expect(await call('POST', 'storage-identity', token)).toEqual(closed);
    expect(await call('GET', 'documents', token)).toEqual(closed);
    expect(await call('POST', 'documents', token, { kind: 'model036', key: 'private/eu-west-1:0000aaaa-0000/model036.pdf' })).toEqual(closed);
    expect(await call('GET', 'contract', token)).toEqual(closed);
    expect(await call('GET', 'contract/text', token)).toEqual(closed);
    expect(await call('POST', 'contract/resend', token)).toEqual(closed);
    expect(await call('POST', 'contract/sign', token, { code: '123456' })).toEqual(closed);
    expect(await call('GET', 'identity-check', token)).toEqual(closed);
    expect(await call('POST', 'personal-info', token, { firstName: 'Ana' })).toEqual(closed);
    expect(await call('POST', 'phone', token, { telephoneCountry: 'ES', telephoneNumber: '+34611222333' })).toEqual(closed);
    expect(await call('POST', 'password', token, { diviloPassword: 'Aa1!aaaaaaaa', diviloPasswordConfirmation: 'Aa1!aaaaaaaa' })).toEqual(closed);
  });
});
