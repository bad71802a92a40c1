// The storage endpoint when its disk is full, on a real full file system (a small tmpfs for the objects): uploads
// are refused with MinIO's 507 XMinioStorageFull, nothing of them stays (no partial file, no row, no reservation),
// what was stored before stays whole, and the same uploads work once there is room again.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { QuotaOf } from '../../../../server/embedded/s3';
import { describeEachDialect } from '../../helpers';
import { mountSmallDisk, smallDiskUnavailable, type SmallDisk } from '../../smallDisk';
import { BUCKET, MIB, s3Failure, startStorage, testBytes, type StorageHarness } from './harness';

const unavailable = smallDiskUnavailable('the embedded storage full-disk test');

const quotaOf: QuotaOf = (key, principal) => {
  if (principal.kind !== 'identity') return undefined;
  const area = `private/${principal.identityId}/`;
  return key.startsWith(area) ? { area, maxObjectBytes: 4 * MIB, maxAreaBytes: 6 * MIB } : undefined;
};

describeEachDialect('embedded S3 on a full disk', (dialect) => {
  let disk: SmallDisk;
  let storage: StorageHarness;
  beforeEach(async () => {
    if (unavailable) return;
    disk = mountSmallDisk(8 * MIB);
    storage = await startStorage(dialect, { dataDir: disk.dir, quotaOf });
  });
  afterEach(async () => {
    if (unavailable) return;
    await storage.close();
    disk.unmount();
  });

  const bodyOf = async (Key: string) =>
    Buffer.from(await (await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key }))).Body!.transformToByteArray());
  const tmpFiles = () => readdirSync(path.join(disk.dir, 'objects', '.tmp'));

  (unavailable ? it.skip : it)('refuses a PutObject with 507 XMinioStorageFull, keeps nothing of it, and takes it once there is room', async () => {
    const identity = storage.identities.mint();
    const client = storage.client(identity);
    const area = `private/${identity.identityId}`;
    const kept = testBytes(MIB);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${area}/kept.pdf`, Body: kept }));

    disk.fill(256 * 1024);
    const room = disk.freeBytes();
    const refused = testBytes(MIB);
    // A new key, and a new version of the kept one: neither may touch what is stored.
    for (const Key of [`${area}/new.pdf`, `${area}/kept.pdf`]) {
      expect(await s3Failure(client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: refused })))).toEqual({ code: 'XMinioStorageFull', status: 507 });
    }

    // The partial file went with the refusal: the room is what it was, and nothing points at it.
    expect(tmpFiles()).toEqual([]);
    expect(disk.freeBytes()).toBe(room);
    const rows = await storage.db.selectFrom('storage_objects').select(['object_key', 'size']).execute();
    expect(rows.map((row: { object_key: string; size: number | string }) => [row.object_key, Number(row.size)])).toEqual([[`${area}/kept.pdf`, kept.length]]);
    expect(await storage.db.selectFrom('storage_reservations').selectAll().execute()).toEqual([]);
    expect((await bodyOf(`${area}/kept.pdf`)).equals(kept)).toBe(true);

    disk.free();
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${area}/new.pdf`, Body: refused }));
    expect((await bodyOf(`${area}/new.pdf`)).equals(refused)).toBe(true);
    expect((await bodyOf(`${area}/kept.pdf`)).equals(kept)).toBe(true);
  });

  (unavailable ? it.skip : it)('refuses a part with 507, keeps no file or row of it, and completes the upload once there is room', async () => {
    const client = storage.client();
    const Key = 'public/deed.pdf';
    const first = testBytes(5 * MIB);
    const last = testBytes(MIB);
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
    const one = await client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: first }));

    disk.fill(128 * 1024);
    const room = disk.freeBytes();
    expect(await s3Failure(client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 2, Body: last })))).toEqual({
      code: 'XMinioStorageFull',
      status: 507,
    });
    expect(disk.freeBytes()).toBe(room);
    expect(readdirSync(path.join(disk.dir, 'uploads', UploadId!))).toHaveLength(1);
    const listed = await client.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId }));
    expect(listed.Parts?.map((part) => [part.PartNumber, part.Size])).toEqual([[1, first.length]]);

    disk.free();
    const two = await client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 2, Body: last }));
    await client.send(
      new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: one.ETag }, { PartNumber: 2, ETag: two.ETag }] } }),
    );
    expect((await bodyOf(Key)).equals(Buffer.concat([first, last]))).toBe(true);
  });
});
