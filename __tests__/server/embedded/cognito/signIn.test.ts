import { decodeJwt } from 'jose';
import { authenticate, browserUser, globalSignOut, refresh, signIn, signInError } from './browserClient';
import { CLIENT_ID, POOL_ID, poolCall, refreshOnce, startHarness, type Harness } from './harness';
import { srpSignIn, srpSignInError } from './srpClient';
import { describeEachDialect } from '../../helpers';

const PASSWORD = 'Correct-Horse-1';
const INCORRECT = { code: 'NotAuthorizedException', name: 'NotAuthorizedException', message: 'Incorrect username or password.' };

let harness: Harness;
let userCount = 0;

async function newUser(password = PASSWORD): Promise<string> {
  userCount += 1;
  const username = `X${String(1_000_000 + userCount)}L`;
  await harness.identity.createUser(username, '+34600000000');
  await harness.identity.setPassword(username, password, true);
  return username;
}

// Each sign-in runs the browser library's pure-JavaScript SRP maths (about half a second). The sign-ins that only
// lead up to what the server decides (the failures counted for a lockout) make the same requests with the SRP maths
// through OpenSSL (srpClient.ts); what the client then shows comes from the library.
jest.setTimeout(60_000);

/** The same requests and maths as the library, done through OpenSSL: for the sign-ins that only lead up to a check. */
const quickSignIn = (username: string, password: string) => srpSignIn(harness.endpoint, POOL_ID, CLIENT_ID, username, password);
const quickSignInError = (username: string, password: string, client?: string) => srpSignInError(harness.endpoint, POOL_ID, CLIENT_ID, username, password, client);
const signInFrom = (client: string, username: string, password: string) => srpSignIn(harness.endpoint, POOL_ID, CLIENT_ID, username, password, client);
/** Cognito's words for a locked-out sign-in: here, this client is locked out of the name. */
const EXCEEDED = { code: 'NotAuthorizedException', name: 'NotAuthorizedException', message: 'Password attempts exceeded' };
const NAME_LIMIT = 8;
const CLIENT_LIMIT = 100;

/** What `work` rejects with, its timers moved on 100 ms at each turn of the event loop (never a wall-clock wait). */
async function withTimersMovedOn(work: () => Promise<unknown>): Promise<unknown> {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'Date', 'hrtime', 'performance'] });
  try {
    let outcome: { error: unknown } | undefined;
    work().then(
      () => (outcome = { error: new Error('expected a refusal') }),
      (error: unknown) => (outcome = { error }),
    );
    while (!outcome) {
      jest.advanceTimersByTime(100);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return outcome.error;
  } finally {
    jest.useRealTimers();
  }
}

describeEachDialect('the embedded user pool with the browser client', (dialect) => {
  beforeAll(async () => {
    harness = await startHarness(dialect, { lockout: { maxFailures: 5, lockSeconds: 120, nameMaxFailures: NAME_LIMIT, clientMaxFailures: CLIENT_LIMIT } });
  });

  afterAll(async () => {
    await harness.close();
  });

  afterEach(() => {
    harness.clock.offsetMs = 0;
    harness.triggers.setPreTokenGeneration(undefined);
  });

  describe('SRP sign-in with the unmodified amazon-cognito-identity-js', () => {
    it('signs in with the right password, every time, and gets tokens that verify', async () => {
      const usernames = [await newUser(), await newUser('Ñandú-Pässwörd-9'), await newUser()];
      for (let round = 0; round < 4; round += 1) {
        for (const [i, username] of usernames.entries()) {
          const session = await signIn(harness.endpoint, username, i === 1 ? 'Ñandú-Pässwörd-9' : PASSWORD);
          expect(session.isValid()).toBe(true);
          const claims = await harness.identity.verifyIdToken(session.getIdToken().getJwtToken());
          expect(claims['cognito:username']).toBe(username);
          expect(claims.iss).toBe(`${harness.issuerBaseUrl}/${POOL_ID}`);
          expect(claims.aud).toBe(CLIENT_ID);
          expect(decodeJwt(session.getAccessToken().getJwtToken())).toMatchObject({ token_use: 'access', client_id: CLIENT_ID, username });
          expect(session.getRefreshToken().getToken()).toMatch(/^[\w-]{40,}$/);
        }
      }
    });

    it('answers getUserAttributes and getUserData (GetUser) for the signed-in user, and refuses a revoked or forged access token', async () => {
      const username = await newUser();
      const user = browserUser(harness.endpoint, username);
      await authenticate(user, username, PASSWORD);
      const attributes = await new Promise<{ Name: string; Value: string }[]>((resolve, reject) =>
        user.getUserAttributes((error, result) => (error ? reject(error) : resolve((result ?? []).map((attribute) => ({ Name: attribute.getName(), Value: attribute.getValue() }))))),
      );
      expect(attributes[0]).toEqual({ Name: 'sub', Value: expect.stringMatching(/^[0-9a-f-]{36}$/) });
      expect(attributes).toContainEqual({ Name: 'phone_number', Value: '+34600000000' });
      const data = await new Promise<{ Username: string }>((resolve, reject) => user.getUserData((error, result) => (error ? reject(error) : resolve(result as { Username: string })), { bypassCache: true }));
      expect(data.Username).toBe(username);

      const forged = await poolCall(harness.endpoint, 'AWSCognitoIdentityProviderService.GetUser', { AccessToken: 'eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' });
      expect(forged.body).toEqual({ __type: 'NotAuthorizedException', message: 'Invalid Access Token' });
      const accessToken = user.getSignInUserSession()!.getAccessToken().getJwtToken();
      await globalSignOut(user);
      const revoked = await poolCall(harness.endpoint, 'AWSCognitoIdentityProviderService.GetUser', { AccessToken: accessToken });
      expect(revoked.body).toEqual({ __type: 'NotAuthorizedException', message: 'Access Token has been revoked' });
    });

    it('answers a wrong password and an unknown user with exactly the same error', async () => {
      const username = await newUser();
      const wrongPassword = await signInError(harness.endpoint, username, 'Wrong-Horse-1');
      const unknownUser = await signInError(harness.endpoint, 'Y9999999Z', PASSWORD);
      expect(wrongPassword).toEqual(INCORRECT);
      expect(unknownUser).toEqual(INCORRECT);
    });

    it('gives an unknown user the same SALT every time, like a real one', async () => {
      const challenge = async (username: string) => {
        const response = await fetch(harness.endpoint, {
          method: 'POST',
          headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
          body: JSON.stringify({ AuthFlow: 'USER_SRP_AUTH', ClientId: CLIENT_ID, AuthParameters: { USERNAME: username, SRP_A: 'abc123' } }),
        });
        return ((await response.json()) as { ChallengeParameters: Record<string, string> }).ChallengeParameters;
      };
      const known = await newUser();
      for (const username of [known, 'Z0000000Q']) {
        const [first, second] = [await challenge(username), await challenge(username)];
        expect(first.SALT).toMatch(/^[0-9a-f]{32}$/);
        expect(second.SALT).toBe(first.SALT);
        expect(second.SRP_B).not.toBe(first.SRP_B);
        expect(first.USER_ID_FOR_SRP).toBe(username);
      }
      expect((await challenge('Z0000000Q')).SALT).not.toBe((await challenge('Z0000001Q')).SALT);
    });

    it('locks the client out after 5 consecutive failures, saying so as Cognito does, until the lock time has passed', async () => {
      const username = await newUser();
      for (let i = 0; i < 5; i += 1) expect(await quickSignInError(username, `Wrong-${i}`)).toEqual(INCORRECT);
      expect(await signInError(harness.endpoint, username, PASSWORD)).toEqual(EXCEEDED);
      harness.clock.offsetMs = 121_000;
      await expect(quickSignIn(username, PASSWORD)).resolves.toBeDefined();
    });

    it('refuses a right password when its name got locked while it was being checked, as by wrong guesses sent at once', async () => {
      const username = await newUser();
      // The hook runs once the password is judged right, before the answer is written: meanwhile, five wrong guesses
      // sent at the same moment are answered and lock the name.
      harness.triggers.setPreTokenGeneration(async () => {
        for (let i = 0; i < 5; i += 1) expect(await quickSignInError(username, `Wrong-${i}`)).toEqual(INCORRECT);
        return undefined;
      });
      expect(await quickSignInError(username, PASSWORD)).toEqual(EXCEEDED);
      harness.triggers.setPreTokenGeneration(undefined);
      expect(await quickSignInError(username, PASSWORD)).toEqual(EXCEEDED);
      harness.clock.offsetMs = 121_000;
      await expect(quickSignIn(username, PASSWORD)).resolves.toBeDefined();
    });

    it("a stranger's wrong passwords lock the stranger's client out, never the member's", async () => {
      const username = await newUser();
      for (let i = 0; i < 6; i += 1) await quickSignInError(username, `Wrong-${i}`, '203.0.113.5');
      expect(await quickSignInError(username, PASSWORD, '203.0.113.5')).toEqual(EXCEEDED);
      await expect(signInFrom('198.51.100.5', username, PASSWORD)).resolves.toBeDefined();
    });

    it('past the per-name limit, clients that failed at the name are refused, and a client that did not is judged', async () => {
      const username = await newUser();
      for (const client of ['203.0.113.6', '203.0.113.7']) {
        for (let i = 0; i < NAME_LIMIT / 2; i += 1) expect(await quickSignInError(username, `Wrong-${i}`, client)).toEqual(INCORRECT);
      }
      // Neither stranger reached its own limit, but the name's is reached: both are refused even the right password.
      expect(await quickSignInError(username, PASSWORD, '203.0.113.6')).toEqual(EXCEEDED);
      // A client that never failed at the name is judged: a wrong password is told so, the right one signs in.
      expect(await quickSignInError(username, 'Wrong-x', '203.0.113.8')).toEqual(INCORRECT);
      await expect(signInFrom('198.51.100.6', username, PASSWORD)).resolves.toBeDefined();
    });

    it('counts 20 simultaneous wrong passwords from one client each once, and the member still signs in from elsewhere', async () => {
      const username = await newUser();
      const counted = async () => {
        const rows: { failures: number }[] = await harness.db.selectFrom('cognito_client_failures').select('failures').where('username', '=', '').execute();
        return rows.reduce((sum, row) => sum + Number(row.failures), 0);
      };
      const before = await counted();
      const errors = await Promise.all(Array.from({ length: 20 }, (_, i) => quickSignInError(username, `Wrong-${i}`, '203.0.113.9')));
      expect(errors.every((error) => error.code === 'NotAuthorizedException')).toBe(true);
      // One statement per count: none of the twenty is lost at the client's count over every name.
      expect(await counted()).toBe(before + 20);
      expect(await quickSignInError(username, PASSWORD, '203.0.113.9')).toEqual(EXCEEDED);
      await expect(signInFrom('198.51.100.9', username, PASSWORD)).resolves.toBeDefined();
    });

    it('starts the count again after a successful sign-in', async () => {
      const username = await newUser();
      for (let i = 0; i < 4; i += 1) await quickSignInError(username, `Wrong-${i}`);
      await quickSignIn(username, PASSWORD);
      for (let i = 0; i < 4; i += 1) await quickSignInError(username, `Wrong-${i}`);
      await expect(signIn(harness.endpoint, username, PASSWORD)).resolves.toBeDefined();
    });

    it('passes the pre-token-generation refusal to the client as Cognito does for a failed trigger', async () => {
      const username = await newUser();
      const seen: unknown[] = [];
      harness.triggers.setPreTokenGeneration((user) => {
        seen.push(user);
        return user.username === username ? { code: 'ERR-2809' } : undefined;
      });
      const error = await signInError(harness.endpoint, username, PASSWORD);
      expect(error.code).toBe('UserLambdaValidationException');
      expect(error.message).toContain('ERR-2809');
      expect(error.message).toBe('PreTokenGeneration failed with error ERR-2809.');
      expect(seen).toEqual([expect.objectContaining({ username, attributes: expect.objectContaining({ phone_number: '+34600000000' }) })]);
      // The hook only runs once the password is right: a wrong one never reveals the refusal.
      expect(await quickSignInError(username, 'Wrong-Horse-1')).toEqual(INCORRECT);
      expect(seen).toHaveLength(1);
    });

    it('runs the pre-token-generation hook on a renewal too: a user refused since signing in gets no new tokens', async () => {
      const username = await newUser();
      harness.triggers.setPreTokenGeneration(undefined);
      const { RefreshToken } = await quickSignIn(username, PASSWORD);
      expect((await refreshOnce(harness.endpoint, RefreshToken)).status).toBe(200);
      harness.triggers.setPreTokenGeneration((user) => (user.username === username ? { code: 'ERR-2810' } : undefined));
      try {
        expect(await refreshOnce(harness.endpoint, RefreshToken)).toEqual({
          status: 400,
          body: { __type: 'UserLambdaValidationException', message: 'PreTokenGeneration failed with error ERR-2810.' },
        });
      } finally {
        harness.triggers.setPreTokenGeneration(undefined);
      }
    });

    it('tells a disabled user so, only after the right password', async () => {
      const username = await newUser();
      await harness.identity.disableUser(username);
      expect(await quickSignInError(username, 'Wrong-Horse-1')).toEqual(INCORRECT);
      expect(await signInError(harness.endpoint, username, PASSWORD)).toEqual({ ...INCORRECT, message: 'User is disabled.' });
      await harness.identity.enableUser(username);
      await expect(quickSignIn(username, PASSWORD)).resolves.toBeDefined();
    });

    it('refreshes the session, and stops refreshing after GlobalSignOut', async () => {
      const username = await newUser();
      const user = browserUser(harness.endpoint, username);
      const session = await authenticate(user, username, PASSWORD);
      const refreshed = await refresh(user, session);
      expect(refreshed.getIdToken().getJwtToken()).not.toBe(session.getIdToken().getJwtToken());
      expect(refreshed.getRefreshToken().getToken()).toBe(session.getRefreshToken().getToken());
      await harness.identity.verifyIdToken(refreshed.getIdToken().getJwtToken());

      await globalSignOut(user);
      // The client retries a failed refresh with backoff (about 6 s of its timers) before it gives up: the timers are
      // moved on instead of waited for, while the requests and the server run as they do.
      const refused = await withTimersMovedOn(() => refresh(user, session));
      expect(refused).toMatchObject({ code: 'NotAuthorizedException', message: 'Refresh Token has been revoked' });
      // The access token died with it.
      await expect(globalSignOut(user)).rejects.toMatchObject({ code: 'NotAuthorizedException' });
    }, 30_000);
  });
});
