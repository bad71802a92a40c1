// The SMS or e-mail provider failing (it throws, or does not answer in time), on both databases, through every
// route that sends a code: the answer is 503 MESSAGE_NOT_SENT with Retry-After, no budget keeps the message, the
// cooldown lets the person ask again at once, the failure is logged with a stable event (masked recipient, never
// the text or its code), and the retry with the provider working sends a code that works.
import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { outboxRepository } from '../../../server/repositories/outboxRepository';
import { messaging } from '../../../server/services/messaging/messaging';
import { outboxSender } from '../../../server/services/messaging/outboxSender';
import type { MessageSender } from '../../../server/services/messaging/types';
import { describeEachDialect, logCollector } from '../helpers';
import { lastCode, passCaptcha, signIn, startLoginServerOn, verificationSignature } from '../login/loginServer';
import { call, PHONE, readyToSign } from '../onboarding/signing';

const [ana] = DEMO_CUSTOMERS;
const PERSON = { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: '', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };

type Server = Awaited<ReturnType<typeof startLoginServerOn>>;
type Mode = 'working' | 'failing' | 'silent';

/**
 * The provider boundary, replaced: the outbox while `working`; while `failing` it throws an error whose message
 * echoes the text (as a provider's answer may), while `silent` it never answers. Everything else is the server's.
 */
function switchableProvider(server: Server) {
  const state = { mode: 'working' as Mode, attempts: 0 };
  const outbox = outboxSender(outboxRepository(server.app.db), server.app.clock, server.app.log);
  const provider: MessageSender = {
    async send(message) {
      state.attempts += 1;
      if (state.mode === 'failing') throw Object.assign(new Error(`provider refused: ${message.text}`), { code: 'ECONNRESET' });
      if (state.mode === 'silent') return new Promise<void>(() => undefined);
      return outbox.send(message);
    },
  };
  // A tenth of a second for the silent provider: it never answers, so the time limit passes whatever the machine's load.
  server.app.messages = messaging({ sms: provider, email: provider }, server.app.messages.budget, { log: server.app.log, sendTimeoutMs: 100 });
  return state;
}

describeEachDialect('a message provider that fails', (dialect) => {
  const logs = logCollector();
  let server: Server;
  let provider: ReturnType<typeof switchableProvider>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { CODE_RESEND_SECONDS: '30', LOG_LEVEL: 'info' }, { logStream: logs.stream });
    provider = switchableProvider(server);
  });
  afterAll(() => server.close());
  afterEach(() => {
    provider.mode = 'working';
  });

  /** Every message counted in every budget, in windows still running. */
  const charged = async () => Number((await server.app.db.selectFrom('message_budgets').select((eb) => eb.fn.sum<number>('sent').as('sent')).executeTakeFirst())?.sent ?? 0);
  const sentTo = (recipient: string) => server.app.db.selectFrom('outbox').select('text').where('recipient', '=', recipient).execute();
  const notSentLogs = () => logs.entries().filter((entry) => entry.event === 'message.not_sent');

  /** Checks `check` every 20 ms until it holds (the recovery SMS goes after the answer); fails after 15 s. */
  async function until(check: () => Promise<boolean> | boolean, what: string) {
    for (let waited = 0; waited < 15_000; waited += 20) {
      if (await check()) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`never: ${what}`);
  }

  /** A request made while the provider fails: 503 MESSAGE_NOT_SENT with Retry-After, nothing charged, nothing new in the outbox. */
  async function whileFailing(mode: Exclude<Mode, 'working'>, recipient: string, request: () => Promise<Response>) {
    const before = await charged();
    const sentBefore = (await sentTo(recipient)).length;
    const logged = notSentLogs().length;
    provider.mode = mode;
    const response = await request();
    provider.mode = 'working';
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(await response.json()).toEqual({ code: 'MESSAGE_NOT_SENT', message: expect.any(String), retryAfterSeconds: 5 });
    expect(await charged()).toBe(before);
    expect(await sentTo(recipient)).toHaveLength(sentBefore);
    const entries = notSentLogs().slice(logged);
    expect(entries).toHaveLength(1);
    return entries[0];
  }

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.api}/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const register = async (email: string, id: string) => {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    return post('onboarding-management/register', { email, idType: 'nif', id, privacyPolicy: true, precontractualInformation: true, sessionId });
  };
  const privatePost = (token: string, path: string, body?: unknown) =>
    fetch(`${server.api}/onboarding-management-private/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('the sign-up e-mail: nothing of the sign-up is kept, the log says why without the code, and the form sent again gets a code that works', async () => {
    const email = `fail-register-${dialect}@example.com`;
    const registrations = () => server.app.db.selectFrom('onboarding_registrations').select('id').where('email', '=', email).execute();
    const entry = await whileFailing('failing', email, () => register(email, '00000020C'));
    expect(entry).toMatchObject({ level: 40, channel: 'email', purpose: 'email-code', recipient: expect.stringMatching(/^f\*+@example\.com$/), errorClass: 'Error', errorCode: 'ECONNRESET' });
    expect(JSON.stringify(entry)).not.toContain(email);
    expect(await registrations()).toEqual([]);
    // Neither the text nor its code reached any log line: the provider's error echoed them.
    expect(logs.text()).not.toContain('provider refused');

    const again = await register(email, '00000020C');
    expect(again.status).toBe(200);
    const { token } = (await again.json()) as { token: string };
    const verified = await call(server, token, 'POST', 'email/verify', { code: await lastCode(server.app, email) });
    expect(verified.body).toMatchObject({ next: 'personal-info' });
  });

  it('a new e-mail code: the cooldown lets the next ask through at once, and its code works', async () => {
    const email = `fail-resend-${dialect}@example.com`;
    const registered = await register(email, '00000021K');
    const { token } = (await registered.json()) as { token: string };
    server.clock.offsetMs += 31_000;
    await whileFailing('failing', email, () => privatePost(token, 'email/resend'));
    // Not even a second later: the turn the failed e-mail took is given back.
    const resent = await privatePost(token, 'email/resend');
    expect(resent.status).toBe(200);
    const verified = await call(server, token, 'POST', 'email/verify', { code: await lastCode(server.app, email) });
    expect(verified.body).toMatchObject({ next: 'personal-info' });
  });

  it('the phone step, a provider that never answers: 503 within the send limit; the same number again is texted at once and its code confirms it', async () => {
    const email = `fail-phone-${dialect}@example.com`;
    const registered = await register(email, '00000022E');
    const { token: signUpToken } = (await registered.json()) as { token: string };
    const verified = await call(server, signUpToken, 'POST', 'email/verify', { code: await lastCode(server.app, email) });
    const token = verified.body.token as string;
    expect((await call(server, token, 'POST', 'personal-info', PERSON)).status).toBe(200);
    const phone = { telephoneCountry: 'ES', telephoneNumber: '612000111' };

    const entry = await whileFailing('silent', '+34612000111', () => privatePost(token, 'phone', phone));
    expect(entry).toMatchObject({ channel: 'sms', purpose: 'phone-code', recipient: '********111', errorClass: 'TimeoutError' });
    const again = await privatePost(token, 'phone', phone);
    expect(again.status).toBe(200);
    const confirmed = await call(server, token, 'POST', 'phone/verify', { code: await lastCode(server.app, '+34612000111') });
    expect(confirmed.body).toMatchObject({ next: 'register-as' });
  });

  it('a new phone code, failing: "send me a new code" goes again at once, the failed one does not count against the five sends, and the code works', async () => {
    const email = `fail-phone-resend-${dialect}@example.com`;
    const registered = await register(email, '00000023T');
    const { token: signUpToken } = (await registered.json()) as { token: string };
    const token = (await call(server, signUpToken, 'POST', 'email/verify', { code: await lastCode(server.app, email) })).body.token as string;
    await call(server, token, 'POST', 'personal-info', PERSON);
    expect((await privatePost(token, 'phone', { telephoneCountry: 'ES', telephoneNumber: '612000222' })).status).toBe(200);
    server.clock.offsetMs += 31_000;
    // Four failures in a row would have used up four of the challenge's five sends.
    for (let attempt = 0; attempt < 4; attempt += 1) await whileFailing('failing', '+34612000222', () => privatePost(token, 'phone/resend'));
    for (let resend = 0; resend < 4; resend += 1) {
      expect((await privatePost(token, 'phone/resend')).status).toBe(200);
      server.clock.offsetMs += 31_000;
    }
    const confirmed = await call(server, token, 'POST', 'phone/verify', { code: await lastCode(server.app, '+34612000222') });
    expect(confirmed.body).toMatchObject({ next: 'register-as' });
  });

  it('the contract signature: the consent and a new code, failing, are asked again at once, and the code signs', async () => {
    const { token } = await readyToSign(server, '00000024R', { email: `fail-sign-${dialect}@example.com` });
    const consent = () => privatePost(token, 'contract/consent', { electronicIdentification: true });
    const entry = await whileFailing('failing', PHONE, consent);
    expect(entry).toMatchObject({ channel: 'sms', purpose: 'signature-code' });
    expect((await consent()).status).toBe(200);
    server.clock.offsetMs += 31_000;
    await whileFailing('failing', PHONE, () => privatePost(token, 'contract/resend'));
    expect((await privatePost(token, 'contract/resend')).status).toBe(200);
    const signed = await call(server, token, 'POST', 'contract/sign', { code: await lastCode(server.app, PHONE) });
    expect(signed.status).toBe(200);
  });

  it("the login's SMS: the login again gets a code that opens the session; a new code, failing, goes again at once", async () => {
    const idToken = await signIn(server.base, ana.username, ana.password);
    const start = async () => {
      const sessionId = randomUUID();
      await passCaptcha(server.api, sessionId);
      return { sessionId, response: await fetch(`${server.api}/user-authorization-management/create-session`, { method: 'POST', headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId } }) };
    };
    const before = await charged();
    provider.mode = 'failing';
    const failed = await start();
    provider.mode = 'working';
    expect(failed.response.status).toBe(503);
    expect(await failed.response.json()).toMatchObject({ code: 'MESSAGE_NOT_SENT', retryAfterSeconds: 5 });
    expect(await charged()).toBe(before);

    const { sessionId, response } = await start();
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    server.clock.offsetMs += 31_000;
    const resend = () =>
      fetch(`${server.api}/user-authorization-management/resend-code`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-divilo-session-id': sessionId }, body: JSON.stringify({ token }) });
    provider.mode = 'failing';
    expect((await resend()).status).toBe(503);
    provider.mode = 'working';
    expect((await resend()).status).toBe(200);
    const confirmed = await fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, await lastCode(server.app, ana.phone)) },
    });
    expect(confirmed.status).toBe(201);
  });

  it('recovery answers as always; its SMS not sent is logged and refunded, and asking again sends one at once', async () => {
    const ask = async () => {
      const sessionId = randomUUID();
      await passCaptcha(server.api, sessionId);
      return post('credentials-management/password', { userId: ana.username, sessionId });
    };
    const sentBefore = (await sentTo(ana.phone)).length;
    const before = await charged();
    const logged = notSentLogs().length;
    provider.mode = 'failing';
    expect((await ask()).status).toBe(200);
    // The code goes after the answer: its failure shows in the log.
    await until(() => notSentLogs().length === logged + 1, 'the failure logged');
    provider.mode = 'working';
    expect(notSentLogs().at(-1)).toMatchObject({ channel: 'sms', purpose: 'recovery-code', person: `user:${ana.username}` });
    expect(await charged()).toBe(before);
    expect((await ask()).status).toBe(200);
    await until(async () => (await sentTo(ana.phone)).length === sentBefore + 1, 'the code sent');
  });
});
