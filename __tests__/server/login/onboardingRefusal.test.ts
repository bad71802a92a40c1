import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { ONBOARDING_STATUS_ATTRIBUTE } from '../../../server/plugins/identity';
import { describeEachDialect } from '../helpers';
import { lastCode, passCaptcha, signIn, startLoginServerOn, verificationSignature } from './loginServer';

// An identity service without the pre-token-generation check (an Amazon Cognito pool whose Lambda is not
// attached, or was detached by mistake) lets anyone with the right password sign in. The server itself must
// still refuse a session to an account whose onboarding is not complete.

const [ana, pending] = DEMO_CUSTOMERS;

describeEachDialect('create-session without the pre-token-generation check', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, {}, { preTokenGenerationTrigger: false });
  });
  afterAll(() => server.close());

  const createSession = (headers: Record<string, string>) =>
    fetch(`${server.api}/user-authorization-management/create-session`, { method: 'POST', headers });
  const outboxSize = async () => (await server.app.db.selectFrom('outbox').select('id').execute()).length;

  it('an applicant pending review signs in at the identity service, and the server refuses the session: no code is sent', async () => {
    const idToken = await signIn(server.base, pending.username, pending.password);
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const before = await outboxSize();

    const response = await createSession({ authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'ONBOARDING_NOT_COMPLETE', reason: 'ERR-2809' });
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await outboxSize()).toBe(before);
    const audit = await server.app.auditLog.listBySubject(`user:${pending.username}`);
    expect(audit.map((entry) => entry.action)).toContain('login.refused_onboarding');
  });

  it('an account rejected between the code and its confirmation gets no session', async () => {
    const username = 'Y2000001C';
    const phone = '+34600000201';
    await server.app.identity.createUser(username, phone, { [ONBOARDING_STATUS_ATTRIBUTE]: 'complete' });
    await server.app.identity.setPassword(username, 'Refused-later-1', true);
    const idToken = await signIn(server.base, username, 'Refused-later-1');
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const started = await createSession({ authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId });
    expect(started.status).toBe(200);
    const { token } = (await started.json()) as { token: string };

    await server.app.identity.updateAttributes(username, { [ONBOARDING_STATUS_ATTRIBUTE]: 'rejected' });
    const confirmed = await createSession({ 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, await lastCode(server.app, phone)) });
    expect(confirmed.status).toBe(403);
    // Rejected, not "not complete": the app tells the customer so, not that the review goes on.
    expect(await confirmed.json()).toMatchObject({ code: 'APPLICATION_REJECTED', reason: 'ERR-2810' });
    expect(confirmed.headers.get('set-cookie')).toBeNull();
    expect((await server.app.auditLog.listBySubject(`user:${username}`)).map((entry) => entry.action)).toContain('login.refused_rejected');
  });

  it('a rejected applicant who signs in at the identity service is refused as rejected: no code is sent', async () => {
    const username = 'Y2000002K';
    await server.app.identity.createUser(username, '+34600000202', { [ONBOARDING_STATUS_ATTRIBUTE]: 'rejected' });
    await server.app.identity.setPassword(username, 'Rejected-once-1', true);
    const idToken = await signIn(server.base, username, 'Rejected-once-1');
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const before = await outboxSize();
    const response = await createSession({ authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'APPLICATION_REJECTED', reason: 'ERR-2810' });
    expect(await outboxSize()).toBe(before);
  });

  it('a customer whose onboarding is complete still gets the code', async () => {
    const idToken = await signIn(server.base, ana.username, ana.password);
    const sessionId = randomUUID();
    await passCaptcha(server.api, sessionId);
    const response = await createSession({ authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId });
    expect(response.status).toBe(200);
  });
});
