// Wrong codes from one client cannot lock the owner out: they block that client (and, past its own limit, its
// address for everyone), while the owner's right code from a client that has not failed still goes through. Over
// HTTP against the whole server, clients told apart by X-Forwarded-For behind a trusted proxy, on both databases.
import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { ONBOARDING_STATUS_ATTRIBUTE } from '../../../server/services/onboardingGate';
import { sealForServer } from '../../../src/features/recovery/sealForServer';
import { describeEachDialect } from '../helpers';
import { lastCode, passCaptcha, signIn, startLoginServerOn, verificationSignature } from './loginServer';

const [ana] = DEMO_CUSTOMERS;
/** Recovers her password again and again; Ana keeps hers for the login. */
const lucia = { username: '52345678R', phone: '+34600000079' };
const PERSON_LIMIT = 8;
const CLIENT_LIMIT = 12;

describeEachDialect('wrong codes from strangers', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { TRUST_PROXY: 'true', CODE_PERSON_MAX_ATTEMPTS: String(PERSON_LIMIT), CODE_CLIENT_MAX_ATTEMPTS: String(CLIENT_LIMIT) });
  });
  afterAll(() => server.close());
  afterEach(async () => {
    server.clock.offsetMs += 3_600_000;
    await server.app.db.deleteFrom('code_blocks').execute();
    await server.app.db.deleteFrom('code_failures').execute();
  });

  const json = { 'content-type': 'application/json' };
  const from = (client: string) => ({ 'x-forwarded-for': client });
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
  const outbox = async (to: string) => (await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', to).execute()).length;
  async function waitForOutbox(to: string, count: number) {
    for (let i = 0; i < 500; i += 1) {
      if ((await outbox(to)) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`no message reached ${to}`);
  }

  describe('recovery', () => {
    beforeAll(async () => {
      await server.app.identity.createUser(lucia.username, lucia.phone, { [ONBOARDING_STATUS_ATTRIBUTE]: 'complete' });
      await server.app.identity.setPassword(lucia.username, 'Vieja-Clave-2026', true);
    });

    async function askForCode(userId: string, client: string) {
      const sessionId = randomUUID();
      await passCaptcha(server.api, sessionId);
      const response = await fetch(`${server.api}/credentials-management/password`, { method: 'POST', headers: { ...json, ...from(client) }, body: JSON.stringify({ userId, sessionId }) });
      expect(response.status).toBe(200);
    }
    async function reset(userId: string, code: string, client: string, newPassword = 'Nueva-Clave-2026') {
      const key = (await (await fetch(`${server.api}/credentials-management/getKey`)).json()) as { keyId: string; publicKey: string };
      const response = await fetch(`${server.api}/credentials-management/password`, {
        method: 'PUT',
        headers: { ...json, ...from(client) },
        body: JSON.stringify({ data: await sealForServer({ userId, code, newPassword }, key) }),
      });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as Record<string, unknown> };
    }
    /** The owner asks for a code from their own client: the code that reached their phone. */
    async function ownerCode(client: string): Promise<string> {
      const sent = await outbox(lucia.phone);
      server.clock.offsetMs += 60_000;
      await askForCode(lucia.username, client);
      await waitForOutbox(lucia.phone, sent + 1);
      return lastCode(server.app, lucia.phone);
    }

    it("blocks the stranger's client after five wrong codes, says until when, and the owner still recovers", async () => {
      const code = await ownerCode('198.51.100.10');
      const stranger = [];
      for (let i = 0; i < 6; i += 1) stranger.push(await reset(lucia.username, wrongFor(code), '203.0.113.66'));
      expect(stranger.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 423, 423]);
      expect(stranger[4].body).toMatchObject({ code: 'CODE_BLOCKED', retryAfterSeconds: server.app.codes.settings.lockSeconds });
      expect(stranger[5].retryAfter).toBe(String(server.app.codes.settings.lockSeconds));
      // The right code is refused to the blocked client, and taken from the owner's.
      expect((await reset(lucia.username, code, '203.0.113.66')).status).toBe(423);
      expect((await reset(lucia.username, code, '198.51.100.10')).status).toBe(200);
    });

    it('still sends the owner a new code while a stranger is blocked, and it works', async () => {
      const first = await ownerCode('198.51.100.11');
      for (let i = 0; i < 5; i += 1) await reset(lucia.username, wrongFor(first), '203.0.113.67');
      const second = await ownerCode('198.51.100.11');
      expect((await reset(lucia.username, second, '198.51.100.11', 'Otra-Clave-2026a')).status).toBe(200);
    });

    it('30 simultaneous wrong codes from one client: 4 judged wrong, the rest blocked; the owner still gets in', async () => {
      const code = await ownerCode('198.51.100.12');
      const answers = await Promise.all(Array.from({ length: 30 }, () => reset(lucia.username, wrongFor(code), '203.0.113.68')));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 401)).toHaveLength(4);
      expect(statuses.filter((status) => status === 423)).toHaveLength(26);
      expect((await reset(lucia.username, code, '198.51.100.12', 'Clave-Nueva-2026b')).status).toBe(200);
    });

    it('past the per-person limit, clients that guessed are refused and a clean client is still judged', async () => {
      const code = await ownerCode('198.51.100.13');
      // Two strangers, four wrong codes each: the person's eight are reached, neither client is blocked on its own.
      for (const client of ['203.0.113.70', '203.0.113.71']) {
        for (let i = 0; i < 4; i += 1) expect((await reset(lucia.username, wrongFor(code), client)).status).toBe(401);
      }
      const refused = await reset(lucia.username, code, '203.0.113.70');
      expect(refused.status).toBe(423);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      // A client with no wrong code for this person is judged: wrong is told so, right goes through.
      expect((await reset(lucia.username, wrongFor(code), '203.0.113.72')).status).toBe(401);
      expect((await reset(lucia.username, code, '198.51.100.13', 'Clave-Nueva-2026c')).status).toBe(200);
    });

    it("blocks a client address that guesses at many people, for everyone, but not the owner's", async () => {
      const code = await ownerCode('198.51.100.14');
      const statuses = [];
      for (let i = 0; i < CLIENT_LIMIT; i += 1) statuses.push((await reset(`${String(10_000_000 + i)}Z`, '000000', '203.0.113.73')).status);
      expect(statuses.slice(0, CLIENT_LIMIT - 1)).toEqual(Array(CLIENT_LIMIT - 1).fill(401));
      expect(statuses[CLIENT_LIMIT - 1]).toBe(423);
      expect((await reset(lucia.username, code, '203.0.113.73')).status).toBe(423);
      expect((await reset(lucia.username, code, '198.51.100.14', 'Clave-Nueva-2026d')).status).toBe(200);
    });
  });

  describe('login SMS code', () => {
    async function startLogin(client: string) {
      const sessionId = randomUUID();
      const idToken = await signIn(server.base, ana.username, ana.password);
      await passCaptcha(server.api, sessionId);
      const response = await fetch(`${server.api}/user-authorization-management/create-session`, {
        method: 'POST',
        headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId, ...from(client) },
      });
      return { status: response.status, sessionId, token: response.status === 200 ? ((await response.json()) as { token: string }).token : '' };
    }
    const confirm = (client: string, sessionId: string, token: string, code: string) =>
      fetch(`${server.api}/user-authorization-management/create-session`, {
        method: 'POST',
        headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, code), ...from(client) },
      });

    it("a client's wrong codes block that client only: the owner's login from another client sends a code and goes through", async () => {
      const stranger = await startLogin('203.0.113.80');
      const code = await lastCode(server.app, ana.phone);
      const statuses = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await confirm('203.0.113.80', stranger.sessionId, stranger.token, wrongFor(code))).status);
      expect(statuses).toEqual([401, 401, 401, 401, 423, 423]);
      // The blocked client gets no new code, and is told until when.
      server.clock.offsetMs += 60_000;
      expect((await startLogin('203.0.113.80')).status).toBe(423);

      const sent = await outbox(ana.phone);
      const owner = await startLogin('198.51.100.20');
      expect(owner.status).toBe(200);
      expect(await outbox(ana.phone)).toBe(sent + 1);
      expect((await confirm('198.51.100.20', owner.sessionId, owner.token, await lastCode(server.app, ana.phone))).status).toBe(201);
    });
  });

  describe('sign-up e-mail code', () => {
    async function register(email: string, passport: string, client: string) {
      const sessionId = randomUUID();
      await passCaptcha(server.api, sessionId);
      const response = await fetch(`${server.api}/onboarding-management/register`, {
        method: 'POST',
        headers: { ...json, ...from(client) },
        body: JSON.stringify({ email, idType: 'passport', id: passport, passportExpeditionCountry: 'FR', privacyPolicy: true, precontractualInformation: true, sessionId }),
      });
      return { status: response.status, token: ((await response.json()) as { token?: string }).token ?? '' };
    }
    const verify = async (token: string, code: string, client: string) =>
      (await fetch(`${server.api}/onboarding-management-private/email/verify`, { method: 'POST', headers: { ...json, authorization: `Bearer ${token}`, ...from(client) }, body: JSON.stringify({ code }) })).status;
    const emailCode = async (email: string) => lastCode(server.app, email);

    it("a stranger signing up with someone's e-mail and ID blocks only their own client", async () => {
      const email = `victim.${randomUUID().slice(0, 8)}@example.com`;
      const passport = `P${randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase()}`;
      const stranger = await register(email, passport, '203.0.113.90');
      const code = await emailCode(email);
      const statuses = [];
      for (let i = 0; i < 5; i += 1) statuses.push(await verify(stranger.token, wrongFor(code), '203.0.113.90'));
      expect(statuses).toEqual([401, 401, 401, 401, 423]);
      expect((await register(email, passport, '203.0.113.90')).status).toBe(423);

      const owner = await register(email, passport, '198.51.100.30');
      expect(owner.status).toBe(200);
      expect(await verify(owner.token, await emailCode(email), '198.51.100.30')).toBe(200);
    });
  });
});
