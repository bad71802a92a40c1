// Wrong e-mail codes count per person, across sign-ups: per e-mail address and per ID document, as the login
// counts per user. A block ends with a way on: a new code once it is over.
import { randomUUID } from 'node:crypto';
import { describeEachDialect } from '../helpers';
import { passCaptcha, startLoginServerOn } from '../login/loginServer';

describeEachDialect('onboarding: e-mail code attempts per person', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());
  afterEach(() => {
    server.clock.offsetMs = 0;
  });

  const json = { 'content-type': 'application/json' };
  const unique = () => randomUUID().replace(/-/g, '').slice(0, 8).toUpperCase();
  /** A sign-up with a passport (any number is valid): the server's answer. */
  async function registering(email: string, passport: string) {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const response = await fetch(`${server.api}/onboarding-management/register`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, idType: 'passport', id: passport, passportExpeditionCountry: 'FR', privacyPolicy: true, precontractualInformation: true, sessionId }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }
  /** A sign-up that must be taken: its token. */
  async function register(email: string, passport: string): Promise<string> {
    const answer = await registering(email, passport);
    expect(answer.status).toBe(200);
    return answer.body.token as string;
  }
  const sentTo = async (email: string) => (await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', email).execute()).length;
  const post = async (path: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.api}/onboarding-management-private/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : json) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  async function emailCode(email: string): Promise<string> {
    const row = await server.app.db.selectFrom('outbox').select('text').where('recipient', '=', email).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return /\b(\d{6})\b/.exec(row.text)![1];
  }
  /** A code that is not the one sent. */
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');
  /** Wrong codes judged (counted on a challenge) for the sign-ups to an address. */
  async function judged(email: string): Promise<number> {
    const rows = await server.app.db.selectFrom('one_time_codes').select('attempts').where('purpose', '=', 'email').where('recipient', '=', email).execute();
    return rows.reduce((sum, row) => sum + Number(row.attempts), 0);
  }

  it('counts wrong codes across sign-ups of the same e-mail and ID: five in all, then blocked on every sign-up', async () => {
    const email = `attempts.${unique().toLowerCase()}@example.com`;
    const passport = `P${unique()}`;
    const outcomes: number[] = [];
    for (const tries of [2, 2, 2]) {
      const token = await register(email, passport);
      const code = await emailCode(email);
      for (let i = 0; i < tries; i += 1) outcomes.push((await post('email/verify', token, { code: wrongFor(code) })).status);
    }
    expect(outcomes).toEqual([401, 401, 401, 401, 423, 423]);
    expect(await judged(email)).toBe(5);
  });

  it('sends no code to a sign-up while its e-mail or its ID document is blocked, and says until when', async () => {
    const [email, other] = [`blocked.${unique().toLowerCase()}@example.com`, `other.${unique().toLowerCase()}@example.com`];
    const passport = `P${unique()}`;
    // A sign-up made before the block: its code is right, but refused once the block is on.
    const before = await register(email, passport);
    const code = await emailCode(email);
    for (let i = 0; i < 5; i += 1) await post('email/verify', before, { code: wrongFor(code) });
    expect(await post('email/verify', before, { code })).toEqual({ status: 423, body: expect.objectContaining({ code: 'CODE_BLOCKED' }) });

    // A new sign-up with the address, or with the ID document behind another address, is refused before anything
    // is sent: its code could not be used. The answer says how long the block lasts.
    const [sentToEmail, sentToOther] = [await sentTo(email), await sentTo(other)];
    for (const [to, id] of [
      [email, `P${unique()}`],
      [other, passport],
    ]) {
      const refused = await registering(to, id);
      expect(refused).toEqual({ status: 423, body: expect.objectContaining({ code: 'CODE_BLOCKED', retryAfterSeconds: expect.any(Number) }) });
      expect(refused.body.retryAfterSeconds).toBeGreaterThan(server.app.codes.settings.lockSeconds - 60);
      expect(refused.body).not.toHaveProperty('token');
    }
    expect([await sentTo(email), await sentTo(other)]).toEqual([sentToEmail, sentToOther]);

    // Once the block is over, signing up sends a code again, and it confirms the e-mail.
    server.clock.offsetMs = (server.app.codes.settings.lockSeconds + 1) * 1000;
    const after = await register(email, passport);
    expect((await post('email/verify', after, { code: await emailCode(email) })).status).toBe(200);
  });

  it('counts per e-mail and per ID document on their own: another e-mail with the same ID, another ID with the same e-mail', async () => {
    const [email, other] = [`one.${unique().toLowerCase()}@example.com`, `two.${unique().toLowerCase()}@example.com`];
    const [passport, otherPassport] = [`P${unique()}`, `P${unique()}`];
    const wrong = async (to: string, id: string, times: number) => {
      const token = await register(to, id);
      const code = await emailCode(to);
      const statuses = [];
      for (let i = 0; i < times; i += 1) statuses.push((await post('email/verify', token, { code: wrongFor(code) })).status);
      return statuses;
    };
    expect(await wrong(email, passport, 3)).toEqual([401, 401, 401]);
    // The same ID document behind another address: its count goes on (3 + 2).
    expect(await wrong(other, passport, 2)).toEqual([401, 423]);
    // The first address with another ID document: the address's count goes on too (3 + 2); its block is its own.
    expect(await wrong(email, otherPassport, 2)).toEqual([401, 423]);
  });

  it('judges 30 simultaneous wrong codes over five sign-ups of one person exactly five times', async () => {
    const email = `race.${unique().toLowerCase()}@example.com`;
    const passport = `P${unique()}`;
    const tokens: { token: string; code: string }[] = [];
    for (let i = 0; i < 5; i += 1) {
      const token = await register(email, passport);
      tokens.push({ token, code: await emailCode(email) });
    }
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => tokens[i % 5]).map(({ token, code }) => post('email/verify', token, { code: wrongFor(code) })));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(4);
    expect(statuses.filter((status) => status === 423)).toHaveLength(26);
    expect(await judged(email)).toBe(5);
  });

  it('after a block, asking for a new code says until when; once it is over, a new code is sent and confirms the e-mail', async () => {
    const email = `block.${unique().toLowerCase()}@example.com`;
    const token = await register(email, `P${unique()}`);
    const first = await emailCode(email);
    for (let i = 0; i < 5; i += 1) await post('email/verify', token, { code: wrongFor(first) });

    const during = await post('email/resend', token);
    expect(during).toEqual({ status: 423, body: expect.objectContaining({ code: 'CODE_BLOCKED', retryAfterSeconds: expect.any(Number) }) });
    expect(during.body.retryAfterSeconds).toBeGreaterThan(server.app.codes.settings.lockSeconds - 60);

    server.clock.offsetMs = (server.app.codes.settings.lockSeconds + 1) * 1000;
    const after = await post('email/resend', token);
    expect(after).toEqual({ status: 200, body: { resendAfterSeconds: server.app.codes.settings.resendSeconds } });
    const second = await emailCode(email);
    // Two asks at once send one code: the second is within the cooldown of the first.
    expect((await post('email/resend', token)).body).toMatchObject({ code: 'RESEND_TOO_SOON' });
    // The code the block used up stays used; the new one confirms the e-mail.
    if (first !== second) expect((await post('email/verify', token, { code: first })).body).toMatchObject({ code: 'CODE_INVALID' });
    expect((await post('email/verify', token, { code: second })).status).toBe(200);
  });

  it('sends one new code when two asks come at once after a block', async () => {
    const email = `twice.${unique().toLowerCase()}@example.com`;
    const token = await register(email, `P${unique()}`);
    const first = await emailCode(email);
    for (let i = 0; i < 5; i += 1) await post('email/verify', token, { code: wrongFor(first) });
    server.clock.offsetMs = (server.app.codes.settings.lockSeconds + 1) * 1000;
    const sentBefore = await sentTo(email);
    const answers = await Promise.all([1, 2, 3].map(() => post('email/resend', token)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 429, 429]);
    const sentAfter = await sentTo(email);
    expect(sentAfter - sentBefore).toBe(1);
  });
});
