// The API server as replicas: two server processes on one PostgreSQL database and one Redis, behind load
// balancers that send each request to the other process. Every flow must work when its consecutive requests
// reach different processes, and a client's requests count towards one rate limit whichever process they reach.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { createDatabase, type DatabaseHandle } from '../../server/db';
import type { IdentityTables } from '../../server/embedded/cognito/tables';
import { embeddedIdentityCredentials, ONBOARDING_STATUS_ATTRIBUTE } from '../../server/plugins/identity';
import { applicationRepository } from '../../server/repositories/applicationRepository';
import { createIdentityService } from '../../server/services/identity';
import { onboardingTokens } from '../../server/services/onboardingTokens';
import { deriveKey } from '../../server/services/serverSecret';
import { applicantCredentials, uploadDocument } from '../../src/documentStorage/uploadDocument';
import { sealForServer } from '../../src/features/recovery/sealForServer';
import { freePort, postgresUrlInSchema } from './helpers';
import { passCaptcha, signIn, verificationSignature } from './login/loginServer';
import { loadBalancer, redisAnswers, startServerProcess, type LoadBalancer, type ServerProcess } from './processes';
import { plainPdf } from './pdfs';

const postgresUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

function skipReason(): string | undefined {
  if (!postgresUrl) return 'DATABASE_URL is not set: the replicas test (two server processes on one PostgreSQL database) is skipped.';
  if (!redisAnswers(redisUrl)) return `No Redis answers at ${new URL(redisUrl).host} (REDIS_URL): the replicas test is skipped.`;
  return undefined;
}
const skipped = skipReason();
if (skipped) process.stderr.write(`${skipped}\n`);

jest.setTimeout(120_000);

const USER = { username: '11111111H', phone: '+34600000777', password: 'Replica-Pass-2026', name: 'Réplica Uno' };
const SENSITIVE_MAX = 6;
const pdf = plainPdf({ size: 2048 });

(skipped ? describe.skip : describe)('two server processes on one database', () => {
  const schema = `replicas_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 10)}`;
  const secret = randomBytes(32);
  const keyPrefix = `divilo-test-${randomUUID().slice(0, 8)}:`;
  let dataDir: string;
  let processes: ServerProcess[] = [];
  /** Where the servers reach each other's public addresses (PUBLIC_URL): their own calls to the identity and storage endpoints. */
  let internal: LoadBalancer;
  /** Where the test's own requests enter, each to the other process. */
  let entrance: LoadBalancer;
  let base: string;
  let database: DatabaseHandle;
  let redis: Redis;

  const onPostgres = async (query: string) => {
    const client = new Client({ connectionString: postgresUrl });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  };

  beforeAll(async () => {
    await onPostgres(`CREATE SCHEMA "${schema}"`);
    // The embedded storage keeps the bytes of objects in DATA_DIR: replicas using it share the folder (a volume).
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-replicas-'));
    const ports = [await freePort(), await freePort()];
    internal = await loadBalancer(ports);
    entrance = await loadBalancer(ports);
    base = `http://127.0.0.1:${entrance.port}`;
    const env = {
      PUBLIC_URL: `http://127.0.0.1:${internal.port}`,
      DATA_DIR: dataDir,
      // The schema goes in the URL as libpq's `options`; every replica the same.
      DATABASE_URL: postgresUrlInSchema(postgresUrl!, schema),
      SERVER_SECRET: secret.toString('base64'),
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      TRUST_PROXY: 'true',
      RATE_LIMIT_SENSITIVE_MAX: String(SENSITIVE_MAX),
      LOG_LEVEL: 'info',
    };
    // Started together on an empty schema: both migrate and make the identity pool's signing key at once.
    processes = await Promise.all(ports.map((port) => startServerProcess({ ...env, PORT: String(port) })));
    database = createDatabase({ dataDir, databaseUrl: postgresUrl, postgresSchema: schema });
    redis = new Redis(redisUrl, { lazyConnect: true });
    await redis.connect();

    const identity = createIdentityService({
      region: 'eu-west-1',
      userPoolId: 'local_Divilo1',
      clientId: 'diviloweb',
      endpoint: `${base}/cognito`,
      credentials: embeddedIdentityCredentials(secret),
    });
    await identity.createUser(USER.username, USER.phone, { [ONBOARDING_STATUS_ATTRIBUTE]: 'complete', name: USER.name });
    await identity.setPassword(USER.username, USER.password, true);
  });

  afterAll(async () => {
    const codes = await Promise.all(processes.map((server) => server.stop()));
    await internal?.close();
    await entrance?.close();
    await database?.destroy();
    if (redis) {
      const keys = await redis.keys(`${keyPrefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    }
    await onPostgres(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    expect(codes).toEqual(processes.map(() => 0));
    expect(processes.map((server) => server.output.stderr)).toEqual(processes.map(() => ''));
  });

  /** The requests of the test since `from`, with the process each reached. */
  const since = (from: number) => entrance.served.slice(from);
  const json = { 'content-type': 'application/json' };

  async function lastCode(phone: string): Promise<string> {
    const row = await database.db.selectFrom('outbox').select('text').where('recipient', '=', phone).orderBy('id', 'desc').executeTakeFirstOrThrow();
    return /\b(\d{6})\b/.exec(row.text)![1];
  }

  it('started both processes on one signing key of the identity pool, made once', async () => {
    const keys = await database.db.withTables<IdentityTables>().selectFrom('cognito_signing_keys').select('kid').execute();
    expect(keys).toHaveLength(1);
    const published = await Promise.all(
      [0, 1].map(async () => (await (await fetch(`${base}/cognito/local_Divilo1/.well-known/jwks.json`)).json()) as { keys: { kid: string }[] }),
    );
    expect(published.map((jwks) => jwks.keys.map((key) => key.kid))).toEqual([[keys[0].kid], [keys[0].kid]]);
  });

  it('logs in: SRP, the captcha, create-session and the SMS code, each request on the other process', async () => {
    const from = entrance.served.length;
    const idToken = await signIn(base, USER.username, USER.password);
    const sessionId = randomUUID();
    await passCaptcha(`${base}/api`, sessionId);
    const started = await fetch(`${base}/api/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId },
    });
    expect(started.status).toBe(200);
    const { token } = (await started.json()) as { token: string };
    const confirmed = await fetch(`${base}/api/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, await lastCode(USER.phone)) },
    });
    expect(confirmed.status).toBe(201);
    const cookie = (confirmed.headers.get('set-cookie') ?? '').split(';')[0];
    for (let i = 0; i < 2; i += 1) {
      expect((await fetch(`${base}/api/user-authorization-management/get-session`, { headers: { cookie } })).status).toBe(200);
    }

    const steps = since(from);
    const processOf = (target: string) => steps.find((step) => step.url.includes(target))?.process;
    // InitiateAuth and RespondToAuthChallenge are the first two calls of the SRP sign-in.
    expect(steps[0].process).not.toBe(steps[1].process);
    expect(processOf('/captcha/challenge')).not.toBe(processOf('/captcha/verify'));
    const sessionCalls = steps.filter((step) => step.url.endsWith('/create-session')).map((step) => step.process);
    expect(sessionCalls).toHaveLength(2);
    expect(sessionCalls[0]).not.toBe(sessionCalls[1]);
    expect(steps.filter((step) => step.url.endsWith('/get-session')).map((step) => step.process).sort()).toEqual([0, 1]);
  });

  it('recovers a password: the code asked on one process, the key from the next, the sealed password opened by the other', async () => {
    const from = entrance.served.length;
    const sessionId = randomUUID();
    await passCaptcha(`${base}/api`, sessionId);
    // The code is sent after the answer, by whichever process took the request: its log says when.
    const sent = Promise.race(processes.map((server) => server.logEntry((entry) => entry.msg === 'message stored in the outbox' && entry.purpose === 'recovery-code')));
    const asked = await fetch(`${base}/api/credentials-management/password`, { method: 'POST', headers: json, body: JSON.stringify({ userId: USER.username, sessionId }) });
    expect(asked.status).toBe(200);
    await sent;
    const code = await lastCode(USER.phone);

    const key = (await (await fetch(`${base}/api/credentials-management/getKey`)).json()) as { keyId: string; publicKey: string };
    const newPassword = 'Replica-Next-2027';
    const reset = await fetch(`${base}/api/credentials-management/password`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify({ data: await sealForServer({ userId: USER.username, code, newPassword }, key) }),
    });
    expect(await reset.json()).toEqual({ response: 'OK' });
    expect(await database.db.selectFrom('sealing_keys').select('key_id').execute()).toEqual([{ key_id: key.keyId }]);

    const steps = since(from);
    const processOf = (method: string, target: string) => steps.find((step) => step.method === method && step.url.endsWith(target))?.process;
    expect(processOf('GET', '/getKey')).not.toBe(processOf('PUT', '/credentials-management/password'));
    expect(processOf('POST', '/credentials-management/password')).not.toBe(processOf('GET', '/getKey'));

    await expect(signIn(base, USER.username, USER.password)).rejects.toMatchObject({ code: 'NotAuthorizedException' });
    await expect(signIn(base, USER.username, newPassword)).resolves.toMatch(/^ey/);
    USER.password = newPassword;
  });

  it('uploads a document and has it checked and listed, each step on the other process', async () => {
    const from = entrance.served.length;
    // The onboarding token every process issues and reads: its key derives from the shared SERVER_SECRET.
    const bearer = await onboardingTokens({ key: deriveKey(secret, 'onboarding-tokens'), lifetimeSeconds: 1800, issuer: `http://127.0.0.1:${internal.port}`, clock: () => new Date() }).issue(
      (await applicationRepository(database.db).create({ email: 'replicas@example.com', idDocument: 'replicas', answers: {}, completedSteps: [], language: 'es' }, new Date())).id,
    );
    const api = (route: string, body?: unknown) =>
      fetch(`${base}/api/onboarding-management-private/${route}`, {
        method: body === undefined && route === 'documents' ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${bearer}`, ...(body === undefined ? {} : json) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const identity = (await (await api('storage-identity')).json()) as { identityId: string; token: string };
    const stored = await uploadDocument(new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), {
      key: 'model036/replica.pdf',
      level: 'private',
      identityId: identity.identityId,
      credentials: applicantCredentials(identity, { region: 'eu-west-1', endpoint: `${base}/cognito` }),
      config: { region: 'eu-west-1', bucket: 'divilo-documents', endpoint: `${base}/s3` },
    });
    const checked = await api('documents', { kind: 'model036', key: stored.key });
    expect(checked.status).toBe(200);
    expect(await checked.json()).toMatchObject({ kind: 'model036', key: stored.key, size: pdf.length });
    const listed = (await (await api('documents')).json()) as { documents: { key: string }[] };
    expect(listed.documents.map((document) => document.key)).toEqual([stored.key]);

    const steps = since(from);
    const processOf = (match: (step: (typeof steps)[number]) => boolean) => steps.find(match)?.process;
    const upload = processOf((step) => step.method === 'PUT' && step.url.includes('/s3/'));
    const check = processOf((step) => step.method === 'POST' && step.url.endsWith('/documents'));
    const list = processOf((step) => step.method === 'GET' && step.url.endsWith('/documents'));
    expect([upload, check, list].every((process) => process !== undefined)).toBe(true);
    expect(check).not.toBe(list);
    expect(new Set(steps.map((step) => step.process))).toEqual(new Set([0, 1]));
  });

  it("counts a client's requests towards one rate limit whichever process they reach", async () => {
    const client = { 'x-forwarded-for': '203.0.113.9', ...json };
    const ask = () => fetch(`${base}/api/credentials-management/password`, { method: 'POST', headers: client, body: JSON.stringify({ userId: USER.username, sessionId: randomUUID() }) });
    const from = entrance.served.length;
    const answers: { status: number; remaining: string | null }[] = [];
    for (let i = 0; i < SENSITIVE_MAX + 2; i += 1) {
      const answer = await ask();
      answers.push({ status: answer.status, remaining: answer.headers.get('x-ratelimit-remaining') });
    }
    // Counted apart, each process would have let through SENSITIVE_MAX of them: all these would be 403s.
    expect(answers).toEqual([
      ...Array.from({ length: SENSITIVE_MAX }, (_, i) => ({ status: 403, remaining: String(SENSITIVE_MAX - 1 - i) })),
      { status: 429, remaining: '0' },
      { status: 429, remaining: '0' },
    ]);
    expect(since(from).map((step) => step.process)).toEqual(Array.from({ length: SENSITIVE_MAX + 2 }, (_, i) => (since(from)[0].process + i) % 2));
    // Another client is not affected; the counters are in Redis, under the configured prefix.
    const other = await fetch(`${base}/api/credentials-management/password`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.10', ...json },
      body: JSON.stringify({ userId: USER.username, sessionId: randomUUID() }),
    });
    expect(other.status).toBe(403);
    expect((await redis.keys(`${keyPrefix}rate-limit:*203.0.113.9`)).length).toBe(1);
  });
});
