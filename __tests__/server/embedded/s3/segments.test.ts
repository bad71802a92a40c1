// Multipart objects are stored as their parts' files, linked and never copied: reads across part boundaries,
// overwrite, delete, a crash between linking and the commit, and the sweep.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { isPostgres } from '../../../../server/db/dialect';
import { linkIntoObjects, newObjectFiles, PartFileError, prepareLayout, storageLayout } from '../../../../server/embedded/s3/files';
import { describeEachDialect } from '../../helpers';
import { BUCKET, MIB, s3Failure, startStorage, testBytes, type StorageHarness } from './harness';

/** Every file under objects/<xx>/, as `<xx>/<name>`. */
function objectFiles(storage: StorageHarness): string[] {
  const root = path.join(storage.dataDir, 'objects');
  return readdirSync(root)
    .filter((folder) => /^[0-9a-f]{2}$/.test(folder))
    .flatMap((folder) => readdirSync(path.join(root, folder)).map((name) => `${folder}/${name}`))
    .sort();
}

/** The files the database names for a key: its row's file and its segment rows, in order. */
async function namedFiles(storage: StorageHarness, key: string): Promise<{ file?: string; segments: { file: string; size: number }[] }> {
  const row = await storage.db.selectFrom('storage_objects').select('file').where('bucket', '=', BUCKET).where('object_key', '=', key).executeTakeFirst();
  const segments = await storage.db
    .selectFrom('storage_object_segments')
    .select(['file', 'size'])
    .where('bucket', '=', BUCKET)
    .where('object_key', '=', key)
    .orderBy('seq')
    .execute();
  return { file: row?.file as string | undefined, segments: segments.map((segment) => ({ file: segment.file as string, size: Number(segment.size) })) };
}

/** Uploads `parts` as one multipart object; answers the ETag. */
async function multipart(client: S3Client, Key: string, parts: Buffer[], complete = true): Promise<{ UploadId: string; etags: string[]; ETag?: string }> {
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key, ContentType: 'application/pdf' }));
  const etags: string[] = [];
  for (const [index, Body] of parts.entries()) {
    etags.push((await client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: index + 1, Body }))).ETag!);
  }
  if (!complete) return { UploadId: UploadId!, etags };
  const done = await client.send(
    new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts: etags.map((ETag, index) => ({ PartNumber: index + 1, ETag })) } }),
  );
  return { UploadId: UploadId!, etags, ETag: done.ETag };
}

const completeAgain = (client: S3Client, Key: string, UploadId: string, etags: string[]) =>
  client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts: etags.map((ETag, index) => ({ PartNumber: index + 1, ETag })) } }));

async function read(client: S3Client, Key: string, Range?: string): Promise<{ body: Buffer; contentRange?: string; length?: number; status?: number }> {
  const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key, Range }));
  return { body: Buffer.from(await got.Body!.transformToByteArray()), contentRange: got.ContentRange, length: got.ContentLength, status: got.$metadata.httpStatusCode };
}

/** Makes the database refuse the completion's transaction at its last statement (dropping the upload's row). */
async function failCompletions(storage: StorageHarness, on: boolean): Promise<void> {
  if (isPostgres(storage.db)) {
    if (on) {
      await sql`create function storage_test_fail() returns trigger language plpgsql as $$ begin raise exception 'injected failure'; end $$`.execute(storage.db);
      await sql`create trigger storage_test_fail before delete on storage_uploads for each row execute function storage_test_fail()`.execute(storage.db);
    } else {
      await sql`drop trigger storage_test_fail on storage_uploads`.execute(storage.db);
      await sql`drop function storage_test_fail()`.execute(storage.db);
    }
  } else if (on) {
    await sql`create trigger storage_test_fail before delete on storage_uploads begin select raise(abort, 'injected failure'); end`.execute(storage.db);
  } else {
    await sql`drop trigger storage_test_fail`.execute(storage.db);
  }
}

describeEachDialect('embedded S3 multipart objects stored as their parts', (dialect) => {
  let storage: StorageHarness;
  beforeEach(async () => {
    storage = await startStorage(dialect, { abandonedUploadSeconds: 86400, orphanGraceSeconds: 60 });
  });
  afterEach(async () => {
    await storage.close();
  });

  it('links the parts without copying and reads ranges across part boundaries byte for byte', async () => {
    const client = storage.client();
    const parts = [testBytes(5 * MIB), testBytes(5 * MIB + 3), testBytes(2 * MIB + 7)];
    const body = Buffer.concat(parts);
    const { ETag } = await multipart(client, 'public/segmented.bin', parts);
    expect(ETag).toMatch(/^"[0-9a-f]{32}-3"$/);

    // Three files of the parts' sizes, one link each once the upload's folder is gone: no byte was copied.
    const named = await namedFiles(storage, 'public/segmented.bin');
    expect(named.segments.map((segment) => segment.size)).toEqual(parts.map((part) => part.length));
    expect(named.file).toBe(named.segments[0].file);
    expect(objectFiles(storage)).toEqual(named.segments.map((segment) => segment.file).sort());
    for (const segment of named.segments) expect(statSync(path.join(storage.dataDir, 'objects', segment.file)).nlink).toBe(1);
    expect(readdirSync(path.join(storage.dataDir, 'uploads'))).toEqual([]);

    const whole = await read(client, 'public/segmented.bin');
    expect(whole.length).toBe(body.length);
    expect(whole.body.equals(body)).toBe(true);

    const boundary = 5 * MIB;
    const second = 10 * MIB + 3;
    const ranges: [number, number][] = [
      [boundary - 10, boundary + 10], // across the first boundary
      [boundary - 1, boundary], // the last byte of one part and the first of the next
      [boundary, boundary], // exactly the first byte of a part
      [boundary - 1, boundary - 1], // exactly the last byte of a part
      [boundary, second - 1], // exactly one whole part
      [100, body.length - 100], // through all three
      [second - 5, body.length - 1], // across the second boundary to the end
    ];
    for (const [start, end] of ranges) {
      const got = await read(client, 'public/segmented.bin', `bytes=${start}-${end}`);
      expect(got.status).toBe(206);
      expect(got.contentRange).toBe(`bytes ${start}-${end}/${body.length}`);
      expect(got.length).toBe(end - start + 1);
      expect(got.body.equals(body.subarray(start, end + 1))).toBe(true);
    }
    // Open-ended and suffix ranges that cross boundaries.
    const suffix = await read(client, 'public/segmented.bin', `bytes=-${2 * MIB + 100}`);
    expect(suffix.body.equals(body.subarray(body.length - (2 * MIB + 100)))).toBe(true);
    const openEnded = await read(client, 'public/segmented.bin', `bytes=${boundary - 3}-`);
    expect(openEnded.contentRange).toBe(`bytes ${boundary - 3}-${body.length - 1}/${body.length}`);
    expect(openEnded.body.equals(body.subarray(boundary - 3))).toBe(true);
    expect(await s3Failure(read(client, 'public/segmented.bin', `bytes=${body.length}-`))).toEqual({ code: 'InvalidRange', status: 416 });

    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'public/segmented.bin' }));
    expect(head.ContentLength).toBe(body.length);
    expect(head.ETag).toBe(ETag);
    expect((await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/segmented.bin', IfNoneMatch: ETag })))).status).toBe(304);
  });

  it('replaces a multipart object and removes its files only after the commit', async () => {
    const client = storage.client();
    const first = [testBytes(5 * MIB), testBytes(5 * MIB), testBytes(1000)];
    await multipart(client, 'public/replaced.bin', first);
    const before = await namedFiles(storage, 'public/replaced.bin');
    expect(before.segments).toHaveLength(3);

    const second = [testBytes(5 * MIB), testBytes(300)];
    await multipart(client, 'public/replaced.bin', second);
    const after = await namedFiles(storage, 'public/replaced.bin');
    expect(after.segments).toHaveLength(2);
    expect((await read(client, 'public/replaced.bin')).body.equals(Buffer.concat(second))).toBe(true);
    expect((await read(client, 'public/replaced.bin', `bytes=${5 * MIB - 2}-${5 * MIB + 2}`)).body.equals(Buffer.concat(second).subarray(5 * MIB - 2, 5 * MIB + 3))).toBe(true);
    // The replaced version's three files are gone; only the new version's remain.
    for (const segment of before.segments) expect(existsSync(path.join(storage.dataDir, 'objects', segment.file))).toBe(false);
    expect(objectFiles(storage)).toEqual(after.segments.map((segment) => segment.file).sort());

    // A single put replaces it with one file and no segment rows; a multipart one replaces that in turn.
    const single = testBytes(4000);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/replaced.bin', Body: single }));
    const put = await namedFiles(storage, 'public/replaced.bin');
    expect(put.segments).toEqual([]);
    expect(objectFiles(storage)).toEqual([put.file]);
    expect((await read(client, 'public/replaced.bin')).body.equals(single)).toBe(true);

    const third = [testBytes(5 * MIB), testBytes(10)];
    await multipart(client, 'public/replaced.bin', third);
    const last = await namedFiles(storage, 'public/replaced.bin');
    expect(objectFiles(storage)).toEqual(last.segments.map((segment) => segment.file).sort());
    expect((await read(client, 'public/replaced.bin')).body.equals(Buffer.concat(third))).toBe(true);
  });

  it('finishes a read begun before the object was deleted or overwritten, with the old bytes', async () => {
    const client = storage.client();
    for (const change of ['delete', 'overwrite'] as const) {
      const Key = `public/read-while-${change}.bin`;
      const parts = [testBytes(5 * MIB), testBytes(5 * MIB), testBytes(5 * MIB)];
      await multipart(client, Key, parts);
      const files = (await namedFiles(storage, Key)).segments.map((segment) => segment.file);
      const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key }));
      const chunks = (got.Body as Readable)[Symbol.asyncIterator]();
      const received: Buffer[] = [Buffer.from((await chunks.next()).value as Uint8Array)];
      // The server is still in the first part; the files of the other two go now.
      if (change === 'delete') await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key }));
      else await multipart(client, Key, [testBytes(5 * MIB), testBytes(10)]);
      for (const file of files) expect(existsSync(path.join(storage.dataDir, 'objects', file))).toBe(false);
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) received.push(Buffer.from(next.value as Uint8Array));
      expect(Buffer.concat(received).equals(Buffer.concat(parts))).toBe(true);
    }
    // Only the overwriting version's files are left.
    expect(objectFiles(storage)).toEqual((await namedFiles(storage, 'public/read-while-overwrite.bin')).segments.map((segment) => segment.file).sort());
  });

  it('holds at most maxOpenSegments files open per read: later parts open when reached, a removed one breaks the answer off', async () => {
    const frugal = await startStorage(dialect, { maxOpenSegments: 1 });
    const client = frugal.client();
    const parts = [testBytes(5 * MIB), testBytes(5 * MIB), testBytes(5 * MIB + 11)];
    await multipart(client, 'public/many-parts.bin', parts);
    expect((await read(client, 'public/many-parts.bin')).body.equals(Buffer.concat(parts))).toBe(true);
    const ranged = await read(client, 'public/many-parts.bin', `bytes=${5 * MIB - 3}-${10 * MIB + 2}`);
    expect(ranged.body.equals(Buffer.concat(parts).subarray(5 * MIB - 3, 10 * MIB + 3))).toBe(true);

    // Deleted while the first part is being read: the second part's file is gone, so the transfer breaks off
    // rather than sending bytes of another version.
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/many-parts.bin' }));
    const chunks = (got.Body as Readable)[Symbol.asyncIterator]();
    const received: Buffer[] = [Buffer.from((await chunks.next()).value as Uint8Array)];
    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'public/many-parts.bin' }));
    await expect(
      (async () => {
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) received.push(Buffer.from(next.value as Uint8Array));
      })(),
    ).rejects.toThrow();
    const sent = Buffer.concat(received);
    expect(sent.length).toBeLessThan(Buffer.concat(parts).length);
    expect(sent.equals(Buffer.concat(parts).subarray(0, sent.length))).toBe(true);
    await frugal.close();
  });

  it('deletes every file of a multipart object', async () => {
    const client = storage.client();
    await multipart(client, 'public/deleted.bin', [testBytes(5 * MIB), testBytes(5 * MIB), testBytes(5)]);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/other.pdf', Body: testBytes(10) }));
    const other = await namedFiles(storage, 'public/other.pdf');
    expect(objectFiles(storage)).toHaveLength(4);

    const deleted = await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'public/deleted.bin' }));
    expect(deleted.$metadata.httpStatusCode).toBe(204);
    expect(objectFiles(storage)).toEqual([other.file]);
    expect(await namedFiles(storage, 'public/deleted.bin')).toEqual({ file: undefined, segments: [] });
    expect(await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/deleted.bin' })))).toEqual({ code: 'NoSuchKey', status: 404 });
  });

  it('leaves the old object and the upload intact when the completing transaction fails, and completes later', async () => {
    const client = storage.client();
    const old = [testBytes(5 * MIB), testBytes(2000)];
    await multipart(client, 'public/kept.bin', old);
    const oldFiles = objectFiles(storage);

    const next = [testBytes(5 * MIB), testBytes(5 * MIB), testBytes(77)];
    const { UploadId, etags } = await multipart(client, 'public/kept.bin', next, false);
    await failCompletions(storage, true);
    expect(await s3Failure(completeAgain(client, 'public/kept.bin', UploadId, etags))).toEqual({ code: 'InternalError', status: 500 });
    await failCompletions(storage, false);

    // Nothing changed: the old object is whole, the upload still has its parts, no new file is left under objects/.
    expect((await read(client, 'public/kept.bin')).body.equals(Buffer.concat(old))).toBe(true);
    expect(objectFiles(storage)).toEqual(oldFiles);
    const listed = await client.send(new ListPartsCommand({ Bucket: BUCKET, Key: 'public/kept.bin', UploadId }));
    expect(listed.Parts?.map((part) => part.Size)).toEqual(next.map((part) => part.length));

    await completeAgain(client, 'public/kept.bin', UploadId, etags);
    expect((await read(client, 'public/kept.bin')).body.equals(Buffer.concat(next))).toBe(true);
    for (const file of oldFiles) expect(existsSync(path.join(storage.dataDir, 'objects', file))).toBe(false);
  });

  it('survives a crash between linking the parts and the commit: upload completable, orphan links swept, live parts never', async () => {
    let client = storage.client();
    const old = [testBytes(5 * MIB), testBytes(5 * MIB), testBytes(9)];
    await multipart(client, 'public/crashed.bin', old);
    const next = [testBytes(5 * MIB), testBytes(123)];
    const { UploadId, etags } = await multipart(client, 'public/crashed.bin', next, false);

    // The parts arrived hours ago: a link shares its part's modification time unless the completion renews it,
    // and would then look like an old orphan to the sweep before its commit.
    const parts = await storage.db.selectFrom('storage_parts').select(['file', 'size']).where('upload_id', '=', UploadId).orderBy('part_number').execute();
    const layout = storageLayout(storage.dataDir);
    const sources = parts.map((part) => ({ path: path.join(layout.uploadsDir, UploadId, part.file as string), size: Number(part.size) }));
    const hoursAgo = new Date(Date.now() - 3 * 3600_000);
    for (const source of sources) utimesSync(source.path, hoursAgo, hoursAgo);

    // What a completion does before its transaction, done here by hand; then the process dies (a restart).
    const orphans = newObjectFiles(parts.length);
    await linkIntoObjects(layout, sources, orphans, new Date());
    await storage.restart();
    client = storage.client();

    expect((await read(client, 'public/crashed.bin')).body.equals(Buffer.concat(old))).toBe(true);
    // Young orphans stay (a completion may be about to commit them); nothing live is touched.
    expect(await storage.maintenance.sweep()).toEqual({ abandonedUploads: 0, orphanFiles: 0, staleReservations: 0 });
    for (const file of orphans) expect(existsSync(path.join(storage.dataDir, 'objects', file))).toBe(true);

    await completeAgain(client, 'public/crashed.bin', UploadId, etags);
    const live = await namedFiles(storage, 'public/crashed.bin');
    expect((await read(client, 'public/crashed.bin')).body.equals(Buffer.concat(next))).toBe(true);

    // Later the orphan links go, and only they: the live segments (as old by then) stay and read back whole.
    storage.clock.offsetMs = 2 * 3600_000;
    expect(await storage.maintenance.sweep()).toEqual({ abandonedUploads: 0, orphanFiles: orphans.length, staleReservations: 0 });
    storage.clock.offsetMs = 0;
    expect(objectFiles(storage)).toEqual(live.segments.map((segment) => segment.file).sort());
    expect((await read(client, 'public/crashed.bin')).body.equals(Buffer.concat(next))).toBe(true);
    expect((await read(client, 'public/crashed.bin', `bytes=${5 * MIB - 1}-${5 * MIB}`)).body.equals(Buffer.concat(next).subarray(5 * MIB - 1, 5 * MIB + 1))).toBe(true);
  });

  it('never sweeps the segments of live objects, single or multipart, however old', async () => {
    const client = storage.client();
    const parts = [testBytes(5 * MIB), testBytes(5 * MIB), testBytes(5 * MIB), testBytes(1)];
    await multipart(client, 'public/old-multipart.bin', parts);
    const single = testBytes(100);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/old-single.pdf', Body: single }));
    const files = objectFiles(storage);
    expect(files).toHaveLength(5);

    storage.clock.offsetMs = 48 * 3600_000;
    expect(await storage.maintenance.sweep()).toEqual({ abandonedUploads: 0, orphanFiles: 0, staleReservations: 0 });
    storage.clock.offsetMs = 0;
    expect(objectFiles(storage)).toEqual(files);
    expect((await read(client, 'public/old-multipart.bin')).body.equals(Buffer.concat(parts))).toBe(true);
    expect((await read(client, 'public/old-single.pdf')).body.equals(single)).toBe(true);
  });
});

describe('linking part files into objects/', () => {
  let dataDir: string;
  let elsewhere: string | undefined;
  beforeEach(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-link-'));
  });
  afterEach(() => {
    rmSync(dataDir, { recursive: true, force: true });
    if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
    elsewhere = undefined;
  });

  it('refuses a missing or resized part by its index and leaves no link behind', async () => {
    const layout = storageLayout(dataDir);
    await prepareLayout(layout);
    const parts = [0, 1, 2].map((index) => {
      const file = path.join(layout.uploadsDir, `part-${index}`);
      writeFileSync(file, testBytes(1000));
      return { path: file, size: 1000 };
    });
    const missing = [parts[0], { path: path.join(layout.uploadsDir, 'gone'), size: 1000 }, parts[2]];
    const failure = await linkIntoObjects(layout, missing, newObjectFiles(3), new Date()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(PartFileError);
    expect((failure as PartFileError).index).toBe(1);
    const resized = [parts[0], parts[1], { ...parts[2], size: 999 }];
    const second = await linkIntoObjects(layout, resized, newObjectFiles(3), new Date()).catch((error: unknown) => error);
    expect((second as PartFileError).index).toBe(2);
    const left = readdirSync(layout.objectsDir).filter((name) => name !== '.tmp');
    expect(left.flatMap((folder) => readdirSync(path.join(layout.objectsDir, folder)))).toEqual([]);
  });

  it('copies, fsynced, where the part lies on another file system', async () => {
    const layout = storageLayout(dataDir);
    await prepareLayout(layout);
    if (!existsSync('/dev/shm') || statSync('/dev/shm').dev === statSync(dataDir).dev) return; // no second file system here
    elsewhere = mkdtempSync('/dev/shm/divilo-link-');
    const bytes = testBytes(3 * MIB + 5);
    mkdirSync(path.join(elsewhere, 'parts'));
    const source = path.join(elsewhere, 'parts', 'one');
    writeFileSync(source, bytes);
    const [file] = newObjectFiles(1);
    await linkIntoObjects(layout, [{ path: source, size: bytes.length }], [file], new Date());
    expect(readFileSync(path.join(layout.objectsDir, file)).equals(bytes)).toBe(true);
    expect(readdirSync(layout.tmpDir)).toEqual([]);
  });
});
