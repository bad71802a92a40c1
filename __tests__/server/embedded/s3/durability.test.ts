import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { describeEachDialect } from '../../helpers';
import { BUCKET, MIB, REGION, SERVER_CREDENTIALS, s3Failure, startStorage, testBytes, type StorageHarness } from './harness';

/** Polls until `check` passes (the server finishes a refused upload after the client is gone). */
async function eventually(check: () => void, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

const bodyOf = async (storage: StorageHarness, Key: string) =>
  Buffer.from(await (await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key }))).Body!.transformToByteArray());

describeEachDialect('embedded S3 durability', (dialect) => {
  let storage: StorageHarness;
  beforeEach(async () => {
    storage = await startStorage(dialect, { abandonedUploadSeconds: 3600, orphanGraceSeconds: 60 });
  });
  afterEach(async () => {
    await storage.close();
  });

  it('survives a restart in the middle of multipart uploads: objects intact, uploads completed or aborted after it', async () => {
    const before = storage.client();
    const kept = testBytes(3000);
    await before.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/kept.pdf', Body: kept }));
    const first = testBytes(5 * MIB);
    const { UploadId: resumed } = await before.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'public/resumed.bin', ContentType: 'application/pdf' }));
    const one = await before.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'public/resumed.bin', UploadId: resumed, PartNumber: 1, Body: first }));
    const { UploadId: dropped } = await before.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'public/dropped.bin' }));
    await before.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'public/dropped.bin', UploadId: dropped, PartNumber: 1, Body: testBytes(100) }));

    await storage.restart();
    const after = storage.client();

    expect((await bodyOf(storage, 'public/kept.pdf')).equals(kept)).toBe(true);

    const second = testBytes(1000);
    const two = await after.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'public/resumed.bin', UploadId: resumed, PartNumber: 2, Body: second }));
    await after.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: 'public/resumed.bin',
        UploadId: resumed,
        MultipartUpload: { Parts: [{ PartNumber: 1, ETag: one.ETag }, { PartNumber: 2, ETag: two.ETag }] },
      }),
    );
    expect((await bodyOf(storage, 'public/resumed.bin')).equals(Buffer.concat([first, second]))).toBe(true);

    const listed = await after.send(new ListPartsCommand({ Bucket: BUCKET, Key: 'public/dropped.bin', UploadId: dropped }));
    expect(listed.Parts?.map((part) => part.Size)).toEqual([100]);
    await after.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'public/dropped.bin', UploadId: dropped }));
    expect(await s3Failure(after.send(new ListPartsCommand({ Bucket: BUCKET, Key: 'public/dropped.bin', UploadId: dropped })))).toEqual({
      code: 'NoSuchUpload',
      status: 404,
    });
    expect(readdirSync(path.join(storage.dataDir, 'uploads'))).toEqual([]);
  });

  it('stores nothing when the client goes away in the middle of a body', async () => {
    const { host, pathname } = new URL(storage.endpoint);
    const body = testBytes(2 * MIB);
    const signer = new SignatureV4({ credentials: SERVER_CREDENTIALS, region: REGION, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
    const signed = await signer.sign({
      method: 'PUT',
      protocol: 'http:',
      hostname: '127.0.0.1',
      path: `${pathname}/${BUCKET}/public/torn.bin`,
      headers: { host, 'content-length': String(body.length), 'x-amz-content-sha256': createHash('sha256').update(body).digest('hex') },
    });
    await new Promise<void>((resolve) => {
      const request = httpRequest({ host: '127.0.0.1', port: Number(new URL(storage.endpoint).port), method: 'PUT', path: signed.path, headers: signed.headers });
      request.on('error', () => resolve());
      request.write(body.subarray(0, MIB), () => {
        request.destroy();
        resolve();
      });
    });
    await eventually(() => expect(readdirSync(path.join(storage.dataDir, 'objects', '.tmp'))).toEqual([]));
    expect(await s3Failure(storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/torn.bin' })))).toEqual({ code: 'NoSuchKey', status: 404 });
  });

  it('sweeps abandoned uploads and files no row points at, and nothing else', async () => {
    const client = storage.client();
    const object = testBytes(500);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/live.pdf', Body: object }));
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'public/abandoned.bin' }));
    await client.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'public/abandoned.bin', UploadId, PartNumber: 1, Body: testBytes(100) }));

    // What a crash can leave: a temp file, an object file whose row was never written, an upload folder without a row.
    const objects = path.join(storage.dataDir, 'objects');
    writeFileSync(path.join(objects, '.tmp', 'torn'), 'partial');
    mkdirSync(path.join(objects, 'ff'), { recursive: true });
    writeFileSync(path.join(objects, 'ff', 'ff000000-0000-4000-8000-000000000000'), 'unreferenced');
    const strayUpload = path.join(storage.dataDir, 'uploads', 'A'.repeat(32));
    mkdirSync(strayUpload);
    writeFileSync(path.join(strayUpload, '1-abcdef'), 'part');

    // Young files and uploads are left alone: a request may be about to commit them.
    expect(await storage.maintenance.sweep()).toEqual({ abandonedUploads: 0, orphanFiles: 0, staleReservations: 0 });
    expect(existsSync(path.join(objects, '.tmp', 'torn'))).toBe(true);

    storage.clock.offsetMs = 2 * 3600_000;
    expect(await storage.maintenance.sweep()).toEqual({ abandonedUploads: 1, orphanFiles: 3, staleReservations: 0 });
    storage.clock.offsetMs = 0;
    expect(await s3Failure(client.send(new ListPartsCommand({ Bucket: BUCKET, Key: 'public/abandoned.bin', UploadId })))).toEqual({ code: 'NoSuchUpload', status: 404 });
    expect(readdirSync(path.join(storage.dataDir, 'uploads'))).toEqual([]);
    expect(readdirSync(path.join(objects, '.tmp'))).toEqual([]);
    expect(existsSync(path.join(objects, 'ff', 'ff000000-0000-4000-8000-000000000000'))).toBe(false);
    expect((await bodyOf(storage, 'public/live.pdf')).equals(object)).toBe(true);
  });
});
