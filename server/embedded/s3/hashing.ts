// The digests of uploaded bodies (MD5 for the ETag, SHA-256 for a signed payload or a checksum header, CRC32 for a
// checksum header), computed off the event loop: MD5 alone costs about 1.6 ms per MiB, which on the main thread
// held every other request back. Bodies reach the hashers in batches the caller fills: shared memory the threads
// read in place, reused from body to body. Each job's batches are hashed in order by one worker thread.
import { createHash, type Hash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { crc32 } from 'node:zlib';

export type DigestName = 'md5' | 'sha256' | 'crc32';

export interface Digests {
  md5?: Buffer;
  sha256?: Buffer;
  crc32?: number;
}

/** One body being hashed. A batch handed to `update` must not be changed until its promise settles. */
export interface HashJob {
  update(batch: Buffer, length: number): Promise<void>;
  digest(): Promise<Digests>;
  /** Drops the job (the body was refused); its pending promises reject. */
  cancel(): void;
}

/** Bytes per batch: few messages per body, and little memory per request (two batches each). */
export const BATCH_BYTES = 1024 * 1024;
/** Free batches kept for the next requests; more are allocated when more bodies arrive at once. */
const KEPT_BATCHES = 16;

/** The same running hashes, on whichever thread runs them. */
function hashers(names: DigestName[]) {
  const md5: Hash | undefined = names.includes('md5') ? createHash('md5') : undefined;
  const sha256: Hash | undefined = names.includes('sha256') ? createHash('sha256') : undefined;
  let checksum: number | undefined = names.includes('crc32') ? 0 : undefined;
  return {
    update(bytes: Uint8Array) {
      md5?.update(bytes);
      sha256?.update(bytes);
      if (checksum !== undefined) checksum = crc32(bytes, checksum);
    },
    digest: (): Digests => ({ md5: md5?.digest(), sha256: sha256?.digest(), crc32: checksum }),
  };
}

// The worker's code, plain JavaScript (evaluated, so it runs the same under tsx, Jest and a build). Messages:
// { id, names } starts a job; { id, batch, length } hashes a batch and answers { id }; { id, end } answers
// { id, digests }; { id, cancel } forgets the job.
const WORKER_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { crc32 } = require('node:zlib');
const jobs = new Map();
parentPort.on('message', (message) => {
  const { id } = message;
  if (message.names) {
    jobs.set(id, {
      md5: message.names.includes('md5') ? createHash('md5') : undefined,
      sha256: message.names.includes('sha256') ? createHash('sha256') : undefined,
      crc32: message.names.includes('crc32') ? 0 : undefined,
    });
    return;
  }
  const job = jobs.get(id);
  if (!job) return;
  if (message.batch) {
    const bytes = new Uint8Array(message.batch, 0, message.length);
    if (job.md5) job.md5.update(bytes);
    if (job.sha256) job.sha256.update(bytes);
    if (job.crc32 !== undefined) job.crc32 = crc32(bytes, job.crc32);
    parentPort.postMessage({ id });
  } else if (message.end) {
    jobs.delete(id);
    const digests = { md5: job.md5 && job.md5.digest(), sha256: job.sha256 && job.sha256.digest(), crc32: job.crc32 };
    parentPort.postMessage({ id, digests });
  } else if (message.cancel) {
    jobs.delete(id);
  }
});
`;

interface Waiting {
  resolve: (digests: Digests | undefined) => void;
  reject: (error: Error) => void;
}

/** One hashing thread and its jobs: each job's answers come back in the order its messages were sent. */
class HashThread {
  private readonly worker: Worker;
  private readonly jobs = new Map<number, Waiting[]>();
  private failure?: Error;

  constructor(onGone: (thread: HashThread) => void) {
    this.worker = new Worker(WORKER_SOURCE, { eval: true });
    this.worker.unref();
    this.worker.on('message', ({ id, digests }: { id: number; digests?: { md5?: Uint8Array; sha256?: Uint8Array; crc32?: number } }) => {
      const next = this.jobs.get(id)?.shift();
      next?.resolve(digests && { md5: digests.md5 && Buffer.from(digests.md5), sha256: digests.sha256 && Buffer.from(digests.sha256), crc32: digests.crc32 });
    });
    const gone = (error: Error) => {
      if (this.failure) return;
      this.failure = error;
      for (const queue of this.jobs.values()) for (const waiting of queue.splice(0)) waiting.reject(error);
      this.jobs.clear();
      onGone(this);
    };
    this.worker.on('error', gone);
    this.worker.on('exit', (code) => gone(new Error(`a hashing thread stopped (exit code ${code})`)));
  }

  get load(): number {
    return this.jobs.size;
  }

  begin(id: number, names: DigestName[]): void {
    this.jobs.set(id, []);
    // The process stays alive while a job waits for this thread, not because the thread exists.
    this.worker.ref();
    if (!this.failure) this.worker.postMessage({ id, names });
  }

  ask(id: number, message: object): Promise<Digests | undefined> {
    const queue = this.jobs.get(id);
    if (this.failure) return Promise.reject(this.failure);
    if (!queue) return Promise.reject(new Error('hash job ended'));
    return new Promise((resolve, reject) => {
      queue.push({ resolve, reject });
      this.worker.postMessage(message);
    });
  }

  end(id: number, error?: Error): void {
    const queue = this.jobs.get(id);
    if (!queue) return;
    this.jobs.delete(id);
    if (this.jobs.size === 0) this.worker.unref();
    if (error) {
      for (const waiting of queue) waiting.reject(error);
      if (!this.failure) this.worker.postMessage({ id, cancel: true });
    }
  }

  async terminate(): Promise<void> {
    await this.worker.terminate();
  }
}

/**
 * Hashes bodies on `threadCount` worker threads (started when the first body arrives; a job goes to the least
 * busy), or on the calling thread when `threadCount` is 0. Also lends the batches bodies are gathered in.
 */
export class BodyHashing {
  private readonly threads: HashThread[] = [];
  private readonly free: Buffer[] = [];
  private nextJob = 1;
  private closed = false;

  constructor(private readonly threadCount: number) {}

  /** A batch of BATCH_BYTES in memory the hashing threads read without a copy. */
  acquire(): Buffer {
    return this.free.pop() ?? Buffer.from(new SharedArrayBuffer(BATCH_BYTES));
  }

  release(batch: Buffer): void {
    if (this.free.length < KEPT_BATCHES && !this.closed) this.free.push(batch);
  }

  start(names: DigestName[]): HashJob {
    if (this.threadCount === 0 || this.closed) return inThread(names);
    const thread = this.pickThread();
    const id = this.nextJob;
    this.nextJob += 1;
    thread.begin(id, names);
    return {
      update: async (batch, length) => {
        await thread.ask(id, { id, batch: batch.buffer, length });
      },
      digest: async () => {
        const digests = await thread.ask(id, { id, end: true });
        thread.end(id);
        return digests!;
      },
      cancel: () => thread.end(id, new Error('hash job cancelled')),
    };
  }

  private pickThread(): HashThread {
    if (this.threads.length < this.threadCount) {
      const thread = new HashThread((gone) => {
        const at = this.threads.indexOf(gone);
        if (at >= 0) this.threads.splice(at, 1);
      });
      this.threads.push(thread);
      return thread;
    }
    return this.threads.reduce((best, thread) => (thread.load < best.load ? thread : best));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.free.length = 0;
    await Promise.all(this.threads.splice(0).map((thread) => thread.terminate()));
  }
}

function inThread(names: DigestName[]): HashJob {
  const running = hashers(names);
  let cancelled = false;
  const check = () => {
    if (cancelled) throw new Error('hash job cancelled');
  };
  return {
    update: async (batch, length) => {
      check();
      running.update(batch.subarray(0, length));
    },
    digest: async () => {
      check();
      return running.digest();
    },
    cancel: () => {
      cancelled = true;
    },
  };
}
