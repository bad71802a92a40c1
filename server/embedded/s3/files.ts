// Where the bytes live, and how they get there whole or not at all.
//   <dataDir>/objects/<xx>/<uuid>          one file per object version the database points at
//   <dataDir>/objects/.tmp/<uuid>          being written; renamed into place only once complete and fsynced
//   <dataDir>/uploads/<uploadId>/<n>-<r>   parts of unfinished multipart uploads, one file per part upload
// File names never come from keys, so no key can reach outside these folders.
import { createHash, randomUUID, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import type { Readable } from 'node:stream';
import { errors } from './errors';

/** Bytes gathered before each write: few system calls, and memory bounded per request. */
const WRITE_BATCH_BYTES = 1024 * 1024;
/** Block size when concatenating parts. */
const COPY_BLOCK_BYTES = 4 * 1024 * 1024;

export interface WrittenFile {
  size: number;
  md5: Buffer;
  sha256Hex: string;
  /** Only computed when asked for (the client sent x-amz-checksum-crc32). */
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

/** Makes a rename or a new file in `dir` survive a crash. */
export async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Streams `body` into a new file at `target` (which must not exist), hashing as it goes; fsyncs it unless told
 * not to. On any failure (client gone, too large) the file is removed and the error thrown.
 */
export async function receiveFile(body: Readable, target: string, options: { maxBytes: number; crc32?: boolean; sync: boolean }): Promise<WrittenFile> {
  const handle = await open(target, 'wx', 0o600);
  const md5 = createHash('md5');
  const sha256 = createHash('sha256');
  let checksum = options.crc32 ? 0 : undefined;
  let size = 0;
  try {
    let batch: Buffer[] = [];
    let batchBytes = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > options.maxBytes) throw errors.entityTooLarge(options.maxBytes);
      md5.update(chunk);
      sha256.update(chunk);
      if (checksum !== undefined) checksum = crc32(chunk, checksum);
      batch.push(chunk);
      batchBytes += chunk.length;
      if (batchBytes >= WRITE_BATCH_BYTES) {
        await writeAll(handle, batch, batchBytes);
        batch = [];
        batchBytes = 0;
      }
    }
    if (batchBytes > 0) await writeAll(handle, batch, batchBytes);
    if (options.sync) await handle.sync();
  } catch (error) {
    await handle.close().catch(() => undefined);
    await rm(target, { force: true });
    throw error;
  }
  await handle.close();
  return { size, md5: md5.digest(), sha256Hex: sha256.digest('hex'), crc32: checksum };
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
export async function concatenateFiles(sources: { path: string; size: number }[], target: string): Promise<void> {
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

/** Removing something already gone is fine: cleanup runs after the database no longer points at it. */
export async function removeQuietly(target: string, recursive = false): Promise<void> {
  await rm(target, { force: true, recursive, maxRetries: recursive ? 3 : 0 }).catch(() => undefined);
}
