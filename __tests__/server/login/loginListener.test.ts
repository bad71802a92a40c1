import { randomUUID } from 'node:crypto';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { makeStore } from '../../../src/app/store';
import { setRuntimeConfig } from '../../../src/config';
import { loginRequested } from '../../../src/state/authSlice';
import { initialFormState } from '../../../src/state/formSlice';
import { DEMO_CUSTOMERS } from '../../../server/plugins/demoCustomers';
import { ONBOARDING_STATUS_ATTRIBUTE } from '../../../server/services/onboardingGate';
import { toRuntimeConfig } from '../../../server/config';
import { lastCode, passCaptcha, signIn, startLoginServer, verificationSignature } from './loginServer';

// The browser's login flow (seed §4) as the store runs it, against the real server: captcha check, SRP
// sign-in through amazon-cognito-identity-js, create-session, and each way it can end.

const [ana, pending] = DEMO_CUSTOMERS;
let server: Awaited<ReturnType<typeof startLoginServer>>;

beforeAll(async () => {
  server = await startLoginServer();
  const runtime = toRuntimeConfig(server.config);
  setRuntimeConfig({ ...runtime, apiBaseUrl: server.api });
});
afterAll(() => server.close());

async function captchaToken(api = server.api): Promise<string> {
  const challenge = (await (await fetch(`${api}/captcha/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

async function runLogin(userId: string, password: string, token?: string) {
  const navigation = { navigate: jest.fn(), leaveApp: jest.fn() };
  const store = makeStore(undefined, { navigation, persist: false });
  store.dispatch(loginRequested({ userId, password, captchaToken: token ?? (await captchaToken()) }));
  expect(store.getState().auth.signingIn).toBe(true);
  for (let i = 0; i < 300 && store.getState().auth.signingIn; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  return { store, navigation };
}

describe('the login listener', () => {
  it('an identity service that cannot be reached: the form says so, not that the password is wrong', async () => {
    const runtime = toRuntimeConfig(server.config);
    setRuntimeConfig({ ...runtime, apiBaseUrl: server.api, identity: { ...runtime.identity, endpoint: 'http://127.0.0.1:9/' } });
    try {
      const { store } = await runLogin(ana.username, ana.password);
      expect(store.getState().auth.loginProblem).toEqual({ kind: 'unreachable' });
    } finally {
      setRuntimeConfig({ ...runtime, apiBaseUrl: server.api });
    }
  });

  it('a client blocked for codes: the form says until when', async () => {
    // Five wrong SMS codes from this client (the test's address) block it for Ana's login.
    const sessionId = randomUUID();
    const idToken = await signIn(server.base, ana.username, ana.password);
    await passCaptcha(server.api, sessionId);
    const started = await fetch(`${server.api}/user-authorization-management/create-session`, { method: 'POST', headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId } });
    const { token } = (await started.json()) as { token: string };
    const code = await lastCode(server.app, ana.phone);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const statuses = [];
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await fetch(`${server.api}/user-authorization-management/create-session`, {
        method: 'POST',
        headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, wrong) },
      });
      statuses.push(answer.status);
    }
    expect(statuses.at(-1)).toBe(423);
    try {
      const before = Date.now();
      const { store } = await runLogin(ana.username, ana.password);
      const problem = store.getState().auth.loginProblem as { kind: string; until: number };
      expect(problem.kind).toBe('blocked');
      // The block's length from the server's answer (CODE_LOCK_SECONDS), give or take the test's own run time.
      const lockMs = server.app.codes.settings.lockSeconds * 1000;
      expect(problem.until).toBeGreaterThanOrEqual(before + lockMs - 10_000);
      expect(problem.until).toBeLessThanOrEqual(Date.now() + lockMs);
    } finally {
      await server.app.db.deleteFrom('code_blocks').execute();
      await server.app.db.deleteFrom('code_failures').execute();
    }
  });

  it('200: keeps the masked phone and token in the login state only, and goes to the SMS step', async () => {
    const { store, navigation } = await runLogin(ana.username, ana.password);
    expect(store.getState().auth.signingIn).toBe(false);
    expect(navigation.navigate).toHaveBeenCalledWith('/login/confirm-telephone');
    expect(store.getState().auth.signInResult).toMatchObject({
      phone: '********001',
      token: expect.stringMatching(/^[\w-]{40,}$/),
      status: 200,
      resendAvailableAt: expect.any(Number),
    });
    // The onboarding form (persisted as USER_FORM) is not the login's: nothing of the sign-in goes there.
    expect(store.getState().form).toEqual(initialFormState);
    expect(store.getState().ui.toast).toBeNull();
  });

  it('signs in an X NIE typed padded to 8 digits as its 7-digit form, the only name the identity service knows', async () => {
    await server.app.identity.createUser('X1082303S', '+34600000088', { [ONBOARDING_STATUS_ATTRIBUTE]: 'complete' });
    await server.app.identity.setPassword('X1082303S', 'Clave-Nadia-2026', true);
    const { store, navigation } = await runLogin(' x01082303s ', 'Clave-Nadia-2026');
    expect(navigation.navigate).toHaveBeenCalledWith('/login/confirm-telephone');
    // Nadia's phone: the identity service, which knows only X1082303S, let her in.
    expect(store.getState().auth.signInResult).toMatchObject({ phone: '********088' });
  });

  it('ERR-2809: goes to client-verification, no toast', async () => {
    const { store, navigation } = await runLogin(pending.username, pending.password);
    expect(navigation.navigate).toHaveBeenCalledWith('/client-verification');
    expect(store.getState().ui.toast).toBeNull();
    expect(store.getState().auth.signingIn).toBe(false);
  });

  it('a rejected application: its own page, not the review notice, and no toast', async () => {
    await server.app.identity.createUser('Y2000011T', '+34600000211', { [ONBOARDING_STATUS_ATTRIBUTE]: 'rejected' });
    await server.app.identity.setPassword('Y2000011T', 'Rejected-once-1', true);
    const { store, navigation } = await runLogin('Y2000011T', 'Rejected-once-1');
    expect(navigation.navigate).toHaveBeenCalledWith('/application-rejected');
    expect(navigation.navigate).not.toHaveBeenCalledWith('/client-verification');
    expect(store.getState().ui.toast).toBeNull();
  });

  it('a wrong password: the login error toast, and nothing stored', async () => {
    const { store, navigation } = await runLogin(ana.username, 'Not-The-Password-1');
    expect(store.getState().ui.toast).toEqual({ messageIds: ['commons.error', 'login.error'], kind: 'error' });
    expect(store.getState().auth.loginProblem).toEqual({ kind: 'credentials' });
    expect(navigation.navigate).not.toHaveBeenCalled();
    expect(store.getState().auth.signInResult).toBeNull();
    expect(store.getState().auth.signingIn).toBe(false);
  });

  it('201: a browser that already holds the confirmed session goes straight to the main app', async () => {
    // Confirm a session first, as the SMS step would.
    const first = await runLogin(ana.username, ana.password);
    const token = first.store.getState().auth.signInResult!.token;
    const confirmed = await fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: {
        'x-divilo-session-id': first.store.getState().session.sessionId!,
        'x-divilo-verification-signature': verificationSignature(token, await lastCode(server.app, ana.phone)),
      },
    });
    const cookie = (confirmed.headers.get('set-cookie') ?? '').split(';')[0];
    // Node's fetch keeps no cookies: this wrapper plays the browser's cookie jar for our server.
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: RequestInfo | URL, init: RequestInit = {}) =>
      realFetch(input, { ...init, headers: { ...(init.headers as Record<string, string>), cookie } })) as typeof fetch;
    try {
      const { store, navigation } = await runLogin(ana.username, ana.password);
      expect(navigation.leaveApp).toHaveBeenCalledWith(server.config.mainAppUrl);
      expect(navigation.navigate).not.toHaveBeenCalled();
      expect(store.getState().auth.signingIn).toBe(false);
    } finally {
      globalThis.fetch = realFetch;
    }
  });

  it('a captcha token the server refuses: the same toast, and no sign-in attempt', async () => {
    const { store, navigation } = await runLogin(ana.username, ana.password, Buffer.from('{"challenge":{}}').toString('base64'));
    expect(store.getState().ui.toast?.messageIds).toEqual(['commons.error', 'login.error']);
    // On the form: the captcha, not the password, was the problem.
    expect(store.getState().auth.loginProblem).toEqual({ kind: 'captcha' });
    expect(navigation.navigate).not.toHaveBeenCalled();
    expect(navigation.leaveApp).not.toHaveBeenCalled();
  });
});

describe('the login listener, where the identity service has no pre-token-generation check', () => {
  let gateless: Awaited<ReturnType<typeof startLoginServer>>;
  beforeAll(async () => {
    gateless = await startLoginServer({}, { preTokenGenerationTrigger: false });
  });
  afterAll(async () => {
    await gateless.close();
    setRuntimeConfig({ ...toRuntimeConfig(server.config), apiBaseUrl: server.api });
  });

  it("the server's ONBOARDING_NOT_COMPLETE goes to client-verification as ERR-2809 does, with no toast", async () => {
    setRuntimeConfig({ ...toRuntimeConfig(gateless.config), apiBaseUrl: gateless.api });
    const { store, navigation } = await runLogin(pending.username, pending.password, await captchaToken(gateless.api));
    expect(navigation.navigate).toHaveBeenCalledWith('/client-verification');
    expect(store.getState().ui.toast).toBeNull();
    expect(store.getState().auth.signInResult).toBeNull();
  });

  it("the server's APPLICATION_REJECTED goes to the rejection page as ERR-2810 does", async () => {
    await gateless.app.identity.createUser('Y2000012R', '+34600000212', { [ONBOARDING_STATUS_ATTRIBUTE]: 'rejected' });
    await gateless.app.identity.setPassword('Y2000012R', 'Rejected-once-1', true);
    setRuntimeConfig({ ...toRuntimeConfig(gateless.config), apiBaseUrl: gateless.api });
    const { navigation } = await runLogin('Y2000012R', 'Rejected-once-1', await captchaToken(gateless.api));
    expect(navigation.navigate).toHaveBeenCalledWith('/application-rejected');
  });
});
