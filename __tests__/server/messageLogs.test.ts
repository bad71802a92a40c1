// Codes sent through every route that sends one, with every log line the server writes captured: not one digit
// of any code may be read there.
import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../server/plugins/demoCustomers';
import { logCollector } from './helpers';
import { passCaptcha, signIn, startLoginServerOn } from './login/loginServer';
import { call, PHONE, readyToSign } from './onboarding/signing';

const [ana] = DEMO_CUSTOMERS;
const PERSON = { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: '', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };

describe('codes in the logs', () => {
  const logs = logCollector();
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn('sqlite', { LOG_LEVEL: 'trace' }, { logStream: logs.stream });
  });
  afterAll(() => server.close());

  const post = async (path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${server.api}/${path}`, {
      method: 'POST',
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, string> };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const latest = async (recipient: string) =>
    (await server.app.db.selectFrom('outbox').select(['text', 'purpose']).where('recipient', '=', recipient).orderBy('id', 'desc').executeTakeFirstOrThrow());
  const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)![1];
  const wait = () => {
    server.clock.offsetMs += 31_000;
  };

  it('no route that sends a code writes any digit of it to any log line', async () => {
    const sent: { purpose: string; text: string }[] = [];
    const keep = async (recipient: string) => sent.push(await latest(recipient));

    // Sign-up: the e-mail code and its resend.
    const email = 'logs@example.com';
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const registered = await post('onboarding-management/register', { email, idType: 'nif', id: '00000019L', privacyPolicy: true, precontractualInformation: true, sessionId });
    await keep(email);
    wait();
    expect((await post('onboarding-management-private/email/resend', undefined, bearer(registered.body.token))).status).toBe(200);
    await keep(email);
    const confirmed = await post('onboarding-management-private/email/verify', { code: codeIn(sent[1].text) }, bearer(registered.body.token));
    const token = confirmed.body.token;

    // The wizard's phone and its resend.
    await post('onboarding-management-private/personal-info', PERSON, bearer(token));
    expect((await post('onboarding-management-private/phone', { telephoneCountry: 'ES', telephoneNumber: '633 111 222' }, bearer(token))).status).toBe(200);
    await keep('+34633111222');
    wait();
    expect((await post('onboarding-management-private/phone/resend', undefined, bearer(token))).status).toBe(200);
    await keep('+34633111222');

    // The contract's signature and its resend.
    const signing = await readyToSign(server, '00000053F');
    expect((await call(server, signing.token, 'POST', 'contract/consent', { electronicIdentification: true })).status).toBe(200);
    await keep(PHONE);
    wait();
    expect((await call(server, signing.token, 'POST', 'contract/resend')).status).toBe(200);
    await keep(PHONE);

    // Login and its resend.
    const loginSession = randomUUID();
    const idToken = await signIn(server.base, ana.username, ana.password);
    await passCaptcha(server.api, loginSession);
    const login = await post('user-authorization-management/create-session', undefined, { ...bearer(idToken), 'x-divilo-session-id': loginSession });
    expect(login.status).toBe(200);
    await keep(ana.phone);
    wait();
    expect((await post('user-authorization-management/resend-code', { token: login.body.token }, { 'x-divilo-session-id': loginSession })).status).toBe(200);
    await keep(ana.phone);

    // Recovery: the code goes after the answer; wait for it in the outbox.
    wait();
    const recoverySession = randomUUID();
    await passCaptcha(server.api, recoverySession);
    await post('credentials-management/password', { userId: ana.username, sessionId: recoverySession });
    for (let i = 0; i < 500 && (await latest(ana.phone)).purpose !== 'recovery-code'; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    await keep(ana.phone);

    expect(sent.map((message) => message.purpose)).toEqual([
      'email-code', 'email-code', 'phone-code', 'phone-code', 'signature-code', 'signature-code', 'login-code', 'login-code', 'recovery-code',
    ]);
    const codes = sent.map((message) => codeIn(message.text));
    expect(new Set(codes).size).toBeGreaterThan(1);

    const lines = logs.text().split('\n').filter(Boolean);
    // The outbox logs each message with its code masked: as many lines as messages, not a digit of a code left.
    const masked = logs.entries().filter((entry) => entry.msg === 'message stored in the outbox');
    expect(masked).toHaveLength(sent.length);
    masked.forEach((entry, index) => expect(entry.text).toBe(sent[index].text.replace(codes[index], '••••••')));
    for (const line of lines) {
      for (const code of codes) expect(line).not.toContain(code);
      // No code shown in part: dots next to a digit.
      expect(line).not.toMatch(/•\d|\d•/);
    }
  });
});
