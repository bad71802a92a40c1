// SMS and e-mail pumping against the whole server, on both databases: every route that sends is charged to the
// budgets of the recipient, the person, the client address and everyone; refusals answer 429
// MESSAGE_BUDGET_EXCEEDED, send nothing, are logged as warnings with the counts (never the number) and audited.
import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../server/plugins/demoCustomers';
import { atThePhoneStep, clientOf, codeIn, newClient, refusals, sentTo, type Server } from './budgetClients';
import { describeEachDialect, logCollector } from './helpers';
import { lastCode, passCaptcha, signIn, startLoginServerOn, verificationSignature } from './login/loginServer';
import { call, PHONE, readyToSign } from './onboarding/signing';

const [ana] = DEMO_CUSTOMERS;

/** Budgets small enough to reach in a test; each test is its own client (X-Forwarded-For, trusted here). */
const BUDGETS = {
  TRUST_PROXY: 'true',
  CODE_RESEND_SECONDS: '30',
  SMS_BUDGET_PER_RECIPIENT: '3',
  SMS_BUDGET_PER_PERSON: '4',
  SMS_BUDGET_PER_CLIENT: '100',
  SMS_BUDGET_TOTAL: '1000',
  EMAIL_BUDGET_PER_RECIPIENT: '3',
  EMAIL_BUDGET_PER_PERSON: '10',
  EMAIL_BUDGET_PER_CLIENT: '4',
  EMAIL_BUDGET_TOTAL: '1000',
  LOG_LEVEL: 'warn',
};

describeEachDialect('message budgets', (dialect) => {
  const logs = logCollector();
  let server: Server;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, BUDGETS, { logStream: logs.stream });
  });
  afterAll(() => server.close());

  describe('the wizard phone', () => {
    it('one application cannot text twenty numbers: a new number within the cooldown is refused as a resend, then the application runs out of budget', async () => {
      const client = newClient();
      const token = await atThePhoneStep(server, client, `pump-${dialect}@example.com`, '00000012N');
      const { post } = clientOf(server, client);
      const numbers = Array.from({ length: 20 }, (_, index) => `6${String(1000000 + index).padStart(8, '0')}`);

      const first = await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: numbers[0] });
      expect(first.status).toBe(200);
      // The next number at once: refused like a resend, nothing sent, and the number saved is still the first.
      const second = await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: numbers[1] });
      expect(second).toMatchObject({ status: 429, body: { code: 'RESEND_TOO_SOON', retryAfterSeconds: expect.any(Number) } });
      expect(await sentTo(server, `+34${numbers[1]}`)).toEqual([]);
      expect((await server.app.applications.find((await server.app.onboardingTokens.verify(token)).applicationId))?.answers.telephoneNumber).toBe(`+34${numbers[0]}`);

      const answers = [first];
      for (const number of numbers.slice(1)) {
        server.clock.offsetMs += 31_000;
        answers.push(await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: number }));
      }
      // SMS_BUDGET_PER_PERSON is 4: four numbers got a code, the sixteen others a refusal that says when to come back.
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(4);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(refused).toHaveLength(16);
      for (const answer of refused) {
        expect(answer.body).toEqual({ code: 'MESSAGE_BUDGET_EXCEEDED', message: expect.any(String), retryAfterSeconds: expect.any(Number) });
        expect(answer.body.retryAfterSeconds).toBeGreaterThan(0);
        expect(answer.body.retryAfterSeconds).toBeLessThanOrEqual(3600);
        expect(answer.retryAfter).toBe(String(answer.body.retryAfterSeconds));
      }
      const texted = (await Promise.all(numbers.map((number) => sentTo(server, `+34${number}`)))).filter((sms) => sms.length > 0);
      expect(texted).toHaveLength(4);

      // The warning has the counts and a masked number; never a whole number or a code.
      const { applicationId } = await server.app.onboardingTokens.verify(token);
      const warning = logs.entries().find((entry) => entry.msg === 'message budget spent: message not sent' && entry.person === `application:${applicationId}`);
      expect(warning).toMatchObject({ level: 40, channel: 'sms', purpose: 'phone-code', refusedBy: 'person', counts: { person: { sent: 4, limit: 4 } }, recipient: expect.stringMatching(/^\*+\d{3}$/) });
      expect(JSON.stringify(warning)).not.toContain(numbers[5]);
    });

    it('refuses premium-rate, shared-cost, fixed and far-away numbers next to the field, and texts none of them', async () => {
      const client = newClient();
      const token = await atThePhoneStep(server, client, `premium-${dialect}@example.com`, '00000013J');
      const { post } = clientOf(server, client);
      const refused = [
        ['ES', '806 123 456', 'validations.phoneSpecialRate'],
        ['ES', '905 123 456', 'validations.phoneNumber'],
        ['ES', '902 123 456', 'validations.phoneSpecialRate'],
        ['ES', '912 345 678', 'validations.phoneNotMobile'],
        ['ES', '+53 5 1234567', 'validations.phoneCountryNotServed'],
        ['ES', '+252 61 2345678', 'validations.phoneCountryNotServed'],
        ['ES', '+670 7721 2345', 'validations.phoneCountryNotServed'],
      ];
      for (const [telephoneCountry, telephoneNumber, id] of refused) {
        const answer = await post('onboarding-management-private/phone', token, { telephoneCountry, telephoneNumber });
        expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', errors: [{ field: 'telephoneNumber', id }] } });
      }
      const somalia = await post('onboarding-management-private/phone', token, { telephoneCountry: 'SO', telephoneNumber: '61 2345678' });
      expect(somalia.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: expect.arrayContaining([{ field: 'telephoneCountry', id: 'validations.phoneCountryNotServed' }]) });
      const texts = await server.app.db.selectFrom('outbox').select('recipient').where('channel', '=', 'sms').execute();
      for (const recipient of ['+34806123456', '+34905123456', '+34902123456', '+34912345678', '+5351234567', '+252612345678', '+67077212345']) {
        expect(texts.map((row) => row.recipient)).not.toContain(recipient);
      }
    });

    it('sends nothing while the applicant is blocked for wrong codes: not to a new number, not a resend', async () => {
      const client = newClient();
      const token = await atThePhoneStep(server, client, `blocked-phone-${dialect}@example.com`, '00000014Z');
      const { post } = clientOf(server, client);
      expect((await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '611 000 001' })).status).toBe(200);
      const [sms] = await sentTo(server, '+34611000001');
      const wrong = codeIn(sms.text) === '000000' ? '111111' : '000000';
      for (let attempt = 0; attempt < 5; attempt += 1) await post('onboarding-management-private/phone/verify', token, { code: wrong });
      const before = (await server.app.db.selectFrom('outbox').select('id').execute()).length;

      server.clock.offsetMs += 31_000;
      expect((await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '611 000 002' })).body).toMatchObject({ code: 'CODE_BLOCKED', retryAfterSeconds: expect.any(Number) });
      expect((await post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: '611 000 001' })).status).toBe(423);
      expect((await post('onboarding-management-private/phone/resend', token)).status).toBe(423);
      expect((await server.app.db.selectFrom('outbox').select('id').execute()).length).toBe(before);
    });
  });

  describe('e-mails', () => {
    it('to one address: of ten simultaneous sign-ups from ten clients, exactly three are sent, whatever the database', async () => {
      const email = `victim-${dialect}@example.com`;
      const answers = await Promise.all(Array.from({ length: 10 }, () => clientOf(server, newClient()).register(email)));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(3);
      expect(answers.filter((answer) => answer.status === 429).map((answer) => answer.body.code)).toEqual(Array<string>(7).fill('MESSAGE_BUDGET_EXCEEDED'));
      expect(await sentTo(server, email)).toHaveLength(3);
      // A refused sign-up leaves nothing behind: only the three sent have a registration.
      expect((await server.app.db.selectFrom('onboarding_registrations').select('id').where('email', '=', email).execute()).length).toBe(3);
      const warning = logs.entries().find((entry) => entry.msg === 'message budget spent: message not sent' && entry.channel === 'email' && entry.refusedBy === 'recipient');
      expect(warning).toMatchObject({ level: 40, counts: { recipient: { sent: 3, limit: 3 } }, recipient: `v***@example.com` });
      expect(logs.text()).not.toContain(email);
    });

    it('from one client address: four, then refused; an IPv6 client counts by its /64; another client is not affected', async () => {
      const client = newClient();
      const answers = [];
      for (let index = 0; index < 5; index += 1) answers.push(await clientOf(server, client).register(`client-${index}-${dialect}@example.com`));
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429]);
      expect((await clientOf(server, newClient()).register(`client-other-${dialect}@example.com`)).status).toBe(200);

      const v6 = (host: number) => `2001:db8:${dialect === 'sqlite' ? 1 : 2}:7::${host}`;
      const fromV6 = [];
      for (let host = 1; host <= 5; host += 1) fromV6.push(await clientOf(server, v6(host)).register(`v6-${host}-${dialect}@example.com`));
      expect(fromV6.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429]);
    });

    it('a resend for a sign-up blocked for wrong codes sends nothing', async () => {
      const { post, register } = clientOf(server, newClient());
      const email = `blocked-mail-${dialect}@example.com`;
      const registered = await register(email, '00000015S');
      const [mail] = await sentTo(server, email);
      const wrong = codeIn(mail.text) === '000000' ? '111111' : '000000';
      for (let attempt = 0; attempt < 5; attempt += 1) await post('onboarding-management-private/email/verify', registered.body.token as string, { code: wrong });
      server.clock.offsetMs += 31_000;
      expect((await post('onboarding-management-private/email/resend', registered.body.token as string)).status).toBe(423);
      expect(await sentTo(server, email)).toHaveLength(1);
    });
  });

  describe('the contract signature', () => {
    it('asking for the code again at once is refused as a resend; blocked, nothing more is sent', async () => {
      const { token } = await readyToSign(server, '00000052Y');
      const consent = () => call(server, token, 'POST', 'contract/consent', { electronicIdentification: true });
      expect((await consent()).status).toBe(200);
      expect((await consent()).body).toMatchObject({ code: 'RESEND_TOO_SOON', retryAfterSeconds: expect.any(Number) });
      expect(await sentTo(server, PHONE)).toHaveLength(1);
      for (let attempt = 0; attempt < 5; attempt += 1) await call(server, token, 'POST', 'contract/sign', { code: '000000' });
      server.clock.offsetMs += 31_000;
      expect((await consent()).status).toBe(423);
      expect((await call(server, token, 'POST', 'contract/resend')).status).toBe(423);
      // At most one code went out (the wrong answers may have hit it by chance: then it signed, and that is fine too).
      expect((await sentTo(server, PHONE)).length).toBe(1);
    });

    it('six consents at once text one code; the others are told to wait', async () => {
      const phone = '+34611222444';
      const { token } = await readyToSign(server, '00000055P', { answers: { telephoneNumber: phone } });
      const answers = await Promise.all(Array.from({ length: 6 }, () => call(server, token, 'POST', 'contract/consent', { electronicIdentification: true })));
      expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
      for (const refused of answers.filter((answer) => answer.status !== 200)) expect(refused).toMatchObject({ status: 429, body: { code: 'RESEND_TOO_SOON' } });
      expect(await sentTo(server, phone)).toHaveLength(1);
    });
  });

  describe('login and recovery', () => {
    it('the login SMS to one phone is budgeted; recovery then sends nothing and answers exactly as for someone unknown', async () => {
      const client = newClient();
      const login = async () => {
        const sessionId = randomUUID();
        const idToken = await signIn(server.base, ana.username, ana.password);
        await passCaptcha(server.api, sessionId);
        return { sessionId, ...(await clientOf(server, client).post('user-authorization-management/create-session', '', undefined, { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId })) };
      };
      const answers = [];
      for (let attempt = 0; attempt < 4; attempt += 1) answers.push(await login());
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
      expect(answers[3].body).toMatchObject({ code: 'MESSAGE_BUDGET_EXCEEDED', retryAfterSeconds: expect.any(Number) });
      expect(await sentTo(server, ana.phone)).toHaveLength(3);

      const recover = async (userId: string) => {
        const sessionId = randomUUID();
        await passCaptcha(server.api, sessionId);
        return clientOf(server, client).post('credentials-management/password', '', { userId, sessionId });
      };
      const before = (await refusals(server)).length;
      const known = await recover(ana.username);
      const unknown = await recover('99999999R');
      expect(known).toEqual(unknown);
      expect(known).toMatchObject({ status: 200, body: { response: 'OK' } });
      // The refusal happens after the answer: it is audited once it has.
      for (let i = 0; i < 500 && (await refusals(server)).length === before; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
      const [audited] = (await refusals(server)).slice(before);
      expect(audited).toMatchObject({ actor: `user:${ana.username}`, details: expect.stringContaining('"purpose":"recovery-code"') });
      expect(await sentTo(server, ana.phone)).toHaveLength(3);

      // Blocked for wrong codes, the customer is told so (not that the budget is spent): the block is checked first.
      const { sessionId, body } = answers[2];
      const code = await lastCode(server.app, ana.phone);
      const wrong = verificationSignature(body.token as string, code === '000000' ? '111111' : '000000');
      try {
        for (let i = 0; i < 5; i += 1) await clientOf(server, client).post('user-authorization-management/create-session', '', undefined, { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': wrong });
        expect((await login()).body).toMatchObject({ code: 'CODE_BLOCKED' });
        server.clock.offsetMs += 31_000;
        const resend = await clientOf(server, client).post('user-authorization-management/resend-code', '', { token: body.token }, { 'x-divilo-session-id': sessionId });
        expect(resend).toMatchObject({ status: 423, body: { code: 'CODE_BLOCKED', retryAfterSeconds: expect.any(Number) } });
      } finally {
        await server.app.db.deleteFrom('code_blocks').execute();
        await server.app.db.deleteFrom('code_failures').execute();
      }
    });
  });
});

describeEachDialect('message budgets: the total', (dialect) => {
  let server: Server;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { ...BUDGETS, SMS_BUDGET_TOTAL: '2' });
  });
  afterAll(() => server.close());

  it('caps every SMS together: once spent, a new applicant with a new number is refused too', async () => {
    const answers = [];
    for (const [index, id] of ['00000016Q', '00000017V', '00000018H'].entries()) {
      const client = newClient();
      const token = await atThePhoneStep(server, client, `total-${index}-${dialect}@example.com`, id);
      answers.push(await clientOf(server, client).post('onboarding-management-private/phone', token, { telephoneCountry: 'ES', telephoneNumber: `62200000${index}` }));
    }
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(answers[2].body).toMatchObject({ code: 'MESSAGE_BUDGET_EXCEEDED' });
    const [audited] = await refusals(server);
    expect(JSON.parse(audited.details!)).toMatchObject({ channel: 'sms', refusedBy: 'total', counts: { total: { sent: 2, limit: 2 }, recipient: { sent: 0, limit: 3 } } });
  });
});
