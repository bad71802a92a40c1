// The whole server on the embedded defaults, its DATA_DIR (SQLite database and stored files together) on a
// small file system that fills up: what needs to write is refused with a clear 507 (the API's STORAGE_FULL, the
// storage endpoint's XMinioStorageFull), never a 500; what is stored stays readable; and everything works again
// once there is room, without a restart.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { sql } from 'kysely';
import { createDatabase, migrateToLatest } from '../../server/db';
import { startLoginServer } from './login/loginServer';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from './smallDisk';

const unavailable = smallDiskUnavailable('the full-disk test of the server');

jest.setTimeout(120_000);

(unavailable ? describe.skip : describe)('the server when its disk is full (SQLite)', () => {
  let disk: SmallDisk;
  let server: Awaited<ReturnType<typeof startLoginServer>>;
  let database: ReturnType<typeof createDatabase>;
  beforeAll(async () => {
    disk = mountSmallDisk(24 * 1024 * 1024);
    database = createDatabase({ dataDir: disk.dir });
    await migrateToLatest(database.db);
    server = await startLoginServer({ LOG_LEVEL: 'silent' }, { database: { ...database, dataDir: disk.dir } as typeof database });
  });
  afterAll(async () => {
    await server?.close();
    await database?.destroy();
    disk?.unmount();
  });

  it('answers 507 where it must write, keeps what it has, and works again once there is room', async () => {
    const { client, bucket } = server.app.documents.storage;
    const kept = Buffer.alloc(512 * 1024, 7);
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'evidence/kept.pdf', Body: kept }));
    const read = async (Key: string) => Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: bucket, Key }))).Body!.transformToByteArray());

    // The write-ahead log emptied, so SQLite's next write needs room on the disk, which then fills up.
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
    const objectFiles = () => readdirSync(path.join(disk.dir, 'objects'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
    const filesBefore = objectFiles();

    // Room for a small file but not for the transaction that records it: SQLite ends that transaction itself.
    disk.fill(8 * 1024);
    await expect(client.send(new PutObjectCommand({ Bucket: bucket, Key: 'evidence/small.pdf', Body: Buffer.alloc(1024, 2) }))).rejects.toMatchObject({
      name: 'XMinioStorageFull',
      $metadata: { httpStatusCode: 507 },
    });
    // Its file went with it: no file without its row, no row without its file.
    expect(objectFiles()).toBe(filesBefore);

    disk.fill();

    // The recovery key is made and stored on first use: a write the full database refuses.
    const key = await fetch(`${server.api}/credentials-management/getKey`);
    expect(key.status).toBe(507);
    expect(await key.json()).toEqual({ code: 'STORAGE_FULL', message: expect.any(String) });
    await expect(client.send(new PutObjectCommand({ Bucket: bucket, Key: 'evidence/new.pdf', Body: Buffer.alloc(64 * 1024, 1) }))).rejects.toMatchObject({
      name: 'XMinioStorageFull',
      $metadata: { httpStatusCode: 507 },
    });
    // Reading needs no room: the process still serves, and what is stored is whole.
    expect((await fetch(`${server.base}/health`)).status).toBe(200);
    expect((await read('evidence/kept.pdf')).equals(kept)).toBe(true);

    disk.free();
    const again = await fetch(`${server.api}/credentials-management/getKey`);
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ keyId: expect.any(String), publicKey: expect.any(String) });
    await client.send(new PutObjectCommand({ Bucket: bucket, Key: 'evidence/new.pdf', Body: Buffer.alloc(64 * 1024, 1) }));
    expect((await read('evidence/new.pdf')).length).toBe(64 * 1024);
    await expect(client.send(new HeadObjectCommand({ Bucket: bucket, Key: 'evidence/small.pdf' }))).rejects.toMatchObject({ name: 'NotFound' });
    expect((await read('evidence/kept.pdf')).equals(kept)).toBe(true);
    const integrity = await sql<{ integrity_check: string }>`pragma integrity_check`.execute(database.db);
    expect(integrity.rows).toEqual([{ integrity_check: 'ok' }]);
  });
});
