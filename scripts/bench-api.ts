// `npm run bench:api`: the login API under a steady 200 requests per second, against the real server process
// (server/server.ts, as operators run it) on SQLite and, when DATABASE_URL is set, on a PostgreSQL schema of its own.
// Each endpoint gets BENCH_API_SECONDS (default 30) of requests arriving one every 5 ms (scripts/steadyLoad.ts:
// latency counted from when each request was due, at most 20 connections), after 3 s at that rate not counted
// (the first requests of a fresh process open its database connections and compile its code); prints p50/p99
// latency and the errors (connection errors, timeouts, any status but the expected one) beside the target.
// Asserts nothing.
// BENCH_API_TELEMETRY=on runs the server as on AWS: server/instrumentation.ts loaded, traces and metrics exported
// over OTLP (to a sink in this process that takes them and counts them; OTEL_TRACES_SAMPLER* passed on), to compare
// with a run without.
//   create-session  the first call of a login: an id token made beforehand (one SRP sign-in), a captcha pass
//                   per call (written to the database beforehand: solving thousands of proofs of work would
//                   measure the client), an SMS code sent to the outbox each time
//   get-session     a confirmed session's cookie, renewed each time
//   /config.json    what the SPA fetches first
//   wizard steps    each save of a freelancer's first steps (as scripts/bench-wizard.ts drives them), spread
//                   over 100 applications made beforehand, with onboarding tokens the shared SERVER_SECRET signs
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AuthenticationDetails, CognitoUser, CognitoUserPool } from 'amazon-cognito-identity-js';
import { Client } from 'pg';
import { createDatabase, type DatabaseHandle } from '../server/db';
import { toDbTime } from '../server/db/values';
import { DEMO_CUSTOMERS } from '../server/plugins/demoCustomers';
import { applicationRepository } from '../server/repositories/applicationRepository';
import { onboardingTokens } from '../server/services/onboardingTokens';
import { deriveKey } from '../server/services/serverSecret';
import { percentile, steadyLoad, type SteadyRequest } from './steadyLoad';
import { freePort } from './freePort';

// BENCH_API_RATE: another rate, for a machine too busy to serve 200 a second (the CPU per request still compares).
const RATE = Number(process.env.BENCH_API_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 30);
const CONNECTIONS = 20;
const WARM_UP_SECONDS = 3;
const TARGET_P99_MS = 50;
const root = path.resolve(__dirname, '..');
const APPLICATIONS = 100;
/** The wizard's first steps of a freelancer, in order, with what each saves (the same as bench:wizard). */
const WIZARD_STEPS: [string, Record<string, unknown>][] = [
  ['personal-info', { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: '', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' }],
  ['person-type', { personType: 'freelance' }],
  ['legalperson/freelance', { selfEmployedId: '00000000T', selfEmployedActivity: '1.673.2', selfEmployedDate: '01/02/2024', selfEmployedAtaCode: '', promotionalCode: '' }],
  ['legalperson/freelance/postal-address', { selfEmployedFiscalAddress: 'Calle Mayor 1', selfEmployedFiscalAdditionalAddress: '', selfEmployedFiscalPostalCode: '28013', selfEmployedFiscalCity: 'Madrid', selfEmployedFiscalCountry: 'ES' }],
];

/** The CPU time a process has used, in ms (Linux: /proc, clock ticks of 10 ms); undefined elsewhere. */
function cpuMs(pid: number | undefined): number | undefined {
  const stat = `/proc/${pid}/stat`;
  if (pid === undefined || !existsSync(stat)) return undefined;
  // utime and stime, the 14th and 15th fields, counted after the command's closing parenthesis.
  const fields = readFileSync(stat, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** An OTLP endpoint that takes every export (an empty answer is an empty ExportServiceResponse) and counts them. */
async function otlpSink(): Promise<{ endpoint: string; received: () => { exports: number; bytes: number }; close(): void }> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => (bytes += chunk.length));
    request.on('end', () => {
      exports += 1;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, received: () => ({ exports, bytes }), close: () => server.close() };
}

/** The request to send next (each call may give new headers: a captcha pass, an applicant's token). */
type NextRequest = () => SteadyRequest;

/** server/server.ts in its own process; ready once /health answers. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; base: string; stop(): Promise<void> }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_FLAGS: Node flags for the server, e.g. "--cpu-prof --cpu-prof-dir=/tmp/profiles".
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const instrumentation = env.OTEL_EXPORTER_OTLP_ENDPOINT ? ['--import', './server/instrumentation.ts'] : [];
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', ...instrumentation, 'server/server.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_NO_WARNINGS: '1',
      PORT: String(port),
      PUBLIC_URL: base,
      // The limits stay on (their cost is part of each request) but above what the run sends. So do the message
      // budgets: create-session pays for each SMS out of them, every one to the same phone from the same address.
      RATE_LIMIT_MAX: '1000000',
      RATE_LIMIT_SENSITIVE_MAX: '1000000',
      ...Object.fromEntries(['SMS', 'EMAIL'].flatMap((channel) => ['PER_RECIPIENT', 'PER_PERSON', 'PER_CLIENT', 'TOTAL'].map((bucket) => [`${channel}_BUDGET_${bucket}`, '1000000']))),
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let attempt = 0; ; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`the server exited: ${stderr}`);
    const healthy = await fetch(`${base}/health`).then((response) => response.ok, () => false);
    if (healthy) break;
    if (attempt > 600) throw new Error(`the server did not answer /health in a minute: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    child,
    base,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One SRP sign-in of a demo customer with the browser library: the id token create-session takes. */
function signIn(base: string, username: string, password: string): Promise<string> {
  const pool = new CognitoUserPool({ UserPoolId: 'local_Divilo1', ClientId: 'diviloweb', endpoint: `${base}/cognito` });
  const user = new CognitoUser({ Username: username, Pool: pool });
  return new Promise((resolve, reject) =>
    user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), {
      onSuccess: (session) => resolve(session.getIdToken().getJwtToken()),
      onFailure: reject,
    }),
  );
}

/** Captcha passes for `count` session ids, valid for an hour. */
async function grantPasses(database: DatabaseHandle, count: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const expiresAt = toDbTime(new Date(Date.now() + 3600_000));
  for (let at = 0; at < ids.length; at += 500) {
    await database.db
      .insertInto('captcha_passes')
      .values(ids.slice(at, at + 500).map((id) => ({ session_id: id, expires_at: expiresAt, used_at: null })))
      .execute();
  }
  return ids;
}

/** A confirmed customer session, as the SMS step ends: its cookie. */
async function sessionCookie(base: string, database: DatabaseHandle, idToken: string, phone: string): Promise<string> {
  const [sessionId] = await grantPasses(database, 1);
  const started = await fetch(`${base}/api/user-authorization-management/create-session`, {
    method: 'POST',
    headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId },
  });
  const { token } = (await started.json()) as { token: string };
  const sms = await database.db.selectFrom('outbox').select('text').where('recipient', '=', phone).orderBy('id', 'desc').executeTakeFirstOrThrow();
  const verificationCode = /\b(\d{6})\b/.exec(sms.text)![1];
  const confirmed = await fetch(`${base}/api/user-authorization-management/create-session`, {
    method: 'POST',
    headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': Buffer.from(JSON.stringify({ token, verificationCode })).toString('base64') },
  });
  if (confirmed.status !== 201) throw new Error(`the session was not confirmed: ${confirmed.status} ${await confirmed.text()}`);
  return (confirmed.headers.get('set-cookie') ?? '').split(';')[0];
}

/**
 * Applications past the phone steps (the wizard's order needs them done), each with an onboarding token: the
 * server's own kind, signed with the key it derives from the SERVER_SECRET it was given.
 */
async function applications(base: string, database: DatabaseHandle, secret: Buffer): Promise<string[]> {
  const repository = applicationRepository(database.db);
  const tokens = onboardingTokens({ key: deriveKey(secret, 'onboarding-tokens'), lifetimeSeconds: 3600, issuer: base, clock: () => new Date() });
  return Promise.all(
    Array.from({ length: APPLICATIONS }, async (_, i) => {
      const created = await repository.create(
        {
          email: `bench-api-${i}@example.com`,
          idDocument: `B${String(20_000_000 + i)}`,
          answers: {},
          completedSteps: ['signUp', 'reg-code', 'personal-info', 'contact-phone', 'confirm-telephone'],
          language: 'es',
        },
        new Date(),
      );
      return tokens.issue(created.id);
    }),
  );
}

async function run(label: string, serverEnv: Record<string, string>, openDatabase: () => DatabaseHandle): Promise<void> {
  const secret = randomBytes(32);
  const sink = process.env.BENCH_API_TELEMETRY === 'on' ? await otlpSink() : undefined;
  // The sampler (OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG) as this process was given it.
  const sampler = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith('OTEL_TRACES_SAMPLER') && entry[1] !== undefined));
  const telemetry: Record<string, string> = sink ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_METRIC_EXPORT_INTERVAL: '5000', ...sampler } : {};
  const server = await startServer({ ...serverEnv, ...telemetry, SERVER_SECRET: secret.toString('base64') });
  const database = openDatabase();
  try {
    const [customer] = DEMO_CUSTOMERS;
    // The demo customers are made just after the server starts listening.
    let idToken = '';
    for (let attempt = 0; !idToken; attempt += 1) {
      idToken = await signIn(server.base, customer.username, customer.password).catch((error: unknown) => {
        if (attempt >= 50) throw error;
        return new Promise<string>((resolve) => setTimeout(() => resolve(''), 200));
      });
    }
    const cookie = await sessionCookie(server.base, database, idToken, customer.phone);
    const passes = await grantPasses(database, Math.ceil(RATE * (WARM_UP_SECONDS + SECONDS) * 1.2) + 100);
    let pass = 0;
    const endpoints: { name: string; expected: number; next: NextRequest }[] = [
      {
        name: 'POST create-session',
        expected: 200,
        next: () => ({
          method: 'POST',
          path: '/api/user-authorization-management/create-session',
          headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': passes[pass++ % passes.length] },
        }),
      },
      { name: 'GET get-session', expected: 200, next: () => ({ method: 'GET', path: '/api/user-authorization-management/get-session', headers: { cookie } }) },
      { name: 'GET /config.json', expected: 200, next: () => ({ method: 'GET', path: '/config.json' }) },
    ];
    const bearers = await applications(server.base, database, secret);
    for (const [step, body] of WIZARD_STEPS) {
      let applicant = 0;
      endpoints.push({
        name: `POST ${step.replace('legalperson/freelance', 'freelance')}`,
        expected: 200,
        next: () => ({
          method: 'POST',
          path: `/api/onboarding-management-private/${step}`,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${bearers[applicant++ % bearers.length]}` },
          body: JSON.stringify(body),
        }),
      });
    }
    console.log(`\n${label}${sink ? ', telemetry on (traces and metrics over OTLP)' : ''}: ${RATE} requests/s for ${SECONDS} s each after ${WARM_UP_SECONDS} s not counted, at most ${CONNECTIONS} connections`);
    // BENCH_API_ONLY: measure only the endpoints whose name contains it (e.g. "create-session").
    const only = process.env.BENCH_API_ONLY;
    for (const endpoint of endpoints.filter(({ name }) => !only || name.includes(only))) {
      const load = (seconds: number) => steadyLoad({ base: server.base, rate: RATE, seconds, timeoutMs: 10_000, connections: CONNECTIONS, next: endpoint.next });
      // Not counted: the first requests of a fresh process open the database connections and compile the code.
      await load(WARM_UP_SECONDS);
      const cpuBefore = cpuMs(server.child.pid);
      const result = await load(SECONDS);
      const cpuAfter = cpuMs(server.child.pid);
      const unexpected = [...result.statuses].filter(([status]) => status !== endpoint.expected).reduce((sum, [, count]) => sum + count, 0);
      const errors = result.failures + unexpected;
      const answered = result.latencies.length;
      console.log(
        `  ${endpoint.name.padEnd(32)} p50 ${percentile(result.latencies, 50).toFixed(1).padStart(6)} ms   p99 ${percentile(result.latencies, 99).toFixed(1).padStart(6)} ms ` +
          `(target < ${TARGET_P99_MS})   ${String(answered).padStart(5)} requests, ${(answered / result.seconds).toFixed(0)}/s   errors ${errors} (target 0)` +
          (cpuBefore === undefined || cpuAfter === undefined ? '' : `   server CPU ${((cpuAfter - cpuBefore) / Math.max(1, answered)).toFixed(2)} ms/request`),
      );
    }
    if (sink) console.log(`  exported: ${sink.received().exports} OTLP requests, ${(sink.received().bytes / 1024).toFixed(0)} KiB`);
  } finally {
    await database.destroy();
    await server.stop();
    sink?.close();
  }
}

async function main(): Promise<void> {
  const sqliteDir = mkdtempSync(path.join(tmpdir(), 'divilo-bench-api-'));
  try {
    await run('SQLite', { DATA_DIR: sqliteDir }, () => createDatabase({ dataDir: sqliteDir }));
  } finally {
    rmSync(sqliteDir, { recursive: true, force: true });
  }

  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log('\nPostgreSQL: skipped (DATABASE_URL is not set)');
    return;
  }
  const schema = `bench_api_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const pgDir = mkdtempSync(path.join(tmpdir(), 'divilo-bench-api-'));
  try {
    // The schema goes in the URL as libpq's `options`, as a deployment would set it.
    const serverUrl = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    await run('PostgreSQL', { DATA_DIR: pgDir, DATABASE_URL: serverUrl }, () => createDatabase({ dataDir: pgDir, databaseUrl: url, postgresSchema: schema }));
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    rmSync(pgDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
