// Where the bytes live, and how they get there whole or not at all.
//   <dataDir>/objects/<xx>/<uuid>          the files the database points at: one per single-put object, one per
//                                          part of a multipart object (all of one object in the same <xx>)
//   <dataDir>/objects/.tmp/<uuid>          being written; renamed into place only once complete and fsynced
//   <dataDir>/uploads/<uploadId>/<n>-<r>   parts of unfinished multipart uploads, one file per part upload
// A completed multipart upload's part files get a second name under objects/ (a hard link, same file system):
// their bytes are never copied. File names never come from keys, so no key can reach outside these folders.
import { randomUUID, randomBytes } from 'node:crypto';
import { link, mkdir, open, rename, rm, stat, utimes, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { errors } from './errors';
import type { BodyHashing, DigestName } from './hashing';

/** Block size when a part must be copied (only where the file system cannot link it). */
const COPY_BLOCK_BYTES = 4 * 1024 * 1024;

export interface WrittenFile {
  size: number;
  /** Always computed: it is the ETag. */
  md5: Buffer;
  /** Only when asked for. */
  sha256?: Buffer;
  crc32?: number;
}

export interface StorageLayout {
  objectsDir: string;
  tmpDir: string;
  uploadsDir: string;
}

export function storageLayout(dataDir: string): StorageLayout {
  const objectsDir = path.join(dataDir, 'objects');
  return { objectsDir, tmpDir: path.join(objectsDir, '.tmp'), uploadsDir: path.join(dataDir, 'uploads') };
}

export async function prepareLayout(layout: StorageLayout): Promise<void> {
  await mkdir(layout.tmpDir, { recursive: true });
  await mkdir(layout.uploadsDir, { recursive: true });
}

export const UPLOAD_ID = /^[A-Za-z0-9_-]{32}$/;

export const newUploadId = (): string => randomBytes(24).toString('base64url');
/** `<xx>/<uuid>`: 256 folders keep any one of them small. */
export const newObjectFile = (): string => {
  const id = randomUUID();
  return `${id.slice(0, 2)}/${id}`;
};
/** Names for the files of one object stored as several: all in one folder, so one fsync makes them durable. */
export const newObjectFiles = (count: number): string[] => {
  const folder = randomUUID().slice(0, 2);
  return Array.from({ length: count }, () => `${folder}/${randomUUID()}`);
};
export const newPartFile = (partNumber: number): string => `${partNumber}-${randomBytes(6).toString('hex')}`;

export const uploadDir = (layout: StorageLayout, uploadId: string): string => path.join(layout.uploadsDir, uploadId);
export const objectPath = (layout: StorageLayout, file: string): string => path.join(layout.objectsDir, file);

async function writeAll(handle: FileHandle, chunks: Buffer[], bytes: number): Promise<void> {
  let written = (await handle.writev(chunks)).bytesWritten;
  if (written === bytes) return;
  // A short write (rare on files) continues from where it stopped.
  const all = Buffer.concat(chunks);
  while (written < bytes) written += (await handle.write(all, written, bytes - written)).bytesWritten;
}

async function writeAt(handle: FileHandle, batch: Buffer, length: number, position: number): Promise<void> {
  for (let written = 0; written < length; ) written += (await handle.write(batch, written, length - written, position + written)).bytesWritten;
}

/** Makes a rename or a new file in `dir` survive a crash. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Streams `body` into a new file at `target` (which must not exist), computing its MD5 and the other digests
 * named as it goes; fsyncs it unless told not to. The bytes are gathered in batches: while one is written and
 * hashed (off the event loop, by `hashing`'s threads) the next fills, so memory stays at two batches per request.
 * On any failure (client gone, too large, a bad write) the file is removed and the error thrown.
 */
export async function receiveFile(
  body: Readable,
  target: string,
  options: { maxBytes: number; digests: Exclude<DigestName, 'md5'>[]; hashing: BodyHashing; sync: boolean },
): Promise<WrittenFile> {
  const { hashing } = options;
  const handle = await open(target, 'wx', 0o600);
  const job = hashing.start(['md5', ...options.digests]);
  let batch = hashing.acquire();
  let spare: Buffer | undefined = hashing.acquire();
  let filled = 0;
  let size = 0;
  /** The batch being written and hashed; settles once both are done with it and it is the spare again. */
  let flushing: Promise<void> | undefined;
  const flush = async () => {
    if (flushing) await flushing;
    const full = batch;
    const length = filled;
    // Settles only once the write and the hash both have (a failure of one must not free the batch early).
    flushing = Promise.allSettled([writeAt(handle, full, length, size - length), job.update(full, length)]).then((results) => {
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed) throw failed.reason;
      spare = full;
    });
    // Awaited later (or in the cleanup); never an unhandled rejection meanwhile.
    flushing.catch(() => undefined);
    batch = spare!;
    spare = undefined;
    filled = 0;
  };
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (size + chunk.length > options.maxBytes) throw errors.entityTooLarge(options.maxBytes);
      for (let offset = 0; offset < chunk.length; ) {
        const copied = chunk.copy(batch, filled, offset);
        offset += copied;
        filled += copied;
        size += copied;
        if (filled === batch.length) await flush();
      }
    }
    if (filled > 0) await flush();
    if (flushing) await flushing;
    // The last hashes finish while the disk syncs.
    const [digests] = await Promise.all([job.digest(), options.sync ? handle.sync() : undefined]);
    await handle.close();
    return { size, md5: digests.md5!, sha256: digests.sha256, crc32: digests.crc32 };
  } catch (error) {
    job.cancel();
    await flushing?.catch(() => undefined);
    await handle.close().catch(() => undefined);
    await rm(target, { force: true });
    throw error;
  } finally {
    for (const free of [batch, spare]) if (free) hashing.release(free);
  }
}

/** A part's file is gone (replaced by a new upload of its number meanwhile) or not the size recorded. */
export class PartFileError extends Error {
  constructor(readonly index: number) {
    super(`the file of part ${index} is missing or not the size recorded`);
  }
}

/**
 * Concatenates `sources` into a new file at `target` and fsyncs it; removes it on failure. Reading the next
 * block overlaps writing the current one; memory stays at two blocks whatever the sizes.
 */
async function concatenateFiles(sources: { path: string; size: number }[], target: string): Promise<void> {
  const output = await open(target, 'wx', 0o600);
  let buffers = [Buffer.allocUnsafe(COPY_BLOCK_BYTES), Buffer.allocUnsafe(COPY_BLOCK_BYTES)];
  try {
    for (const [index, source] of sources.entries()) {
      const input = await open(source.path, 'r').catch((error: NodeJS.ErrnoException) => {
        throw error.code === 'ENOENT' ? new PartFileError(index) : error;
      });
      try {
        let copied = 0;
        let pending = await input.read(buffers[0], 0, COPY_BLOCK_BYTES, 0);
        while (pending.bytesRead > 0) {
          const current = buffers[0].subarray(0, pending.bytesRead);
          copied += pending.bytesRead;
          const [next] = await Promise.all([input.read(buffers[1], 0, COPY_BLOCK_BYTES, copied), writeAll(output, [current], current.length)]);
          pending = next;
          buffers = [buffers[1], buffers[0]];
        }
        if (copied !== source.size) throw new PartFileError(index);
      } finally {
        await input.close();
      }
    }
    await output.sync();
  } catch (error) {
    await output.close().catch(() => undefined);
    await rm(target, { force: true });
    throw error;
  }
  await output.close();
}

/** Moves a complete temp file to its final place under objects/, durably. */
export async function publishObjectFile(layout: StorageLayout, tmp: string, file: string): Promise<void> {
  const target = objectPath(layout, file);
  await mkdir(path.dirname(target), { recursive: true });
  await rename(tmp, target);
  await syncDirectory(path.dirname(target));
}

export const tmpPath = (layout: StorageLayout): string => path.join(layout.tmpDir, randomUUID());

/** Links made at once: enough to overlap the system calls, few enough not to flood the thread pool. */
const LINK_BATCH = 32;
/** Errors of a file system that cannot hard-link these files (or not across these folders): copy instead. */
const CANNOT_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EMLINK']);

async function linkOne(layout: StorageLayout, source: { path: string; size: number }, target: string, index: number): Promise<void> {
  try {
    await link(source.path, target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'ENOENT') throw new PartFileError(index);
    if (!CANNOT_LINK.has(code)) throw error;
    // Bytes copied to a temp file, fsynced, then renamed: the same guarantees, only slower.
    const tmp = tmpPath(layout);
    try {
      await concatenateFiles([source], tmp);
    } catch (copyError) {
      throw copyError instanceof PartFileError ? new PartFileError(index) : copyError;
    }
    await rename(tmp, target).catch(async (renameError: unknown) => {
      await removeQuietly(tmp);
      throw renameError;
    });
  }
}

/**
 * Gives each source (a part file, fsynced when it was received) a new name `files[i]` under objects/ without
 * copying a byte: a hard link, checked against the size recorded. The links get `time` as their modification
 * time (they share it with the part file), so the sweep counts their grace period from now and not from when
 * the part arrived. Then the folders are fsynced: the names survive a crash. On failure every link made is
 * removed and the error thrown (PartFileError for a missing or resized source).
 */
export async function linkIntoObjects(layout: StorageLayout, sources: { path: string; size: number }[], files: string[], time: Date): Promise<void> {
  const targets = files.map((file) => objectPath(layout, file));
  const folders = [...new Set(targets.map((target) => path.dirname(target)))];
  await Promise.all(folders.map((folder) => mkdir(folder, { recursive: true })));
  const made: string[] = [];
  try {
    for (let start = 0; start < sources.length; start += LINK_BATCH) {
      const results = await Promise.allSettled(
        sources.slice(start, start + LINK_BATCH).map(async (source, offset) => {
          const index = start + offset;
          await linkOne(layout, source, targets[index], index);
          made.push(targets[index]);
          if ((await stat(targets[index])).size !== source.size) throw new PartFileError(index);
          await utimes(targets[index], time, time);
        }),
      );
      const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
      if (failed) throw failed.reason;
    }
    await Promise.all(folders.map((folder) => syncDirectory(folder)));
  } catch (error) {
    await Promise.all(made.map((target) => removeQuietly(target)));
    throw error;
  }
}

/** Removing something already gone is fine: cleanup runs after the database no longer points at it. */
export async function removeQuietly(target: string, recursive = false): Promise<void> {
  await rm(target, { force: true, recursive, maxRetries: recursive ? 3 : 0 }).catch(() => undefined);
}

/** Removes object files (relative to objects/), each as removeQuietly does. */
export async function removeObjectFiles(layout: StorageLayout, files: string[]): Promise<void> {
  await Promise.all(files.map((file) => removeQuietly(objectPath(layout, file))));
}
