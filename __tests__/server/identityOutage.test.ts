// The identity service going away in the middle of a step, on both databases: the step answers 503
// SERVICE_UNAVAILABLE, keeps nothing half-done, and the same step repeated once the service is back completes it.
// The embedded identity service cannot be stopped apart from the server, so its calls are cut at the identity
// service's boundary here (`app.identity`); __tests__/aws/outage.test.ts stops the real thing.
import { randomUUID } from 'node:crypto';
import { sealForServer } from '../../src/features/recovery/sealForServer';
import { DEMO_CUSTOMERS } from '../../server/plugins/demoCustomers';
import type { IdentityService } from '../../server/services/identity';
import { describeEachDialect } from './helpers';
import { lastCode, passCaptcha, signIn, startLoginServerOn, verificationSignature } from './login/loginServer';
import { call, setPasswordOf, signUpAndConfirm } from './onboarding/signing';

const [ana] = DEMO_CUSTOMERS;

/** What a call to an identity service that went away throws: a connection refused. */
const unreachable = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });

/**
 * The next call of `identity[method]` fails as an unreachable service would: `before` it reaches the service, or
 * `after` it did its work and its answer was lost (a connection cut on the way back).
 */
function cutNextCall(identity: IdentityService, method: keyof IdentityService, when: 'before' | 'after') {
  const original = identity[method] as (...args: unknown[]) => Promise<unknown>;
  (identity as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
    (identity as unknown as Record<string, unknown>)[method] = original;
    if (when === 'after') await original.apply(identity, args);
    throw unreachable();
  };
}

describeEachDialect('the identity service going away mid-step', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  it("login's last step: 503 while the account cannot be read, then the same code opens the session", async () => {
    const idToken = await signIn(server.base, ana.username, ana.password);
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const started = await fetch(`${server.api}/user-authorization-management/create-session`, { method: 'POST', headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId } });
    const { token } = (await started.json()) as { token: string };
    const confirm = async () =>
      fetch(`${server.api}/user-authorization-management/create-session`, {
        method: 'POST',
        headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, await lastCode(server.app, ana.phone)) },
      });
    cutNextCall(server.app.identity, 'getUser', 'before');
    const away = await confirm();
    expect(away.status).toBe(503);
    expect(away.headers.get('retry-after')).toBe('5');
    expect(await away.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(away.headers.get('set-cookie')).toBeNull();
    const back = await confirm();
    expect(back.status).toBe(201);
    expect(back.headers.get('set-cookie')).toContain('divilo_session=');
  });

  it('a new password: 503 while the identity service is away (after it changed the password, its answer lost), then the same code and password finish it', async () => {
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const before = (await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', ana.phone).execute()).length;
    await fetch(`${server.api}/credentials-management/password`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ userId: ana.username, sessionId }) });
    for (let waited = 0; (await server.app.db.selectFrom('outbox').select('id').where('recipient', '=', ana.phone).execute()).length === before; waited += 20) {
      if (waited > 15_000) throw new Error('no recovery code');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const key = (await (await fetch(`${server.api}/credentials-management/getKey`)).json()) as { keyId: string; publicKey: string };
    const data = await sealForServer({ userId: ana.username, code: await lastCode(server.app, ana.phone), newPassword: 'Nueva-Clave-2026!' }, key);
    const reset = () => fetch(`${server.api}/credentials-management/password`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
    // The sessions of the old password are revoked after the change: the service goes away in between.
    cutNextCall(server.app.identity, 'globalSignOut', 'before');
    const away = await reset();
    expect(away.status).toBe(503);
    expect(await away.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const back = await reset();
    expect(back.status).toBe(200);
    await expect(signIn(server.base, ana.username, 'Nueva-Clave-2026!')).resolves.toEqual(expect.any(String));
  });

  it("the sign-up's e-mail code: 503 while the identity service cannot say whether the ID is a customer's, then the same code opens the application", async () => {
    const email = 'outage-signup@example.com';
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const registered = await fetch(`${server.api}/onboarding-management/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, idType: 'nif', id: '00000033X', privacyPolicy: true, precontractualInformation: true, sessionId }),
    });
    const { token } = (await registered.json()) as { token: string };
    const code = await lastCode(server.app, email);
    cutNextCall(server.app.identity, 'getUser', 'before');
    expect((await call(server, token, 'POST', 'email/verify', { code })).body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect((await call(server, token, 'POST', 'email/verify', { code })).body).toMatchObject({ next: 'personal-info' });
  });

  describe('the sign-in user of a verified identity', () => {
    /** A signed-up application at its password step, its identity verified (it holds its ID document). */
    async function verifiedApplication(idDocument: string) {
      const confirmed = await signUpAndConfirm(server, `${idDocument.toLowerCase()}@example.com`, idDocument);
      const id = (confirmed.body.application as { id: string }).id;
      expect((await setPasswordOf(server, id)).status).toBe(200);
      await server.app.signInUsers.claim((await server.app.applications.find(id))!, new Date());
      return { id, token: await server.app.onboardingTokens.issue(id) };
    }
    const password = (token: string, diviloPassword: string) => call(server, token, 'POST', 'password', { diviloPassword, diviloPasswordConfirmation: diviloPassword });

    it("made, but its answer lost: the password step again is no 409, records that user and gives it the password; no second user", async () => {
      const { id, token } = await verifiedApplication('00000030F');
      cutNextCall(server.app.identity, 'createUser', 'after');
      await expect(server.app.signInUsers.ensureUser((await server.app.applications.find(id))!, new Date())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      const made = await server.app.identity.getUser('00000030F');
      expect(made).toBeDefined();
      expect((await server.app.applications.find(id))!.answers.identityUserSub).toBeUndefined();

      const again = await password(token, 'Otra-Clave-2026!');
      expect(again.status).toBe(200);
      expect((await server.app.applications.find(id))!.answers.identityUserSub).toBe(made!.sub);
      expect((await server.app.identity.getUser('00000030F'))!.sub).toBe(made!.sub);
      // The password is the user's: the pool takes it, and refuses the sign-in only for the unfinished application.
      await expect(signIn(server.base, '00000030F', 'Otra-Clave-2026!')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
    });

    it('made, but its password not set (the service gone in between): the next verification run finishes that user', async () => {
      const { id } = await verifiedApplication('00000031P');
      cutNextCall(server.app.identity, 'setPassword', 'before');
      await expect(server.app.signInUsers.ensureUser((await server.app.applications.find(id))!, new Date())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      const made = await server.app.identity.getUser('00000031P');
      expect(made).toBeDefined();
      const finished = await server.app.signInUsers.ensureUser((await server.app.applications.find(id))!, new Date());
      expect(finished.answers.identityUserSub).toBe(made!.sub);
      await expect(signIn(server.base, '00000031P', 'Clave-Divilo-2026')).rejects.toMatchObject({ message: expect.stringContaining('ERR-2809') });
    });

    it("a user of the ID made before this application began making one stays someone else's: 409", async () => {
      const { token } = await verifiedApplication('00000032D');
      await server.app.identity.createUser('00000032D', '+34611000032', { email: '00000032d@example.com', 'custom:onboarding_status': 'pending' });
      expect((await password(token, 'Otra-Clave-2026!')).body).toMatchObject({ code: 'ALREADY_A_CUSTOMER' });
    });
  });
});
