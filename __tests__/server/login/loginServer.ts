import { pbkdf2Sync } from 'node:crypto';
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { AuthenticationDetails, CognitoUser, CognitoUserPool } from 'amazon-cognito-identity-js';
import type { FastifyInstance } from 'fastify';
import type { AppOptions } from '../../../server/app';
import { srpSignIn } from '../embedded/cognito/srpClient';
import { buildTestApp, freePort, openTestDatabase, type Dialect } from '../helpers';

/**
 * Limits that suites of many logins from one address, to the demo customers' phones, would reach: raised here as
 * the rate limit is; the suites about them (messageBudgets.test.ts) set their own.
 */
const ROOMY_BUDGETS = Object.fromEntries([
  ...['SMS', 'EMAIL'].flatMap((channel) => ['PER_RECIPIENT', 'PER_PERSON', 'PER_CLIENT', 'TOTAL'].map((bucket) => [`${channel}_BUDGET_${bucket}`, '100000'])),
  ...['SMS_BUDGET_CUSTOMERS_TOTAL', 'SMS_BUDGET_PER_RANGE', 'SMS_BUDGET_SPAIN', 'SMS_BUDGET_PER_COUNTRY', 'EMAIL_BUDGET_UNPROVEN_PER_RECIPIENT', 'EMAIL_BUDGET_UNPROVEN_TOTAL'].map(
    (name) => [name, '100000'],
  ),
]);

/**
 * The captcha's work at its least: each test that logs in or signs up solves one, and at the default cost the
 * solving took about a twentieth of the server tests' CPU. Still a real challenge, solved and checked;
 * challengeCost.test.ts checks the default (`ALTCHA_COST: undefined`).
 */
const LEAST_CAPTCHA_WORK = { ALTCHA_COST: '1' };

/**
 * Wrong codes one client address may give at every person together: a suite's many people all answer from
 * 127.0.0.1. Raised as the rate limit is; strangerCodes.test.ts sets its own.
 */
const ROOMY_CLIENT_CODES = { CODE_CLIENT_MAX_ATTEMPTS: '1000' };

/** The whole server on a real port (the identity service reaches its own endpoint over HTTP). */
export async function startLoginServer(env: Record<string, string | undefined> = {}, options: AppOptions = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = await buildTestApp({ PUBLIC_URL: base, PORT: String(port), CODE_RESEND_SECONDS: '5', RATE_LIMIT_SENSITIVE_MAX: '1000', ...ROOMY_BUDGETS, ...ROOMY_CLIENT_CODES, ...LEAST_CAPTCHA_WORK, ...env }, options);
  await server.app.listen({ port, host: '127.0.0.1' });
  await server.app.demoCustomersReady;
  return { ...server, base, api: `${base}/api` };
}

/**
 * The whole server on a fresh database of `dialect`, with the code rules on a clock the test moves
 * (`clock.offsetMs`) instead of waiting; `close()` removes the database too.
 */
export async function startLoginServerOn(dialect: Dialect, env: Record<string, string | undefined> = {}, options: AppOptions = {}) {
  const database = await openTestDatabase(dialect);
  const clock = { offsetMs: 0 };
  const server = await startLoginServer(env, { ...options, database, clock: () => new Date(Date.now() + clock.offsetMs) });
  return {
    ...server,
    clock,
    close: async () => {
      await server.close();
      await database.destroy();
    },
  };
}

const POOL_ID = 'local_Divilo1';
const CLIENT_ID = 'diviloweb';

/**
 * Signs in with SRP and answers the id token, or rejects with the error as the browser client reports it
 * (`code`, `name`, `message`). The library's requests and maths, done with OpenSSL (srpClient.ts): for tests about
 * what the server does with the sign-in.
 */
export async function signIn(base: string, username: string, password: string): Promise<string> {
  return (await srpSignIn(`${base}/cognito`, POOL_ID, CLIENT_ID, username, password)).IdToken;
}

/** The same through the unmodified browser client, as the SPA signs in (~0.2 s of CPU in its pure-JS maths). */
export function librarySignIn(base: string, username: string, password: string): Promise<string> {
  const storage = new Map<string, string>();
  const memory = {
    setItem: (k: string, v: string) => void storage.set(k, v),
    getItem: (k: string) => storage.get(k) ?? null,
    removeItem: (k: string) => void storage.delete(k),
    clear: () => storage.clear(),
  };
  const pool = new CognitoUserPool({ UserPoolId: POOL_ID, ClientId: CLIENT_ID, endpoint: `${base}/cognito`, Storage: memory });
  const user = new CognitoUser({ Username: username, Pool: pool, Storage: memory });
  return new Promise((resolve, reject) =>
    user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), {
      onSuccess: (session) => resolve(session.getIdToken().getJwtToken()),
      onFailure: reject,
    }),
  );
}

/**
 * The same PBKDF2 as altcha-lib's deriveKey, computed in this thread: its asynchronous one sends each of the
 * thousands of counters tried to the thread pool, 3× the CPU of the derivation itself (174 against 53 ms a captcha).
 */
const deriveKeyHere: typeof deriveKey = async (parameters, salt, password) => {
  if (parameters.algorithm !== 'PBKDF2/SHA-256') return deriveKey(parameters, salt, password);
  return { parameters: {}, derivedKey: pbkdf2Sync(password, salt, parameters.cost, parameters.keyLength ?? 32, 'sha256') };
};

/** Solves the server's proof-of-work challenge as the browser does: the token the captcha's check takes. */
export async function captchaToken(api: string): Promise<string> {
  const challenge = (await (await fetch(`${api}/captcha/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey: deriveKeyHere });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** Solves the server's proof-of-work challenge as the browser does and gets a pass for `sessionId`. */
export async function passCaptcha(api: string, sessionId: string): Promise<string> {
  const token = await captchaToken(api);
  const answer = (await (await fetch(`${api}/captcha/verify?${new URLSearchParams({ response: token, sessionId })}`)).json()) as { success: boolean };
  if (!answer.success) throw new Error('captcha refused');
  return token;
}

/** The last code the outbox "sent" to a phone. */
export async function lastCode(app: FastifyInstance, phone: string): Promise<string> {
  const row = await app.db.selectFrom('outbox').select('text').where('recipient', '=', phone).orderBy('id', 'desc').executeTakeFirstOrThrow();
  return /\b(\d{6})\b/.exec(row.text)![1];
}

export const verificationSignature = (token: string, verificationCode: string) =>
  Buffer.from(JSON.stringify({ token, verificationCode })).toString('base64');
