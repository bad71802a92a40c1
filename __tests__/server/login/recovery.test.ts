import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { ONBOARDING_STATUS_ATTRIBUTE } from '../../../server/services/onboardingGate';
import { sealForServer } from '../../../src/features/recovery/sealForServer';
import { describeEachDialect } from '../helpers';
import { lastCode, passCaptcha, signIn, startLoginServerOn } from './loginServer';

const [ana] = DEMO_CUSTOMERS;

describeEachDialect('password recovery', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { CODE_RESEND_SECONDS: '5' });
  });
  afterAll(() => server.close());

  const json = { 'content-type': 'application/json' };

  async function askForCode(userId: string, sessionId = randomUUID()) {
    await passCaptcha(server.api, sessionId);
    return fetch(`${server.api}/credentials-management/password`, { method: 'POST', headers: json, body: JSON.stringify({ userId, sessionId }) });
  }

  async function outboxCount(): Promise<number> {
    return (await server.app.db.selectFrom('outbox').select('id').execute()).length;
  }

  /** The browser's own sealing code, with the server's current key. */
  async function sealed(payload: object): Promise<string> {
    const key = (await (await fetch(`${server.api}/credentials-management/getKey`)).json()) as { keyId: string; publicKey: string };
    return sealForServer(payload, key);
  }

  const reset = (data: string) => fetch(`${server.api}/credentials-management/password`, { method: 'PUT', headers: json, body: JSON.stringify({ data }) });

  /** Waits for the outbox to hold `count` messages (codes are sent after the answer); fails if they never come. */
  async function settled(count: number) {
    for (let i = 0; i < 500; i += 1) {
      if ((await outboxCount()) >= count) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`the outbox never reached ${count} messages`);
  }

  describe('the calls', () => {
    it('refuses a request without a captcha pass', async () => {
      const response = await fetch(`${server.api}/credentials-management/password`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ userId: ana.username, sessionId: randomUUID() }),
      });
      expect(response.status).toBe(403);
    });

    it('answers a known and an unknown user alike, and sends a code only to the known one', async () => {
      const before = await outboxCount();
      const known = await askForCode(ana.username.toLowerCase());
      const unknown = await askForCode('87654321X');
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      expect(await known.json()).toEqual(await unknown.json());
      await settled(before + 1);
      expect(await outboxCount()).toBe(before + 1);
      expect(await lastCode(server.app, ana.phone)).toMatch(/^\d{6}$/);
    });

    it('refuses data it cannot open, each with its code', async () => {
      const garbage = await reset('not-sealed');
      expect(await garbage.json()).toMatchObject({ code: 'SEALED_DATA_MALFORMED' });
      const otherKey = Buffer.from(JSON.stringify({ keyId: 'no-such-key', key: 'AA==', iv: 'AA==', data: 'AA==' })).toString('base64');
      expect(await (await reset(otherKey)).json()).toMatchObject({ code: 'SEALED_DATA_UNKNOWN_KEY' });
      const envelope = JSON.parse(Buffer.from(await sealed({ userId: ana.username, code: '000000', newPassword: 'x' }), 'base64').toString()) as Record<string, string>;
      const body = Buffer.from(envelope.data, 'base64');
      body[0] ^= 1;
      const tampered = Buffer.from(JSON.stringify({ ...envelope, data: body.toString('base64') })).toString('base64');
      const response = await reset(tampered);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ code: 'SEALED_DATA_UNREADABLE' });
    });

    it('checks the password rule before the code, then the code, then changes the password and ends sessions', async () => {
      const before = await outboxCount();
      server.clock.offsetMs += 6_000;
      await askForCode(ana.username);
      await settled(before + 1);
      const code = await lastCode(server.app, ana.phone);
      const wrong = code === '000000' ? '111111' : '000000';

      const weak = await reset(await sealed({ userId: ana.username, code, newPassword: 'weakpassword' }));
      expect(weak.status).toBe(400);
      expect(await weak.json()).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'newPassword', id: 'validations.diviloPassword' }] });

      const mistaken = await reset(await sealed({ userId: ana.username, code: wrong, newPassword: 'Nueva-Clave-2026' }));
      expect(mistaken.status).toBe(401);
      expect(await mistaken.json()).toMatchObject({ code: 'CODE_INVALID', attemptsLeft: 4 });

      await server.app.loginSessions.create({ idHash: 'open-session', userSub: (await server.app.identity.getUser(ana.username))!.sub, username: ana.username, expiresAt: new Date(Date.now() + 3600_000) }, server.app.clock());
      const done = await reset(await sealed({ userId: ana.username, code, newPassword: 'Nueva-Clave-2026' }));
      expect(done.status).toBe(200);
      expect(await server.app.loginSessions.findLive('open-session', 300, server.app.clock())).toBeUndefined();

      await expect(signIn(server.base, ana.username, ana.password)).rejects.toMatchObject({ code: 'NotAuthorizedException' });
      await expect(signIn(server.base, ana.username, 'Nueva-Clave-2026')).resolves.toEqual(expect.any(String));
      // The code was used up: it now answers as any wrong code does (recovery never tells a used code apart).
      expect((await reset(await sealed({ userId: ana.username, code, newPassword: 'Otra-Clave-2026' }))).status).toBe(401);
    });

    it('takes an X NIE padded to 8 digits as the 7-digit one at both steps', async () => {
      const nadia = { username: 'X2600637G', phone: '+34600000077' };
      await server.app.identity.createUser(nadia.username, nadia.phone, { [ONBOARDING_STATUS_ATTRIBUTE]: 'complete' });
      await server.app.identity.setPassword(nadia.username, 'Vieja-Clave-2026', true);
      const before = await outboxCount();
      server.clock.offsetMs += 6_000;
      await askForCode(' x02600637g');
      await settled(before + 1);
      const code = await lastCode(server.app, nadia.phone);
      expect((await reset(await sealed({ userId: 'X02600637G', code, newPassword: 'Nueva-Clave-2026' }))).status).toBe(200);
      await expect(signIn(server.base, nadia.username, 'Nueva-Clave-2026')).resolves.toEqual(expect.any(String));
      // The audit trail names the person by the one spelling.
      const audit = await server.app.db.selectFrom('audit_log').select('subject').where('action', '=', 'recovery.password_changed').execute();
      expect(audit.map((row) => row.subject)).toContain('user:X2600637G');
      expect(audit.map((row) => row.subject)).not.toContain('user:X02600637G');
    });

    it('six asks at once for the same person text one code', async () => {
      const lena = { username: '71234567B', phone: '+34600000078' };
      await server.app.identity.createUser(lena.username, lena.phone, { [ONBOARDING_STATUS_ATTRIBUTE]: 'complete' });
      // The codes are sent after the answers: their turns, claimed in the background, are awaited here.
      const turns: Promise<number>[] = [];
      const claimTurn = server.app.codes.claimTurn.bind(server.app.codes);
      server.app.codes.claimTurn = (...args) => {
        const turn = claimTurn(...args);
        turns.push(turn);
        return turn;
      };
      try {
        const before = await outboxCount();
        const answers = await Promise.all(Array.from({ length: 6 }, () => askForCode(lena.username)));
        expect(answers.map((answer) => answer.status)).toEqual(Array(6).fill(200));
        await settled(before + 1);
        for (let i = 0; i < 500 && turns.length < 6; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
        expect((await Promise.all(turns)).filter((wait) => wait === 0)).toHaveLength(1);
        expect(await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', lena.phone).execute()).toHaveLength(1);
      } finally {
        server.app.codes.claimTurn = claimTurn;
      }
    });
  });
});
