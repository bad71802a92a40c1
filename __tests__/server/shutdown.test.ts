// server/server.ts on SIGTERM, as ECS stops a task during a deploy: requests already in flight (an upload whose
// body is still arriving, a download the client reads slowly) finish with their normal answers, new connections
// are refused, idle kept-alive connections are closed, and the process exits 0 on its own before its bound.
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { loadConfig } from '../../server/config';
import { createDatabase } from '../../server/db';
import type { StorageTables } from '../../server/embedded/s3/tables';
import { embeddedStorageCredentials } from '../../server/plugins/storage';
import { freePort } from './helpers';
import { startServerProcess, type ServerProcess } from './processes';

jest.setTimeout(120_000);

const MIB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let dataDir: string;
let server: ServerProcess | undefined;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-shutdown-'));
});
afterEach(() => {
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  server = undefined;
  rmSync(dataDir, { recursive: true, force: true });
});

/** A server process on its own port and data folder, with what a test needs to sign storage requests. */
async function start(env: Record<string, string> = {}) {
  const port = await freePort();
  const secret = randomBytes(32);
  const processEnv = { PORT: String(port), DATA_DIR: dataDir, SERVER_SECRET: secret.toString('base64'), LOG_LEVEL: 'info', ...env };
  const config = loadConfig(processEnv);
  server = await startServerProcess(processEnv);
  const credentials = embeddedStorageCredentials(secret);
  const { bucket, region } = config.storage;
  const signer = new SignatureV4({ credentials, region, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  const host = `127.0.0.1:${port}`;
  /** A signed request to the storage endpoint, its body (of `bytes`, hashed as signed) written by the caller. */
  const storageRequest = async (method: 'GET' | 'PUT', key: string, body?: Buffer, agent?: Agent): Promise<ClientRequest> => {
    const signed = await signer.sign({
      method,
      protocol: 'http:',
      hostname: '127.0.0.1',
      port,
      path: `/s3/${bucket}/${key}`,
      headers: { host, 'x-amz-content-sha256': body ? sha256(body) : 'UNSIGNED-PAYLOAD', ...(body ? { 'content-length': String(body.length) } : {}) },
    });
    return httpRequest({ host: '127.0.0.1', port, method, path: signed.path, headers: signed.headers, agent });
  };
  const s3 = new S3Client({ region, endpoint: `http://${host}/s3`, forcePathStyle: true, credentials, maxAttempts: 1 });
  return { port, server: server, storageRequest, s3, bucket };
}

const answer = (request: ClientRequest) =>
  new Promise<IncomingMessage>((resolve, reject) => {
    request.once('response', resolve);
    request.once('error', reject);
  });

const bodyOf = async (response: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Connects until the port refuses (the listener closed); any connection that got through is closed again. */
async function refusedConnection(port: number, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const outcome = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    // A connection the kernel took into the listener's backlog just before it closed is reset, not served: try again.
    if (outcome !== 'connected' && outcome !== 'ECONNRESET') return outcome;
    if (Date.now() > deadline) throw new Error('the server still accepts connections');
    await new Promise((resolve) => setImmediate(resolve));
  }
}

const logged = (process: ServerProcess, event: string) => process.logEntry((entry) => entry.event === event || (event === 'shutdown.started' && entry.msg === 'shutting down'));

describe('server/server.ts on SIGTERM', () => {
  it('finishes the requests in flight with their answers, refuses new connections, closes idle ones and exits 0', async () => {
    const { port, server, storageRequest, s3, bucket } = await start();

    // An object to download, larger than what the sockets' buffers hold, so its answer is still being sent.
    const stored = randomBytes(48 * MIB);
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: 'public/large.bin', Body: stored }));
    s3.destroy();

    // A kept-alive connection, idle at SIGTERM.
    const idleAgent = new Agent({ keepAlive: true });
    const health = await answer(httpRequest({ host: '127.0.0.1', port, path: '/health', agent: idleAgent }).end());
    expect(health.statusCode).toBe(200);
    await bodyOf(health);
    const [idleSocket] = Object.values(idleAgent.freeSockets).flat();
    expect(idleSocket).toBeDefined();
    const idleClosed = new Promise<void>((resolve) => idleSocket!.once('close', () => resolve()));

    // A health check in flight: its request line sent, its headers not yet complete.
    const check = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => check.once('connect', () => resolve()));
    check.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
    const checkAnswer = new Promise<string>((resolve) => {
      let text = '';
      check.on('data', (chunk: Buffer) => (text += chunk.toString()));
      check.once('close', () => resolve(text));
    });

    // A download in flight: its first bytes read, the rest waiting for the client.
    const downloadAgent = new Agent({ keepAlive: true });
    const download = await answer((await storageRequest('GET', 'public/large.bin', undefined, downloadAgent)).end());
    expect(download.statusCode).toBe(200);
    const downloaded: Buffer[] = [];
    await new Promise<void>((resolve) => download.once('data', (chunk: Buffer) => (downloaded.push(chunk), resolve())));
    download.pause();

    // An upload in flight: its headers and the first half of its body sent, the server working on it.
    const uploadAgent = new Agent({ keepAlive: true });
    const uploaded = randomBytes(2 * MIB);
    const upload = await storageRequest('PUT', 'public/arriving.bin', uploaded, uploadAgent);
    const uploadAnswer = answer(upload);
    const uploadStarted = server.logEntry((entry) => entry.msg === 'incoming request' && (entry.req as { url: string }).url.includes('arriving.bin'));
    upload.write(uploaded.subarray(0, MIB));
    await uploadStarted;

    const shuttingDown = logged(server, 'shutdown.started');
    server.child.kill('SIGTERM');
    await shuttingDown;

    // No new connection while those two are still in flight; the idle one is closed, so its client goes elsewhere.
    expect(await refusedConnection(port)).toBe('ECONNREFUSED');
    await idleClosed;
    expect(server.child.exitCode).toBeNull();

    // Readiness fails: what still reaches /health is told the process is going away.
    check.end('\r\n');
    const checked = await checkAnswer;
    expect(checked).toMatch(/^HTTP\/1\.1 503 /);
    expect(checked).toMatch(/\r\nconnection: close\r\n/i);
    expect(checked).toContain('"code":"SHUTTING_DOWN"');

    upload.end(uploaded.subarray(MIB));
    const uploadResponse = await uploadAnswer;
    expect(uploadResponse.statusCode).toBe(200);
    expect(uploadResponse.headers.etag).toBe(`"${createHash('md5').update(uploaded).digest('hex')}"`);
    // Its client opens its next connection elsewhere.
    expect(uploadResponse.headers.connection).toBe('close');
    await bodyOf(uploadResponse);

    download.resume();
    downloaded.push(await bodyOf(download));
    expect(sha256(Buffer.concat(downloaded))).toBe(sha256(stored));

    // Exit code 0: the bound was not reached (it exits 1) and nothing it had open kept it running.
    expect(await server.exited).toBe(0);
    expect(server.output.stderr).toBe('');
    const entries = server.output.stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.filter((entry) => Number(entry.level) >= 50)).toEqual([]);
    expect(entries.some((entry) => entry.event === 'shutdown.done')).toBe(true);

    // The upload that finished during the shutdown is stored whole.
    const database = createDatabase({ dataDir });
    try {
      const row = await database.db.withTables<StorageTables>().selectFrom('storage_objects').select(['size', 'etag']).where('object_key', '=', 'public/arriving.bin').executeTakeFirst();
      expect(row).toEqual({ size: uploaded.length, etag: uploadResponse.headers.etag });
    } finally {
      await database.destroy();
    }
    for (const agent of [idleAgent, downloadAgent, uploadAgent]) agent.destroy();
  });

  /** An upload that never ends: its first kilobyte sent, the server working on it. */
  async function uploadThatNeverEnds({ server, storageRequest }: Awaited<ReturnType<typeof start>>) {
    const upload = await storageRequest('PUT', 'public/never.bin', randomBytes(MIB));
    upload.on('error', () => undefined);
    const started = server.logEntry((entry) => entry.msg === 'incoming request' && (entry.req as { url: string }).url.includes('never.bin'));
    upload.write(Buffer.alloc(1024));
    await started;
    const shuttingDown = logged(server, 'shutdown.started');
    server.child.kill('SIGTERM');
    await shuttingDown;
  }

  it('stops at once on a second signal', async () => {
    const started = await start();
    await uploadThatNeverEnds(started);
    const forced = logged(started.server, 'shutdown.forced');
    expect(await started.server.stop()).toBe(1);
    await forced;
  });

  it('stops at its bound when a request never ends, saying what was still open', async () => {
    const started = await start({ SHUTDOWN_GRACE_SECONDS: '1' });
    const timedOut = logged(started.server, 'shutdown.timeout');
    await uploadThatNeverEnds(started);
    expect(await timedOut).toMatchObject({ connections: expect.any(Number), open: expect.arrayContaining(['TCPSocketWrap']) });
    expect(await started.server.exited).toBe(1);
  });
});
