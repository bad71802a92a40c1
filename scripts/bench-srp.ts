// Measures SRP sign-ins against the embedded pool:
//   npm run bench:srp [-- --runs 5 --sign-ins 20 --back-to-back 100 --warm-up 1000 --clients 1 --profile FILE.cpuprofile]
// The server runs here, on the product's database setup (SQLite, WAL); the clients run in child processes (so are
// the test users made, through the admin API), so process.cpuUsage() here is the server's own CPU. Two figures,
// each the median over several runs of the CPU per sign-in:
// - with the unmodified amazon-cognito-identity-js, whose pure-JS maths takes ~0.2 s per sign-in: the server sits
//   idle between requests, and each one finds its caches cold;
// - back to back, with a client doing the same SRP maths through OpenSSL: the server's cost when it is busy, the
//   one that sizes a deployment.
// The back-to-back figure is set against a floor, what a sign-in cannot avoid: the server's SRP maths (B, S and K
// through OpenSSL, as srp.ts computes them) plus two RS256 signatures (the id and access tokens). The floor is
// measured alone in this process after each run, so a run and its floor see the same machine load; the ratio is
// the median of the runs' ratios. Also times the SRP maths against a plain BigInt modPow.
// --profile writes a CPU profile of this process over the back-to-back runs (open it in Chrome's DevTools); the
// floors are then measured after the profile is written, not between the runs.
import { fork, type ChildProcess } from 'node:child_process';
import { createHash, createHmac, generateKeyPairSync, randomBytes, randomUUID, sign as signData } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import Fastify from 'fastify';
import { createDatabase, migrateToLatest } from '../server/db';
import { embeddedCognito } from '../server/embedded/cognito';
import { deriveKey } from '../server/embedded/cognito/sealing';
import {
  N,
  computeSessionKey,
  computeX,
  createPasswordVerifier,
  createServerEphemeral,
  formatSrpTimestamp,
  g,
  hexHash,
  k,
  modPowN,
  padHex,
  passwordClaimSignature,
} from '../server/embedded/cognito/srp';
import { createTokenIssuer, type SigningKeyRecord } from '../server/embedded/cognito/tokens';

const POOL_ID = 'local_Bench1';
const POOL_NAME = 'Bench1';
const CLIENT_ID = 'benchclient0000000000000000';
const PASSWORD = 'Bench-Pass-123';
/** The most the back-to-back figure may cost per sign-in, as a multiple of the floor. */
const TARGET_RATIO = 1.25;
const ADMIN = { accessKeyId: 'AKIABENCHADMIN000001', secretAccessKey: 'bench-admin-secret-0000000000000000000000' };

interface ClientReport {
  latencies: number[];
  failures: number;
}

type SignIn = (username: string) => Promise<boolean>;

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A sign-in with the unmodified browser library, as the SPA does it. */
async function librarySignIn(endpoint: string): Promise<SignIn> {
  const { AuthenticationDetails, CognitoUser, CognitoUserPool } = await import('amazon-cognito-identity-js');
  return (username) =>
    new Promise<boolean>((resolve) => {
      const user = new CognitoUser({ Username: username, Pool: new CognitoUserPool({ UserPoolId: POOL_ID, ClientId: CLIENT_ID, endpoint }) });
      user.authenticateUser(new AuthenticationDetails({ Username: username, Password: PASSWORD }), {
        onSuccess: () => resolve(true),
        onFailure: () => resolve(false),
      });
    });
}

/** The same two requests, the client's SRP maths done with OpenSSL (docs/aws-protocols: the client's formulas). */
function protocolSignIn(endpoint: string): SignIn {
  const call = async (operation: string, body: object) => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-amz-json-1.1', 'x-amz-target': `AWSCognitoIdentityProviderService.${operation}` },
      body: JSON.stringify(body),
    });
    return { ok: response.ok, body: (await response.json()) as { Session: string; ChallengeParameters: Record<string, string> } };
  };
  return async (username) => {
    const a = BigInt(`0x${randomBytes(32).toString('hex')}`);
    const A = modPowN(g, a);
    const challenge = await call('InitiateAuth', { AuthFlow: 'USER_SRP_AUTH', ClientId: CLIENT_ID, AuthParameters: { USERNAME: username, SRP_A: A.toString(16) } });
    const { SALT, SRP_B, SECRET_BLOCK } = challenge.body.ChallengeParameters;
    const B = BigInt(`0x${SRP_B}`);
    const u = BigInt(`0x${hexHash(padHex(A) + padHex(B))}`);
    const x = computeX(POOL_NAME, username, PASSWORD, SALT);
    const S = modPowN((((B - k * modPowN(g, x)) % N) + N) % N, a + u * x);
    const prk = createHmac('sha256', Buffer.from(padHex(u), 'hex')).update(Buffer.from(padHex(S), 'hex')).digest();
    const key = createHmac('sha256', prk).update('Caldera Derived Key\u0001').digest().subarray(0, 16);
    const timestamp = formatSrpTimestamp(Date.now());
    const answer = await call('RespondToAuthChallenge', {
      ChallengeName: 'PASSWORD_VERIFIER',
      ClientId: CLIENT_ID,
      Session: challenge.body.Session,
      ChallengeResponses: {
        USERNAME: username,
        PASSWORD_CLAIM_SECRET_BLOCK: SECRET_BLOCK,
        TIMESTAMP: timestamp,
        PASSWORD_CLAIM_SIGNATURE: passwordClaimSignature(key, POOL_NAME, username, Buffer.from(SECRET_BLOCK, 'base64'), timestamp),
      },
    });
    return answer.ok;
  };
}

/** Child process: on each message `{ count }`, signs in that many times in a row and reports the latencies. */
async function runClient(kind: string, endpoint: string, usernames: string[]): Promise<void> {
  const signIn = kind === 'library' ? await librarySignIn(endpoint) : protocolSignIn(endpoint);
  let next = 0;
  process.on('message', async ({ count }: { count: number }) => {
    const report: ClientReport = { latencies: [], failures: 0 };
    for (let i = 0; i < count; i += 1) {
      const started = performance.now();
      if (await signIn(usernames[next++ % usernames.length])) report.latencies.push(performance.now() - started);
      else report.failures += 1;
    }
    process.send!(report);
  });
  process.send!('ready');
}

/** Child process: creates the users through the admin API, as the API server does (the AWS SDK stays out of here). */
async function createUsers(endpoint: string, usernames: string[]): Promise<void> {
  const { createIdentityService } = await import('../server/services/identity');
  const identity = createIdentityService({ region: 'eu-west-1', userPoolId: POOL_ID, clientId: CLIENT_ID, endpoint, credentials: ADMIN });
  for (const username of usernames) {
    await identity.createUser(username, '+34600000000');
    await identity.setPassword(username, PASSWORD, true);
  }
  identity.destroy();
  process.send!('done');
}

/** A child process of this script in the given mode; resolves once it has sent its first message. */
function child(args: string[]): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const forked = fork(process.argv[1], args);
    forked.once('message', () => resolve(forked));
    forked.once('error', reject);
    forked.once('exit', (code) => code !== 0 && code !== null && reject(new Error(`${args[0]} child exited with ${code}`)));
  });
}

/** Asks a client process for `count` sign-ins. */
function signIns(client: ChildProcess, count: number): Promise<ClientReport> {
  return new Promise((resolve) => {
    client.once('message', (report) => resolve(report as ClientReport));
    client.send({ count });
  });
}

/**
 * CPU ticks of this process's main thread and of all its threads (Linux /proc): the other threads are the
 * garbage collector's helpers, the JIT compiler and the libuv pool.
 */
function threadTicks(): { main: number; all: number } | undefined {
  if (!existsSync('/proc/self/task')) return undefined;
  let main = 0;
  let all = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
      all += utime + stime;
      if (Number(tid) === process.pid) main += utime + stime;
    } catch {
      // the thread ended meanwhile
    }
  }
  return { main, all };
}

/** CPU ms per sign-in of what it cannot avoid, measured alone. */
interface Floor {
  maths: number;
  signatures: number;
  total: number;
}

interface Measured {
  completed: number;
  failures: number;
  wall: number;
  latencies: number[];
  serverTimes: number[];
  cpuPerSignIn: number[];
  user: number;
  system: number;
  mainThreadShare?: number;
  gcPauses: { kind: number; duration: number }[];
  /** Each run's floor, measured right after it (when asked for). */
  floors: Floor[];
}

/**
 * `runs` runs of `perRun` sign-ins by the given clients after `warmUp` more, each run's server CPU per sign-in
 * apart, and each run's floor when `floor` is given.
 */
async function measure(
  clients: ChildProcess[],
  options: { runs: number; perRun: number; warmUp: number; floor?: () => Promise<Floor>; profileFile?: string },
  serverTimes: number[],
): Promise<Measured> {
  const { runs, perRun, floor, profileFile } = options;
  const runAll = (count: number) => Promise.all(clients.map((client) => signIns(client, Math.ceil(count / clients.length))));
  await runAll(options.warmUp); // JIT, first key load, SQLite pages
  serverTimes.length = 0;
  const inspector = profileFile ? new Session() : undefined;
  if (inspector) {
    inspector.connect();
    await inspector.post('Profiler.enable');
    await inspector.post('Profiler.start');
  }
  const gcPauses: Measured['gcPauses'] = [];
  const gcObserver = new PerformanceObserver((list) =>
    gcPauses.push(...list.getEntries().map((entry) => ({ kind: (entry as unknown as { detail: { kind: number } }).detail.kind, duration: entry.duration }))),
  );
  gcObserver.observe({ entryTypes: ['gc'] });
  const result: Measured = { completed: 0, failures: 0, wall: 0, latencies: [], serverTimes: [], cpuPerSignIn: [], user: 0, system: 0, gcPauses, floors: [] };
  const ticks = { main: 0, all: 0 };
  for (let run = 0; run < runs; run += 1) {
    const ticksBefore = threadTicks();
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    const reports = await runAll(perRun);
    result.wall += performance.now() - started;
    const cpu = process.cpuUsage(cpuBefore);
    const completed = reports.reduce((sum, report) => sum + report.latencies.length, 0);
    result.cpuPerSignIn.push((cpu.user + cpu.system) / 1000 / completed);
    result.user += cpu.user;
    result.system += cpu.system;
    result.completed += completed;
    result.failures += reports.reduce((sum, report) => sum + report.failures, 0);
    result.latencies.push(...reports.flatMap((report) => report.latencies));
    const ticksAfter = threadTicks();
    if (ticksBefore && ticksAfter) {
      ticks.main += ticksAfter.main - ticksBefore.main;
      ticks.all += ticksAfter.all - ticksBefore.all;
    }
    if (floor && !inspector) result.floors.push(await floor());
  }
  gcObserver.disconnect();
  if (inspector && profileFile) {
    const { profile } = await inspector.post('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    inspector.disconnect();
    for (let run = 0; floor && run < runs; run += 1) result.floors.push(await floor());
  }
  if (ticks.all > 0) result.mainThreadShare = ticks.main / ticks.all;
  result.latencies.sort((x, y) => x - y);
  result.serverTimes = [...serverTimes].sort((x, y) => x - y);
  return result;
}

function report(title: string, runs: number, perRun: number, measured: Measured): void {
  const { completed, failures, latencies, serverTimes, cpuPerSignIn, gcPauses } = measured;
  const sortedCpu = [...cpuPerSignIn].sort((x, y) => x - y);
  const gcTime = (kinds: number[]) => gcPauses.filter((pause) => kinds.includes(pause.kind)).reduce((sum, pause) => sum + pause.duration, 0);
  const count = (kind: number) => gcPauses.filter((pause) => pause.kind === kind).length;
  console.log(title);
  console.log(`  completed             ${completed} in ${runs} runs (${failures} failed)`);
  console.log(`  throughput            ${((completed / measured.wall) * 1000).toFixed(1)} sign-ins/s`);
  console.log(`  latency p50 / p99     ${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} ms (client-observed, whole sign-in)`);
  console.log(`  server time p50 / p99 ${percentile(serverTimes, 50).toFixed(2)} / ${percentile(serverTimes, 99).toFixed(2)} ms per request (2 per sign-in)`);
  console.log(
    `  server CPU            ${median(cpuPerSignIn).toFixed(2)} ms per sign-in, median of ${runs} runs of ${perRun} ` +
      `(runs ${sortedCpu[0].toFixed(2)}–${sortedCpu[sortedCpu.length - 1].toFixed(2)}; all runs: user ${(measured.user / 1000 / completed).toFixed(2)}, ` +
      `system ${(measured.system / 1000 / completed).toFixed(2)})`,
  );
  if (measured.mainThreadShare !== undefined) {
    // Clock ticks are 10 ms on Linux: a share of the total rather than a precise figure.
    console.log(`  main thread           ${(100 * measured.mainThreadShare).toFixed(0)}% of it (the rest: GC helpers, JIT compiler, libuv pool)`);
  }
  console.log(
    `  garbage collection    ${(gcTime([constants.NODE_PERFORMANCE_GC_MINOR]) / completed).toFixed(2)} ms per sign-in in ${count(constants.NODE_PERFORMANCE_GC_MINOR)} young-generation pauses, ` +
      `${(gcTime([constants.NODE_PERFORMANCE_GC_MAJOR, constants.NODE_PERFORMANCE_GC_INCREMENTAL]) / completed).toFixed(2)} ms in ${count(constants.NODE_PERFORMANCE_GC_MAJOR)} full ones (main thread)`,
  );
}

/** The textbook square-and-multiply the OpenSSL path replaces (reference only, never used by the server). */
function modPowBigInt(base: bigint, exponent: bigint): bigint {
  let result = 1n;
  let b = ((base % N) + N) % N;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % N;
    b = (b * b) % N;
  }
  return result;
}

/** CPU ms per call of `work`, after a warm-up. */
async function cpuPerCall(rounds: number, work: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(3, rounds); i += 1) await work(i);
  const before = process.cpuUsage();
  for (let i = 0; i < rounds; i += 1) await work(i);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / rounds;
}

const FLOOR_ROUNDS = 50;

/** The server's SRP maths of one sign-in: B at InitiateAuth, then S and K at RespondToAuthChallenge. */
function srpMathsOf(verifier: string): () => Buffer | undefined {
  const v = BigInt(`0x${verifier}`);
  const A = modPowN(g, BigInt(`0x${createHash('sha256').update('a').digest('hex')}`));
  return () => {
    const { b, B } = createServerEphemeral(v);
    return computeSessionKey({ A, B, b, verifier: v });
  };
}

/**
 * Measures the floor of a sign-in: the SRP maths, and two RS256 signatures with a key object made once (a
 * 2048-bit key, as the pool's) over the signing inputs of a real id token and access token.
 */
async function floorMeter(): Promise<() => Promise<Floor>> {
  const maths = srpMathsOf(createPasswordVerifier(POOL_NAME, 'user', PASSWORD).verifier);
  const issued = await (await benchTokenIssuer()).issue(TOKEN_SUBJECT, { authTime: 1, originJti: randomUUID() });
  const inputs = [issued.idToken, issued.accessToken].map((token) => Buffer.from(token.slice(0, token.lastIndexOf('.')), 'utf8'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return async () => {
    const mathsMs = await cpuPerCall(FLOOR_ROUNDS, maths);
    const signaturesMs = await cpuPerCall(FLOOR_ROUNDS, () => inputs.map((input) => signData('sha256', input, privateKey)));
    return { maths: mathsMs, signatures: signaturesMs, total: mathsMs + signaturesMs };
  };
}

/** The SRP maths through OpenSSL against the textbook BigInt modPow they replace. */
async function srpMaths(): Promise<{ openssl: number; bigint: number }> {
  const v = BigInt(`0x${createPasswordVerifier('Bench1', 'user', PASSWORD).verifier}`);
  const A = modPowN(g, BigInt(`0x${createHash('sha256').update('a').digest('hex')}`));
  const openssl = await cpuPerCall(200, srpMathsOf(v.toString(16)));
  const bigint = await cpuPerCall(10, (i) => {
    const b = BigInt(`0x${createHash('sha256').update(`b${i}`).digest('hex')}`);
    const B = (k * v + modPowBigInt(g, b)) % N;
    const u = BigInt(`0x${hexHash(padHex(A) + padHex(B))}`);
    return modPowBigInt((A * modPowBigInt(v, u)) % N, b);
  });
  return { openssl, bigint };
}

const TOKEN_SUBJECT = { sub: '00000000-0000-4000-8000-000000000000', username: 'B10000000', attributes: { phone_number: '+34600000000' } };

/** A token issuer as the pool's, its keys kept in memory. */
async function benchTokenIssuer() {
  const keys: SigningKeyRecord[] = [];
  const tokens = createTokenIssuer({
    issuer: 'http://127.0.0.1/cognito/local_Bench1',
    clientId: CLIENT_ID,
    lifetimes: { idTokenSeconds: 3600, accessTokenSeconds: 3600, refreshTokenSeconds: 86_400 },
    keyRotationSeconds: 86_400,
    keyPublishSeconds: 1800,
    keyEncryptionKey: deriveKey('bench-server-secret-000000000000000000000', 'signing-keys'),
    store: {
      listKeys: async () => keys,
      addKey: async (key) => keys.push(key) > 0,
      retireKeysExcept: async () => undefined,
      deleteKeysRetiredBefore: async () => undefined,
    },
    now: Date.now,
  });
  await tokens.maintainKeys();
  return tokens;
}

/** The pool's whole token issuing (claims, JSON, two signatures), for comparison with the bare signatures. */
async function tokenSigning(): Promise<number> {
  const tokens = await benchTokenIssuer();
  return cpuPerCall(200, () => tokens.issue(TOKEN_SUBJECT, { authTime: 1, originJti: 'o' }));
}

async function main(): Promise<void> {
  const runs = option('runs', 5);
  const signInsPerRun = option('sign-ins', 20);
  const backToBackPerRun = option('back-to-back', 100);
  // V8 optimises a function once it has run enough: the hot paths of a sign-in take about a thousand sign-ins.
  const backToBackWarmUp = option('warm-up', 1000);
  const clients = option('clients', 1);
  const profileAt = process.argv.indexOf('--profile');
  const profileFile = profileAt > 0 ? process.argv[profileAt + 1] : undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-srp-'));
  const database = createDatabase({ dataDir });
  await migrateToLatest(database.db);

  const app = Fastify({ logger: false });
  const serverTimes: number[] = [];
  app.addHook('onResponse', (_request, reply, done) => {
    serverTimes.push(reply.elapsedTime);
    done();
  });
  await app.register(embeddedCognito, {
    prefix: '/cognito',
    db: database.db,
    poolId: POOL_ID,
    clientId: CLIENT_ID,
    issuerBaseUrl: 'http://127.0.0.1/cognito',
    adminCredentials: ADMIN,
    serverSecret: 'bench-server-secret-000000000000000000000',
    identityPoolId: 'local:00000000-0000-4000-8000-000000000001',
  });
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  const endpoint = `${address}/cognito/`;
  const usernames = Array.from({ length: 10 }, (_, i) => `B${String(10_000_000 + i)}`);
  (await child(['--create-users', `${address}/cognito`, usernames.join(',')])).kill();

  // The clients start (and load their library) before anything is measured: a fork costs this process CPU too.
  const start = (kind: string) => Promise.all(Array.from({ length: clients }, () => child(['--client', kind, endpoint, usernames.join(',')])));
  const libraryClients = await start('library');
  const floor = await floorMeter();
  const library = await measure(libraryClients, { runs, perRun: signInsPerRun, warmUp: 10, floor }, serverTimes);
  for (const client of libraryClients) client.kill();
  const protocolClients = await start('protocol');
  const backToBack = await measure(protocolClients, { runs, perRun: backToBackPerRun, warmUp: backToBackWarmUp, floor, profileFile }, serverTimes);
  for (const client of protocolClients) client.kill();
  const maths = await srpMaths();
  const signing = await tokenSigning();

  const processes = `${clients} client process${clients > 1 ? 'es' : ''}, Node ${process.version}`;
  report(`SRP sign-ins with amazon-cognito-identity-js (${processes}; the client's pure-JS maths paces them)`, runs, signInsPerRun, library);
  report(`SRP sign-ins back to back, the client's maths through OpenSSL (${processes})`, runs, backToBackPerRun, backToBack);
  console.log(`Of which, measured alone:`);
  console.log(`  SRP maths             ${maths.openssl.toFixed(2)} ms with OpenSSL vs ${maths.bigint.toFixed(2)} ms with BigInt modPow (${(maths.bigint / maths.openssl).toFixed(1)}×)`);
  console.log(`  id + access tokens    ${signing.toFixed(2)} ms issued whole (claims, JSON, two RS256 signatures)`);
  const ratios = backToBack.cpuPerSignIn.map((cpu, run) => cpu / backToBack.floors[run].total);
  const ratio = median(ratios);
  const figure = median(backToBack.cpuPerSignIn);
  console.log(`Back to back against the floor (what a sign-in cannot avoid, measured alone after each run)`);
  console.log(`  figure                ${figure.toFixed(2)} ms server CPU per sign-in (median of ${runs} runs)`);
  console.log(
    `  floor                 ${median(backToBack.floors.map((f) => f.total)).toFixed(2)} ms = SRP maths ${median(backToBack.floors.map((f) => f.maths)).toFixed(2)} ` +
      `(B, S, K through OpenSSL) + two RS256 signatures ${median(backToBack.floors.map((f) => f.signatures)).toFixed(2)} (medians)`,
  );
  console.log(`  ratio                 ${ratio.toFixed(2)} (median of the runs' own: ${ratios.map((r) => r.toFixed(2)).join(', ')})`);
  console.log(`  target                ≤ ${TARGET_RATIO}: ${ratio <= TARGET_RATIO ? 'PASS' : 'FAIL'}`);
  const libraryRatios = library.cpuPerSignIn.map((cpu, run) => cpu / library.floors[run].total);
  console.log(
    `  with the browser library, for comparison: ${median(library.cpuPerSignIn).toFixed(2)} ms, ratio ${median(libraryRatios).toFixed(2)} ` +
      `(the server idles ~0.2 s between requests and meets cold caches; not the busy server the target is about)`,
  );

  await app.close();
  await database.destroy();
  rmSync(dataDir, { recursive: true, force: true });
  if (library.failures + backToBack.failures > 0) process.exitCode = 1;
}

const fail = (error: unknown) => {
  console.error(error);
  process.exit(1);
};
if (process.argv[2] === '--client') {
  runClient(process.argv[3], process.argv[4], process.argv[5].split(',')).catch(fail);
} else if (process.argv[2] === '--create-users') {
  createUsers(process.argv[3], process.argv[4].split(',')).catch(fail);
} else {
  main().catch(fail);
}
