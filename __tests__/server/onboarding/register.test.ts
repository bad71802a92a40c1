// /signUp and /reg-code against the whole server, on both databases: the sign-up is confirmed by an e-mail
// code, and only then does the server say whether it opens, resumes or refuses an application.
import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { describeEachDialect } from '../helpers';
import { passCaptcha, startLoginServerOn } from '../login/loginServer';

const [ana] = DEMO_CUSTOMERS;

describeEachDialect('onboarding: register and the e-mail code', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  const json = { 'content-type': 'application/json' };
  const signUp = (overrides: Record<string, unknown> = {}) => ({
    email: 'Lucia.Perez@Example.com',
    idType: 'nif',
    id: '00000000t',
    privacyPolicy: true,
    precontractualInformation: true,
    promotionalCode: 'WELCOME10',
    promotionalCodeFromParam: true,
    ...overrides,
  });
  async function register(body: Record<string, unknown>, captcha = true) {
    const sessionId = randomUUID();
    if (captcha) await passCaptcha(server.api, sessionId);
    const response = await fetch(`${server.api}/onboarding-management/register`, { method: 'POST', headers: json, body: JSON.stringify({ ...body, sessionId }) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  async function emailCode(email: string): Promise<string> {
    const row = await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return /\b(\d{6})\b/.exec(row.text)![1];
  }
  const post = async (path: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.api}/onboarding-management-private/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : json) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const application = async (token: string) => {
    const response = await fetch(`${server.api}/onboarding-management-private/application`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('sends an e-mail code; a wrong one counts, the right one opens an application at personal-info with the sign-up answers', async () => {
    const registered = await register(signUp());
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ token: expect.any(String), expiresIn: 1800, maskedEmail: 'l***@example.com', resendAfterSeconds: server.app.codes.settings.resendSeconds });
    const token = registered.body.token as string;
    const code = await emailCode('lucia.perez@example.com');
    // The sign-up's token opens nothing else until its code is confirmed.
    expect((await application(token)).body).toMatchObject({ code: 'INVALID_TOKEN' });
    expect((await post('storage-identity', token)).status).toBe(401);

    const wrong = await post('email/verify', token, { code: code === '000000' ? '111111' : '000000' });
    expect(wrong).toEqual({ status: 401, body: expect.objectContaining({ code: 'CODE_INVALID', attemptsLeft: 4 }) });
    const confirmed = await post('email/verify', token, { code });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ next: 'personal-info', token: expect.any(String), application: { status: 'in-progress', currentStep: 'personal-info', completedSteps: ['signUp', 'reg-code'] } });
    const answers = (confirmed.body.application as { answers: Record<string, unknown> }).answers;
    expect(answers).toMatchObject({ email: 'lucia.perez@example.com', id: '00000000T', idType: 'nif', promotionalCode: 'WELCOME10', promotionalCodeFromParam: true });
    expect(Date.parse(answers.privacyPolicyDate as string)).not.toBeNaN();
    expect(JSON.stringify(confirmed.body)).not.toContain(code);

    const view = await application(confirmed.body.token as string);
    expect(view).toEqual({ status: 200, body: confirmed.body.application });
    // The code was used up with the sign-up.
    expect((await post('email/verify', token, { code })).status).toBe(410);
  });

  it('answers a known and an unknown applicant alike at sign-up; only the e-mail code tells a customer to log in instead', async () => {
    const unknown = await register(signUp({ email: 'new.person@example.com', id: '00000001R' }));
    const known = await register(signUp({ email: 'ana.person@example.com', id: ana.username }));
    expect(Object.keys(known.body).sort()).toEqual(Object.keys(unknown.body).sort());
    expect({ ...known.body, token: '', maskedEmail: '' }).toEqual({ ...unknown.body, token: '', maskedEmail: '' });
    const refused = await post('email/verify', known.body.token as string, { code: await emailCode('ana.person@example.com') });
    expect(refused).toEqual({ status: 200, body: { next: 'already-exists', application: null } });
  });

  it('takes an X NIE padded to 8 digits as the 7-digit one: stored canonical, one application for both spellings', async () => {
    const padded = await register(signUp({ email: 'nadia@example.com', id: 'x02600637g' }));
    expect(padded.status).toBe(200);
    const opened = await post('email/verify', padded.body.token as string, { code: await emailCode('nadia@example.com') });
    const applicationId = (opened.body.application as { id: string }).id;
    expect(opened.body).toMatchObject({ application: { answers: { id: 'X2600637G' } } });
    expect((await server.app.applications.find(applicationId))?.idDocument).toBe('X2600637G');

    const short = await register(signUp({ email: 'nadia@example.com', id: 'X2600637G' }));
    expect((await post('email/verify', short.body.token as string, { code: await emailCode('nadia@example.com') })).body).toMatchObject({ application: { id: applicationId } });
    // Another e-mail opens an application of its own (no verified identity holds the ID yet), under the same spelling.
    const other = await register(signUp({ email: 'not.nadia@example.com', id: 'X02600637G' }));
    const theirs = (await post('email/verify', other.body.token as string, { code: await emailCode('not.nadia@example.com') })).body;
    expect(theirs).toMatchObject({ next: 'personal-info', application: { answers: { id: 'X2600637G' } } });
    expect((theirs.application as { id: string }).id).not.toBe(applicationId);
  });

  it('resumes the same application on another device: same e-mail and ID, a new code, the answers kept', async () => {
    const first = await register(signUp({ email: 'marta@example.com', id: '00000002W' }));
    const opened = await post('email/verify', first.body.token as string, { code: await emailCode('marta@example.com') });
    const applicationId = (opened.body.application as { id: string }).id;
    await server.app.applications.save((await server.app.applications.find(applicationId))!, { answers: { ...(opened.body.application as { answers: object }).answers, firstName: 'Marta' }, completedSteps: ['signUp', 'reg-code', 'personal-info'] }, new Date());

    const again = await register(signUp({ email: 'MARTA@example.com ', id: '00000002w' }));
    const resumed = await post('email/verify', again.body.token as string, { code: await emailCode('marta@example.com') });
    expect(resumed.body).toMatchObject({ next: 'contact-phone', application: { id: applicationId, currentStep: 'contact-phone', answers: { firstName: 'Marta' } } });

  });

  it('four sign-ups of one applicant confirmed at the same moment open one application, which all resume', async () => {
    const email = 'twin.signups@example.com';
    const tokens = [];
    for (let device = 0; device < 4; device += 1) tokens.push((await register(signUp({ email, id: '00000031P' }))).body.token as string);
    const codes = (await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', email).orderBy('id').execute()).map((row) => /\b(\d{6})\b/.exec(row.text)![1]);
    expect(codes).toHaveLength(4);
    const confirmed = await Promise.all(tokens.map((token, device) => post('email/verify', token, { code: codes[device] })));
    expect(confirmed.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const ids = new Set(confirmed.map((answer) => (answer.body.application as { id: string }).id));
    expect(ids.size).toBe(1);
    expect(await server.app.db.selectFrom('onboarding_applications').select('id').where('email', '=', email).execute()).toEqual([{ id: [...ids][0] }]);
  });

  it('lets a second applicant with the same ID document in until one identity is verified; then the verified one holds it', async () => {
    const first = await register(signUp({ email: 'typed.first@example.com', id: '00000005M' }));
    const opened = await post('email/verify', first.body.token as string, { code: await emailCode('typed.first@example.com') });
    const firstId = (opened.body.application as { id: string }).id;
    // Typing a DNI reserves nothing: another e-mail with the same ID opens an application of its own.
    const other = await register(signUp({ email: 'real.holder@example.com', id: '00000005M' }));
    const second = await post('email/verify', other.body.token as string, { code: await emailCode('real.holder@example.com') });
    expect(second.body).toMatchObject({ next: 'personal-info', application: { status: 'in-progress' } });
    const secondId = (second.body.application as { id: string }).id;
    expect(secondId).not.toBe(firstId);

    // The second's identity is verified first: it holds the ID. The first is told it exists; the holder resumes.
    await server.app.signInUsers.claim((await server.app.applications.find(secondId))!, new Date());
    const late = await register(signUp({ email: 'typed.first@example.com', id: '00000005M' }));
    expect((await post('email/verify', late.body.token as string, { code: await emailCode('typed.first@example.com') })).body).toEqual({ next: 'already-exists', application: null });
    const third = await register(signUp({ email: 'a.third@example.com', id: '00000005M' }));
    expect((await post('email/verify', third.body.token as string, { code: await emailCode('a.third@example.com') })).body).toEqual({ next: 'already-exists', application: null });
    const back = await register(signUp({ email: 'real.holder@example.com', id: '00000005M' }));
    expect((await post('email/verify', back.body.token as string, { code: await emailCode('real.holder@example.com') })).body).toMatchObject({ application: { id: secondId } });
  });

  it('keeps a refused application refused on another device: the same e-mail and ID come back to its page, not to a new application', async () => {
    const cases = [
      { email: 'asociacion@example.com', id: '00000009D', personType: 'company' as const, answers: { cif: 'G28659670' }, page: 'company-error' },
      { email: 'lives.abroad@example.com', id: '00000010X', personType: null, answers: { residenceCountry: 'FR' }, page: 'forbidden-user' },
    ];
    for (const refused of cases) {
      const first = await register(signUp({ email: refused.email, id: refused.id }));
      const opened = await post('email/verify', first.body.token as string, { code: await emailCode(refused.email) });
      const applicationId = (opened.body.application as { id: string }).id;
      const created = (await server.app.applications.find(applicationId))!;
      await server.app.applications.save(created, { personType: refused.personType, status: 'not-allowed', answers: { ...created.answers, ...refused.answers } }, new Date());

      const again = await register(signUp({ email: refused.email, id: refused.id }));
      const resumed = await post('email/verify', again.body.token as string, { code: await emailCode(refused.email) });
      expect(resumed.body).toMatchObject({ next: refused.page, token: expect.any(String), application: { id: applicationId, status: 'not-allowed', currentStep: refused.page } });
      // Its token reads the refusal again.
      expect((await application(resumed.body.token as string)).body).toMatchObject({ id: applicationId, currentStep: refused.page });
      // The same ID with another e-mail is someone else's application (an unverified refusal holds no ID: nobody
      // can lock a person out by getting an application of their ID refused), and the refused one stays refused.
      const other = await register(signUp({ email: `other.${refused.email}`, id: refused.id }));
      const theirs = (await post('email/verify', other.body.token as string, { code: await emailCode(`other.${refused.email}`) })).body;
      expect(theirs).toMatchObject({ next: 'personal-info', application: { status: 'in-progress' } });
      expect((await server.app.applications.find(applicationId))!.status).toBe('not-allowed');
    }
    const rows = await server.app.db.selectFrom('onboarding_applications').select('id').where('id_document', 'in', ['00000009D', '00000010X']).execute();
    expect(rows).toHaveLength(4);
  });

  it('refuses what the screen refuses, field by field, before the captcha pass is spent', async () => {
    const refused = await register(signUp({ email: 'not-an-email', id: '12345678A', privacyPolicy: false }));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect((refused.body.errors as { field: string; id: string }[]).map(({ field, id }) => [field, id])).toEqual(
      expect.arrayContaining([
        ['email', 'validations.email'],
        ['id', 'validations.identificationDocument'],
        ['privacyPolicy', 'validations.consent'],
      ]),
    );
    const passport = await register(signUp({ idType: 'passport', id: 'PA1234567' }));
    expect((passport.body.errors as { field: string; id: string }[]).map(({ field, id }) => [field, id])).toEqual([['passportExpeditionCountry', 'validations.required']]);
    expect(await register(signUp(), false)).toEqual({ status: 403, body: expect.objectContaining({ code: 'CAPTCHA_REQUIRED' }) });
  });

  it('resends the e-mail code after the cooldown only, and the new code works', async () => {
    const registered = await register(signUp({ email: 'resend@example.com', id: '00000003A' }));
    const token = registered.body.token as string;
    const early = await post('email/resend', token);
    expect(early).toEqual({ status: 429, body: expect.objectContaining({ code: 'RESEND_TOO_SOON', retryAfterSeconds: expect.any(Number) }) });
    server.clock.offsetMs += 31_000;
    expect(await post('email/resend', token)).toEqual({ status: 200, body: { resendAfterSeconds: server.app.codes.settings.resendSeconds } });
    const confirmed = await post('email/verify', token, { code: await emailCode('resend@example.com') });
    expect(confirmed.body).toMatchObject({ next: 'personal-info' });
  });

  it('writes the steps to the audit log, never the codes or the e-mail', async () => {
    const registered = await register(signUp({ email: 'audited@example.com', id: '00000004G' }));
    const code = await emailCode('audited@example.com');
    const confirmed = await post('email/verify', registered.body.token as string, { code });
    const applicationId = (confirmed.body.application as { id: string }).id;
    const entries = await server.app.auditLog.listBySubject(`application:${applicationId}`);
    expect(entries.map((entry) => entry.action)).toEqual(['onboarding.application_created']);
    const all = JSON.stringify(await server.app.db.selectFrom('audit_log').selectAll().execute());
    expect(all).not.toContain(code);
    expect(all).not.toContain('audited@example.com');
  });
});
