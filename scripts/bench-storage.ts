// Measures uploads to the embedded storage endpoint:
//   npx tsx scripts/bench-storage.ts [--mib 64] [--runs 5] [--hash-threads 1] [--cpu-prof <dir>]
// The endpoint runs in a child process (the product's setup: SQLite, WAL) so its memory is measured alone; the
// unmodified lib-storage uploads from here over loopback with the product's constants (5 MiB parts, 4 in
// parallel). Each run also uploads the same bytes, with the same SDK and settings, to a server in the same child
// that answers S3 plausibly and discards the bodies: the ceiling of the client and loopback on this machine, so
// the ratio is measured under the same load. Also printed: the raw speed of writing the same bytes to the same
// disk (write + fsync) and the server's peak memory. Measured, not asserted: the target is 0.8 of the ceiling,
// with memory bounded by the parts in flight, not by the file size.
// The server's CPU per MiB is set against a floor, what an upload cannot avoid: the discarding server's CPU per
// MiB (receiving the bytes over HTTP) plus an MD5 (the ETag) and a SHA-256 (the signed payload hash) of a MiB,
// hashed by the server's process after each run, so each run and its floor see the same machine load.
import { fork, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import Fastify from 'fastify';
import { createDatabase, migrateToLatest } from '../server/db';
import { embeddedS3 } from '../server/embedded/s3';

const REGION = 'eu-west-1';
const BUCKET = 'divilo-documents';
const SERVER = { accessKeyId: 'AKIABENCHSTORAGE0001', secretAccessKey: 'bench-storage-secret-000000000000000000' };
const MIB = 1024 * 1024;
/** The most the endpoint's server CPU per MiB may be, as a multiple of the floor. */
const TARGET_CPU_RATIO = 1.15;
/** MiB hashed for each floor measurement, in 1 MiB updates as the endpoint hashes its batches. */
const FLOOR_HASH_MIB = 32;

/** CPU ms per MiB of an MD5 and of a SHA-256, on this thread. */
interface HashFloor {
  md5: number;
  sha256: number;
}

function hashFloor(): HashFloor {
  const bytes = randomBytes(MIB);
  const perMib = (algorithm: string) => {
    createHash(algorithm).update(bytes).digest(); // warm-up
    const before = process.cpuUsage();
    const hash = createHash(algorithm);
    for (let i = 0; i < FLOOR_HASH_MIB; i += 1) hash.update(bytes);
    hash.digest();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / FLOOR_HASH_MIB;
  };
  return { md5: perMib('md5'), sha256: perMib('sha256') };
}

interface MemoryReport {
  idle: NodeJS.MemoryUsage;
  peak: { rss: number; heapUsed: number; external: number; arrayBuffers: number };
  /** The kernel's high-water mark of the whole process's resident memory, in bytes. */
  maxRss: number;
  /** CPU time since the reset, in ms: its main thread's and its other threads' (hashing, file system, GC). */
  threads: ThreadTimes;
  /** How late the server's event loop ran a 1 ms timer during the upload (ms): what any other request waited. */
  loopDelay: { p50: number; p99: number; max: number };
}

/** CPU time of a process's threads, and time they waited for a CPU, in ms (Linux; zeros elsewhere). */
interface ThreadTimes {
  mainMs: number;
  otherMs: number;
  waitedMs: number;
}

/** Per-thread scheduler figures from /proc: robust to the machine's load, unlike the wall clock. */
function threadTimes(): Map<string, [number, number]> {
  const times = new Map<string, [number, number]>();
  try {
    for (const tid of readdirSync('/proc/self/task')) {
      const [onCpu, waiting] = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8').split(' ').map(Number);
      times.set(tid, [onCpu / 1e6, waiting / 1e6]);
    }
  } catch {
    // Not Linux: no per-thread figures.
  }
  return times;
}

function threadTimesSince(before: Map<string, [number, number]>): ThreadTimes {
  const result = { mainMs: 0, otherMs: 0, waitedMs: 0 };
  for (const [tid, [onCpu, waiting]] of threadTimes()) {
    const [cpuBefore, waitingBefore] = before.get(tid) ?? [0, 0];
    if (tid === String(process.pid)) result.mainMs += onCpu - cpuBefore;
    else result.otherMs += onCpu - cpuBefore;
    result.waitedMs += waiting - waitingBefore;
  }
  return result;
}

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

/** The child: the endpoint alone, sampling its own memory every 10 ms. */
async function serve(dataDir: string, hashThreads: number): Promise<void> {
  const database = createDatabase({ dataDir });
  await migrateToLatest(database.db);
  const app = Fastify({ logger: false });
  await app.register(embeddedS3, { prefix: '/s3', db: database.db, buckets: [BUCKET], dataDir, region: REGION, serverCredentials: SERVER, hashThreads });
  await app.listen({ port: 0, host: '127.0.0.1' });
  global.gc?.();
  let idle = process.memoryUsage();
  const peak = { rss: 0, heapUsed: 0, external: 0, arrayBuffers: 0 };
  let threadsAtReset = threadTimes();
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  loopDelay.enable();
  const reset = () => {
    global.gc?.();
    threadsAtReset = threadTimes();
    loopDelay.reset();
    idle = process.memoryUsage();
    Object.assign(peak, { rss: idle.rss, heapUsed: idle.heapUsed, external: idle.external, arrayBuffers: idle.arrayBuffers });
  };
  reset();
  // Every 20 ms: often enough to see the parts in flight (the process's high-water mark is reported too),
  // rarely enough not to weigh on the server measured.
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    peak.external = Math.max(peak.external, now.external);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
  }, 20);
  process.on('message', async (message: string) => {
    if (message === 'reset') {
      reset();
      process.send!('ready');
    } else if (message === 'report') {
      process.send!({
        idle,
        peak,
        maxRss: process.resourceUsage().maxRSS * 1024,
        threads: threadTimesSince(threadsAtReset),
        loopDelay: { p50: loopDelay.percentile(50) / 1e6, p99: loopDelay.percentile(99) / 1e6, max: loopDelay.max / 1e6 },
      } satisfies MemoryReport);
    } else if (message === 'hash-floor') {
      process.send!(hashFloor());
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
      else response.writeHead(200, { etag: '"00000000000000000000000000000000"', 'x-amz-request-id': '0' }).end();
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
  const runs = option('runs', 5);
  const hashThreads = option('hash-threads', 1);
  const dataDir = mkdtempSync(join(tmpdir(), 'divilo-bench-storage-'));
  // `--cpu-prof <dir>`: the server writes a V8 CPU profile of its whole life there (open it in Chrome's DevTools);
  // BENCH_SERVER_FLAGS adds Node flags to the server (`--trace-gc`, `--perf-basic-prof` for Linux perf).
  const profileAt = process.argv.indexOf('--cpu-prof');
  const profile = profileAt >= 0 ? ['--cpu-prof', '--cpu-prof-dir', process.argv[profileAt + 1] ?? '.'] : [];
  const child = fork(__filename, ['--serve', dataDir, String(hashThreads)], { execArgv: ['--import', 'tsx', '--expose-gc', ...profile, ...(process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [])] });
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

    const upload = async (target: S3Client, key: string) => {
      await ask(child, 'reset');
      const threadsBefore = threadTimes();
      const started = performance.now();
      await new Upload({ client: target, params: { Bucket: BUCKET, Key: key, Body: bytes }, partSize: 5 * MIB, queueSize: 4 }).done();
      const seconds = (performance.now() - started) / 1000;
      return { seconds, client: threadTimesSince(threadsBefore), server: await ask<MemoryReport>(child, 'report') };
    };
    type Measure = Awaited<ReturnType<typeof upload>>;
    const rawSeconds: number[] = [];
    const embedded: Measure[] = [];
    const discarded: Measure[] = [];
    const hashFloors: HashFloor[] = [];
    // One warm-up upload to each (connections, JIT, the hashing threads), not counted.
    await upload(client, 'public/warm-up');
    await upload(discarding, 'public/warm-up');
    for (let run = 0; run < runs; run += 1) {
      rawSeconds.push(await rawDiskWrite(dataDir, bytes));
      // Alternately first and second: neither gets the quieter moment every time.
      if (run % 2 === 0) embedded.push(await upload(client, `public/bench-${run}`));
      discarded.push(await upload(discarding, 'public/discarded'));
      if (run % 2 === 1) embedded.push(await upload(client, `public/bench-${run}`));
      hashFloors.push(await ask<HashFloor>(child, 'hash-floor'));
    }
    client.destroy();
    discarding.destroy();

    const uploadSeconds = embedded.map((m) => m.seconds);
    const ceilingSeconds = discarded.map((m) => m.seconds);
    const memory = embedded.map((m) => m.server);
    const raw = size / MIB / median(rawSeconds);
    const speed = size / MIB / median(uploadSeconds);
    const ceiling = size / MIB / median(ceilingSeconds);
    // Each run's own ratio too: the machine's load drifts, the two uploads of one run see the same.
    const ratios = uploadSeconds.map((seconds, run) => ceilingSeconds[run] / seconds);
    const rssDelta = Math.max(...memory.map((m) => m.peak.rss - m.idle.rss));
    const peakRss = Math.max(...memory.map((m) => m.peak.rss));
    const heapDelta = Math.max(...memory.map((m) => m.peak.heapUsed - m.idle.heapUsed));
    const buffersDelta = Math.max(...memory.map((m) => m.peak.arrayBuffers - m.idle.arrayBuffers));
    const runsOf = (seconds: number[]) => seconds.map((s) => (size / MIB / s).toFixed(0)).join(', ');
    const perMib = (values: number[]) => (median(values) / (size / MIB)).toFixed(2).padStart(5);
    console.log(`Upload of ${mb(size)} MiB through lib-storage (5 MiB parts, 4 in parallel), ${hashThreads} hashing thread(s), median of ${runs} runs`);
    console.log(`  embedded endpoint          ${speed.toFixed(0).padStart(6)} MB/s   (runs: ${runsOf(uploadSeconds)})`);
    console.log(`  discarding server (ceiling)${ceiling.toFixed(0).padStart(6)} MB/s   (runs: ${runsOf(ceilingSeconds)})`);
    console.log(`  ratio to the ceiling       ${(speed / ceiling).toFixed(2).padStart(6)}        (per run: ${ratios.map((r) => r.toFixed(2)).join(', ')}; target >= 0.8)`);
    console.log('  CPU ms per MiB (medians)    server: main thread + other threads (waited for a CPU) / client: the same');
    for (const [name, measures] of [['embedded endpoint', embedded], ['discarding server', discarded]] as const) {
      const figures = (of: (m: Measure) => ThreadTimes) =>
        `${perMib(measures.map((m) => of(m).mainMs))} +${perMib(measures.map((m) => of(m).otherMs))} (${perMib(measures.map((m) => of(m).waitedMs))})`;
      console.log(`    ${name.padEnd(24)}${figures((m) => m.server.threads)} / ${figures((m) => m.client)}`);
    }
    // What the CPU alone allows: every CPU of the machine busy with nothing but this upload, client and server.
    const cpus = availableParallelism();
    const cpuPerMib = (measures: Measure[]) =>
      median(measures.map((m) => m.server.threads.mainMs + m.server.threads.otherMs + m.client.mainMs + m.client.otherMs)) / (size / MIB);
    const boundOf = (measures: Measure[]) => (cpus * 1000) / cpuPerMib(measures);
    console.log(
      `  CPU-bound limit on ${cpus} CPUs          embedded ${boundOf(embedded).toFixed(0)} MB/s, discarding ${boundOf(discarded).toFixed(0)} MB/s (ratio at most ${(boundOf(embedded) / boundOf(discarded)).toFixed(2)} when both are CPU-bound)`,
    );
    // Against the floor: each run's server CPU per MiB (all threads) over its discarding upload's plus its hashes.
    const serverPerMib = (m: Measure) => (m.server.threads.mainMs + m.server.threads.otherMs) / (size / MIB);
    const floors = discarded.map((m, run) => ({ discarding: serverPerMib(m), ...hashFloors[run], total: serverPerMib(m) + hashFloors[run].md5 + hashFloors[run].sha256 }));
    const cpuRatios = embedded.map((m, run) => serverPerMib(m) / floors[run].total);
    const cpuRatio = median(cpuRatios);
    const medianOf = (values: number[]) => median(values).toFixed(2);
    console.log('  server CPU against the floor (what an upload cannot avoid, measured in the same process and run)');
    console.log(`    figure                   ${medianOf(embedded.map(serverPerMib))} ms per MiB, embedded endpoint (all its threads)`);
    console.log(
      `    floor                    ${medianOf(floors.map((f) => f.total))} ms per MiB = discarding server ${medianOf(floors.map((f) => f.discarding))} ` +
        `+ MD5 ${medianOf(floors.map((f) => f.md5))} + SHA-256 ${medianOf(floors.map((f) => f.sha256))} (medians)`,
    );
    console.log(`    ratio                    ${cpuRatio.toFixed(2)} (median of the runs' own: ${cpuRatios.map((r) => r.toFixed(2)).join(', ')})`);
    console.log(`    target                   ≤ ${TARGET_CPU_RATIO}: ${cpuRatio <= TARGET_CPU_RATIO ? 'PASS' : 'FAIL'}`);
    const delays = (measures: Measure[]) =>
      `p50 ${median(measures.map((m) => m.server.loopDelay.p50)).toFixed(1)}, p99 ${median(measures.map((m) => m.server.loopDelay.p99)).toFixed(1)}, max ${median(measures.map((m) => m.server.loopDelay.max)).toFixed(1)} ms`;
    console.log(`  server event loop delay    embedded ${delays(embedded)}; discarding ${delays(discarded)} (medians)`);
    console.log(`  raw disk write+fsync       ${raw.toFixed(0).padStart(6)} MB/s   (runs: ${runsOf(rawSeconds)})`);
    console.log(`Server memory: peak RSS ${mb(peakRss)} MiB during the uploads (process high-water mark ${mb(Math.max(...memory.map((m) => m.maxRss)))} MiB)`);
    console.log(`  above idle, worst run: RSS +${mb(rssDelta)} MiB, heap +${mb(heapDelta)} MiB, buffers +${mb(buffersDelta)} MiB`);
    console.log(`  (the file is ${mb(size)} MiB; a part is 5 MiB, 4 in flight)`);
  } finally {
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--serve') {
  void serve(process.argv[3], Number(process.argv[4]));
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
