// The PSD2 limit of five wrong codes, over HTTP against the whole server, on both databases: simultaneous
// guesses, fresh challenges and recovery answers for unknown users cannot get around it.
import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { sealForServer } from '../../../src/features/recovery/sealForServer';
import { describeEachDialect } from '../helpers';
import { lastCode, passCaptcha, signIn, startLoginServerOn, verificationSignature } from './loginServer';

const [ana] = DEMO_CUSTOMERS;

describeEachDialect('wrong codes over HTTP', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());
  afterEach(async () => {
    await server.app.db.deleteFrom('code_blocks').execute();
    await server.app.db.deleteFrom('code_failures').execute();
  });

  async function startLogin() {
    const sessionId = randomUUID();
    const idToken = await signIn(server.base, ana.username, ana.password);
    await passCaptcha(server.api, sessionId);
    const response = await fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId },
    });
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    return { sessionId, token, code: await lastCode(server.app, ana.phone) };
  }
  const confirm = (sessionId: string, token: string, code: string) =>
    fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, code) },
    });
  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

  it('50 simultaneous wrong codes on one login: 4 are told attempts left, the rest are blocked, and the right code after them is refused', async () => {
    const { sessionId, token, code } = await startLogin();
    const answers = await Promise.all(Array.from({ length: 50 }, () => confirm(sessionId, token, wrongFor(code))));
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(4);
    expect(statuses.filter((status) => status === 423)).toHaveLength(46);
    const right = await confirm(sessionId, token, code);
    expect(right.status).toBe(423);
    expect(await right.json()).toMatchObject({ code: 'CODE_BLOCKED' });
  });

  it('a fresh login does not give fresh attempts: wrong codes add up per person', async () => {
    const first = await startLogin();
    for (const left of [4, 3, 2]) {
      const answer = await confirm(first.sessionId, first.token, wrongFor(first.code));
      expect(await answer.json()).toMatchObject({ code: 'CODE_INVALID', attemptsLeft: left });
    }
    const second = await startLogin();
    expect(await (await confirm(second.sessionId, second.token, wrongFor(second.code))).json()).toMatchObject({ code: 'CODE_INVALID', attemptsLeft: 1 });
    expect((await confirm(second.sessionId, second.token, wrongFor(second.code))).status).toBe(423);
    expect((await confirm(second.sessionId, second.token, second.code)).status).toBe(423);
  });

  it('recovery answers an unknown user exactly as a known user with a wrong code, counter and block included', async () => {
    const json = { 'content-type': 'application/json' };
    const key = (await (await fetch(`${server.api}/credentials-management/getKey`)).json()) as { keyId: string; publicKey: string };
    const ask = async (userId: string) => {
      const sessionId = randomUUID();
      await passCaptcha(server.api, sessionId);
      expect((await fetch(`${server.api}/credentials-management/password`, { method: 'POST', headers: json, body: JSON.stringify({ userId, sessionId }) })).status).toBe(200);
    };
    const reset = async (userId: string, code: string, newPassword = 'New-Password-2026!') => {
      const response = await fetch(`${server.api}/credentials-management/password`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ data: await sealForServer({ userId, code, newPassword }, key) }),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    await ask(ana.username);
    await ask('87654321X');
    // A weak password: the same answer for both, before any code is looked at.
    expect(await reset('87654321X', '123456', 'weak')).toEqual(await reset(ana.username, '123456', 'weak'));
    const known = [];
    const unknown = [];
    for (let i = 0; i < 6; i += 1) {
      known.push(await reset(ana.username, '000000'));
      unknown.push(await reset('87654321X', '000000'));
    }
    expect(unknown).toEqual(known);
    expect(known.map((answer) => answer.status)).toEqual([401, 401, 401, 401, 423, 423]);
    expect(known[0].body).toMatchObject({ code: 'CODE_INVALID', attemptsLeft: 4 });
  });
});
