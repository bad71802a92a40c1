// Measures SRP sign-ins against the embedded pool: `npx tsx scripts/bench-srp.ts [--sign-ins 60] [--clients 1]`.
// The server runs here, on the product's database setup (SQLite, WAL); the unmodified amazon-cognito-identity-js
// runs in child processes, so process.cpuUsage() here is the server's own CPU. Also times the server's SRP maths
// (OpenSSL) against the same maths with a plain BigInt modPow, and the token signing.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { AuthenticationDetails, CognitoUser, CognitoUserPool } from 'amazon-cognito-identity-js';
import { createDatabase, migrateToLatest } from '../server/db';
import { embeddedCognito } from '../server/embedded/cognito';
import { deriveKey } from '../server/embedded/cognito/sealing';
import { N, computeSessionKey, createPasswordVerifier, createServerEphemeral, g, hexHash, k, modPowN, padHex } from '../server/embedded/cognito/srp';
import { createTokenIssuer, type SigningKeyRecord } from '../server/embedded/cognito/tokens';
import { createIdentityService } from '../server/services/identity';

const POOL_ID = 'local_Bench1';
const CLIENT_ID = 'benchclient0000000000000000';
const PASSWORD = 'Bench-Pass-123';
const ADMIN = { accessKeyId: 'AKIABENCHADMIN000001', secretAccessKey: 'bench-admin-secret-0000000000000000000000' };

interface ClientReport {
  latencies: number[];
  failures: number;
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** Child process: signs in `count` times in a row with the real browser library and reports latencies. */
async function runClient(endpoint: string, usernames: string[], count: number): Promise<void> {
  const report: ClientReport = { latencies: [], failures: 0 };
  for (let i = 0; i < count; i += 1) {
    const username = usernames[i % usernames.length];
    const pool = new CognitoUserPool({ UserPoolId: POOL_ID, ClientId: CLIENT_ID, endpoint });
    const user = new CognitoUser({ Username: username, Pool: pool });
    const started = performance.now();
    const ok = await new Promise<boolean>((resolve) => {
      user.authenticateUser(new AuthenticationDetails({ Username: username, Password: PASSWORD }), {
        onSuccess: () => resolve(true),
        onFailure: () => resolve(false),
      });
    });
    if (ok) report.latencies.push(performance.now() - started);
    else report.failures += 1;
  }
  process.send!(report);
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

/** The server's SRP maths of one sign-in: B at InitiateAuth, then S and K at RespondToAuthChallenge. */
async function srpMaths(): Promise<{ openssl: number; bigint: number }> {
  const v = BigInt(`0x${createPasswordVerifier('Bench1', 'user', PASSWORD).verifier}`);
  const A = modPowN(g, BigInt(`0x${createHash('sha256').update('a').digest('hex')}`));
  const openssl = await cpuPerCall(200, () => {
    const { b, B } = createServerEphemeral(v);
    return computeSessionKey({ A, B, b, verifier: v });
  });
  const bigint = await cpuPerCall(10, (i) => {
    const b = BigInt(`0x${createHash('sha256').update(`b${i}`).digest('hex')}`);
    const B = (k * v + modPowBigInt(g, b)) % N;
    const u = BigInt(`0x${hexHash(padHex(A) + padHex(B))}`);
    return modPowBigInt((A * modPowBigInt(v, u)) % N, b);
  });
  return { openssl, bigint };
}

async function tokenSigning(): Promise<number> {
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
  const subject = { sub: '00000000-0000-4000-8000-000000000000', username: 'B10000000', attributes: { phone_number: '+34600000000' } };
  return cpuPerCall(200, () => tokens.issue(subject, { authTime: 1, originJti: 'o' }));
}

async function main(): Promise<void> {
  const signIns = option('sign-ins', 60);
  const clients = option('clients', 1);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-srp-'));
  const database = createDatabase({ dataDir });
  await migrateToLatest(database.db);

  const app = Fastify({ logger: false });
  const serverTimes: number[] = [];
  app.addHook('onResponse', async (_request, reply) => {
    serverTimes.push(reply.elapsedTime);
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
  const identity = createIdentityService({ region: 'eu-west-1', userPoolId: POOL_ID, clientId: CLIENT_ID, endpoint: `${address}/cognito`, credentials: ADMIN });
  const usernames = Array.from({ length: 10 }, (_, i) => `B${String(10_000_000 + i)}`);
  for (const username of usernames) {
    await identity.createUser(username, '+34600000000');
    await identity.setPassword(username, PASSWORD, true);
  }
  identity.destroy();

  const runChildren = (count: number) =>
    Promise.all(
      Array.from(
        { length: clients },
        () =>
          new Promise<ClientReport>((resolve, reject) => {
            const child = fork(process.argv[1], ['--client', endpoint, usernames.join(','), String(Math.ceil(count / clients))]);
            child.once('message', (report) => resolve(report as ClientReport));
            child.once('error', reject);
            child.once('exit', (code) => code !== 0 && reject(new Error(`client exited with ${code}`)));
          }),
      ),
    );

  await runChildren(clients * 3); // warm-up: JIT, first key load, SQLite pages
  serverTimes.length = 0;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const reports = await runChildren(signIns);
  const wall = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);

  const latencies = reports.flatMap((report) => report.latencies).sort((a, b) => a - b);
  const failures = reports.reduce((sum, report) => sum + report.failures, 0);
  const completed = latencies.length;
  const serverSorted = [...serverTimes].sort((a, b) => a - b);
  const maths = await srpMaths();
  const signing = await tokenSigning();

  console.log(`SRP sign-ins with amazon-cognito-identity-js (${clients} client process${clients > 1 ? 'es' : ''}, Node ${process.version})`);
  console.log(`  completed             ${completed} (${failures} failed)`);
  console.log(`  throughput            ${((completed / wall) * 1000).toFixed(1)} sign-ins/s (bounded by the client's pure-JS maths)`);
  console.log(`  latency p50 / p99     ${percentile(latencies, 50).toFixed(1)} / ${percentile(latencies, 99).toFixed(1)} ms (client-observed, whole sign-in)`);
  console.log(`  server time p50 / p99 ${percentile(serverSorted, 50).toFixed(2)} / ${percentile(serverSorted, 99).toFixed(2)} ms per request (2 per sign-in)`);
  console.log(
    `  server CPU            ${((cpu.user + cpu.system) / 1000 / completed).toFixed(2)} ms per sign-in ` +
      `(user ${(cpu.user / 1000 / completed).toFixed(2)}, system ${(cpu.system / 1000 / completed).toFixed(2)}); target ≤ 5`,
  );
  console.log(`  of which, measured alone:`);
  console.log(`    SRP maths           ${maths.openssl.toFixed(2)} ms with OpenSSL vs ${maths.bigint.toFixed(2)} ms with BigInt modPow (${(maths.bigint / maths.openssl).toFixed(1)}×)`);
  console.log(`    id + access tokens  ${signing.toFixed(2)} ms (two RS256 signatures)`);

  await app.close();
  await database.destroy();
  rmSync(dataDir, { recursive: true, force: true });
  if (failures > 0) process.exitCode = 1;
}

if (process.argv[2] === '--client') {
  runClient(process.argv[3], process.argv[4].split(','), Number(process.argv[5])).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
