// Measures uploads to the embedded storage endpoint: `npx tsx scripts/bench-storage.ts [--mib 64] [--runs 3]`.
// The endpoint runs in a child process (the product's setup: SQLite, WAL) so its memory is measured alone; the
// unmodified lib-storage uploads from here over loopback with the product's constants (5 MiB parts, 4 in
// parallel). Printed beside the raw speed of writing the same bytes to the same disk (write + fsync), and the
// server's peak memory above its idle level. Measured, not asserted: targets are a ratio of 0.5 or better and
// memory bounded by a few parts, not by the file size.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import Fastify from 'fastify';
import { createDatabase, migrateToLatest } from '../server/db';
import { embeddedS3 } from '../server/embedded/s3';

const REGION = 'eu-west-1';
const BUCKET = 'divilo-documents';
const SERVER = { accessKeyId: 'AKIABENCHSTORAGE0001', secretAccessKey: 'bench-storage-secret-000000000000000000' };
const MIB = 1024 * 1024;

interface MemoryReport {
  idle: NodeJS.MemoryUsage;
  peak: { rss: number; heapUsed: number; external: number; arrayBuffers: number };
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** The child: the endpoint alone, sampling its own memory every 10 ms. */
async function serve(dataDir: string): Promise<void> {
  const database = createDatabase({ dataDir });
  await migrateToLatest(database.db);
  const app = Fastify({ logger: false });
  await app.register(embeddedS3, { prefix: '/s3', db: database.db, buckets: [BUCKET], dataDir, region: REGION, serverCredentials: SERVER });
  await app.listen({ port: 0, host: '127.0.0.1' });
  global.gc?.();
  let idle = process.memoryUsage();
  const peak = { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  const reset = () => {
    global.gc?.();
    idle = process.memoryUsage();
    Object.assign(peak, { rss: idle.rss, heapUsed: idle.heapUsed, external: idle.external, arrayBuffers: idle.arrayBuffers });
  };
  reset();
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.external = Math.max(peak.external, now.external);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
  }, 10);
  process.on('message', async (message: string) => {
    if (message === 'reset') {
      reset();
      process.send!('ready');
    } else if (message === 'report') {
      process.send!({ idle, peak } satisfies MemoryReport);
    } else if (message === 'stop') {
      clearInterval(sampler);
      await app.close();
      await database.destroy();
      process.exit(0);
    }
  });
  // The ceiling: a server that discards bodies and answers as S3 would, to show what the SDK and loopback allow.
  let uploads = 0;
  const discard = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const xml = (body: string) => response.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
      if (request.method === 'POST' && request.url!.includes('uploads')) xml(`<InitiateMultipartUploadResult><UploadId>u${(uploads += 1)}</UploadId></InitiateMultipartUploadResult>`);
      else if (request.method === 'POST') xml('<CompleteMultipartUploadResult><ETag>&quot;0-1&quot;</ETag></CompleteMultipartUploadResult>');
      else response.writeHead(200, { etag: '"00000000000000000000000000000000"' }).end();
    });
  });
  await new Promise<void>((resolve) => discard.listen(0, '127.0.0.1', resolve));
  process.send!({ port: (app.server.address() as { port: number }).port, discardPort: (discard.address() as { port: number }).port });
}

function ask<T>(child: ChildProcess, message: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as T));
    child.send(message);
  });
}

async function rawDiskWrite(dir: string, bytes: Buffer): Promise<number> {
  const file = join(dir, `raw-${randomBytes(4).toString('hex')}`);
  const started = performance.now();
  const handle = await open(file, 'wx');
  // The same 1 MiB writes the endpoint makes, then one fsync.
  for (let at = 0; at < bytes.length; at += MIB) await handle.write(bytes, at, Math.min(MIB, bytes.length - at));
  await handle.sync();
  await handle.close();
  const seconds = (performance.now() - started) / 1000;
  await rm(file);
  return seconds;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const mb = (bytes: number) => (bytes / MIB).toFixed(1);

async function main(): Promise<void> {
  const size = option('mib', 64) * MIB;
  const runs = option('runs', 3);
  const dataDir = mkdtempSync(join(tmpdir(), 'divilo-bench-storage-'));
  const child = fork(__filename, ['--serve', dataDir], { execArgv: ['--import', 'tsx', '--expose-gc'] });
  try {
    const { port, discardPort } = await new Promise<{ port: number; discardPort: number }>((resolve) =>
      child.once('message', (message) => resolve(message as { port: number; discardPort: number })),
    );
    const clientFor = (endpointPort: number) =>
      new S3Client({
        region: REGION,
        endpoint: `http://127.0.0.1:${endpointPort}/s3`,
        forcePathStyle: true,
        credentials: SERVER,
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      });
    const client = clientFor(port);
    const discarding = clientFor(discardPort);
    const bytes = randomBytes(size);

    const rawSeconds: number[] = [];
    const uploadSeconds: number[] = [];
    const ceilingSeconds: number[] = [];
    const memory: MemoryReport[] = [];
    // One warm-up upload (connections, JIT), not counted.
    await new Upload({ client, params: { Bucket: BUCKET, Key: 'public/warm-up', Body: bytes }, partSize: 5 * MIB, queueSize: 4 }).done();
    for (let run = 0; run < runs; run += 1) {
      rawSeconds.push(await rawDiskWrite(dataDir, bytes));
      await ask(child, 'reset');
      const started = performance.now();
      await new Upload({ client, params: { Bucket: BUCKET, Key: `public/bench-${run}`, Body: bytes }, partSize: 5 * MIB, queueSize: 4 }).done();
      uploadSeconds.push((performance.now() - started) / 1000);
      memory.push(await ask<MemoryReport>(child, 'report'));
      const ceilingStarted = performance.now();
      await new Upload({ client: discarding, params: { Bucket: BUCKET, Key: 'public/discarded', Body: bytes }, partSize: 5 * MIB, queueSize: 4 }).done();
      ceilingSeconds.push((performance.now() - ceilingStarted) / 1000);
    }
    client.destroy();
    discarding.destroy();

    const raw = size / MIB / median(rawSeconds);
    const upload = size / MIB / median(uploadSeconds);
    const ceiling = size / MIB / median(ceilingSeconds);
    const rssDelta = Math.max(...memory.map((m) => m.peak.rss - m.idle.rss));
    const heapDelta = Math.max(...memory.map((m) => m.peak.heapUsed - m.idle.heapUsed));
    const buffersDelta = Math.max(...memory.map((m) => m.peak.arrayBuffers - m.idle.arrayBuffers));
    console.log(`Upload of ${mb(size)} MiB through lib-storage (5 MiB parts, 4 in parallel), median of ${runs} runs`);
    console.log(`  embedded endpoint      ${upload.toFixed(0).padStart(6)} MB/s   (runs: ${uploadSeconds.map((s) => (size / MIB / s).toFixed(0)).join(', ')})`);
    console.log(`  raw disk write+fsync   ${raw.toFixed(0).padStart(6)} MB/s   (runs: ${rawSeconds.map((s) => (size / MIB / s).toFixed(0)).join(', ')})`);
    console.log(`  ratio                  ${(upload / raw).toFixed(2).padStart(6)}        (target >= 0.5)`);
    console.log(`  SDK to a discarding server (ceiling of client + loopback): ${ceiling.toFixed(0)} MB/s`);
    console.log(`Server memory above idle, worst run: RSS +${mb(rssDelta)} MiB, heap +${mb(heapDelta)} MiB, buffers +${mb(buffersDelta)} MiB`);
    console.log(`  (the file is ${mb(size)} MiB; a part is 5 MiB, 4 in flight)`);
  } finally {
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') {
  void serve(process.argv[3]);
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
