// Writes that may only create (If-None-Match: *), as S3 takes them on PutObject and CompleteMultipartUpload: the
// key holding an object answers 412 PreconditionFailed and changes nothing; of writes at the same moment one wins;
// a delete that runs while the write is under way answers 409 ConditionalRequestConflict. With the unmodified SDK.
import { createHash } from 'node:crypto';
import { watch, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { describeEachDialect } from '../../helpers';
import { BUCKET, REGION, SERVER_CREDENTIALS, s3Failure, signedFetch, startStorage, testBytes, type StorageHarness } from './harness';

const bytesOf = async (client: S3Client, Key: string) => Buffer.from(await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key }))).Body!.transformToByteArray());

/** The files holding objects' bytes (not those being written): a refused write must leave none behind. */
function objectFiles(dataDir: string): string[] {
  const root = path.join(dataDir, 'objects');
  return readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((name) => !name.startsWith('.tmp') && statSync(path.join(root, name)).isFile());
}

/** A one-part multipart upload of `body` to `Key`, ready to complete: its id and the part list. */
async function uploadedParts(client: S3Client, Key: string, body: Buffer) {
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
  const { ETag } = await client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: body }));
  return { UploadId: UploadId!, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } };
}

describeEachDialect('embedded S3 writes that may only create', (dialect) => {
  let storage: StorageHarness;
  let client: S3Client;
  beforeAll(async () => {
    storage = await startStorage(dialect);
    client = storage.client();
  });
  afterAll(() => storage.close());

  it('creates where nothing is, then answers 412 PreconditionFailed and keeps the first object', async () => {
    const first = testBytes(1000);
    const created = await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'evidence/a/model036/1', Body: first, IfNoneMatch: '*' }));
    expect(created.ETag).toBe(`"${createHash('md5').update(first).digest('hex')}"`);
    const files = objectFiles(storage.dataDir).length;

    expect(await s3Failure(client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'evidence/a/model036/1', Body: testBytes(1000), IfNoneMatch: '*' })))).toEqual({
      code: 'PreconditionFailed',
      status: 412,
    });
    expect((await bytesOf(client, 'evidence/a/model036/1')).equals(first)).toBe(true);
    expect(objectFiles(storage.dataDir)).toHaveLength(files);
    // Without the header the same key is replaced, as always.
    const second = testBytes(10);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'evidence/a/model036/1', Body: second }));
    expect((await bytesOf(client, 'evidence/a/model036/1')).equals(second)).toBe(true);
  });

  it('of eight creates of one key at the same moment, one wins and seven answer 412; the object is the winner', async () => {
    const bodies = Array.from({ length: 8 }, (_, index) => testBytes(2000 + index));
    const files = objectFiles(storage.dataDir).length;
    const outcomes = await Promise.allSettled(bodies.map((Body) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'evidence/race/selfie/1', Body, IfNoneMatch: '*' }))));
    const won = outcomes.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
    expect(won).toHaveLength(1);
    const refused = await Promise.all(outcomes.filter((outcome) => outcome.status === 'rejected').map((outcome) => s3Failure(Promise.reject((outcome as PromiseRejectedResult).reason))));
    expect(refused).toEqual(Array.from({ length: 7 }, () => ({ code: 'PreconditionFailed', status: 412 })));
    expect((await bytesOf(client, 'evidence/race/selfie/1')).equals(bodies[won[0]])).toBe(true);
    expect(objectFiles(storage.dataDir)).toHaveLength(files + 1);
  });

  it('completes a multipart upload only where nothing is: onto an object, 412, the object kept and the upload still there', async () => {
    const existing = testBytes(300);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'evidence/b/deeds/1', Body: existing }));
    const upload = await uploadedParts(client, 'evidence/b/deeds/1', testBytes(400));
    expect(await s3Failure(client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: 'evidence/b/deeds/1', ...upload, IfNoneMatch: '*' })))).toEqual({
      code: 'PreconditionFailed',
      status: 412,
    });
    expect((await bytesOf(client, 'evidence/b/deeds/1')).equals(existing)).toBe(true);
    expect((await client.send(new ListPartsCommand({ Bucket: BUCKET, Key: 'evidence/b/deeds/1', UploadId: upload.UploadId }))).Parts).toHaveLength(1);
    await client.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'evidence/b/deeds/1', UploadId: upload.UploadId }));

    // Where nothing is, it completes.
    const body = testBytes(500);
    const fresh = await uploadedParts(client, 'evidence/b/deeds/2', body);
    await client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: 'evidence/b/deeds/2', ...fresh, IfNoneMatch: '*' }));
    expect((await bytesOf(client, 'evidence/b/deeds/2')).equals(body)).toBe(true);
  });

  it('of three multipart creates of one key completed at the same moment, one wins and two answer 412', async () => {
    const bodies = [testBytes(700), testBytes(701), testBytes(702)];
    const uploads = await Promise.all(bodies.map((body) => uploadedParts(client, 'evidence/c/model200/1', body)));
    const outcomes = await Promise.allSettled(
      uploads.map((upload) => client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: 'evidence/c/model200/1', ...upload, IfNoneMatch: '*' }))),
    );
    const won = outcomes.flatMap((outcome, index) => (outcome.status === 'fulfilled' ? [index] : []));
    expect(won).toHaveLength(1);
    for (const outcome of outcomes.filter((each) => each.status === 'rejected')) {
      expect(await s3Failure(Promise.reject((outcome as PromiseRejectedResult).reason))).toEqual({ code: 'PreconditionFailed', status: 412 });
    }
    expect((await bytesOf(client, 'evidence/c/model200/1')).equals(bodies[won[0]])).toBe(true);
  });

  it('answers 409 ConditionalRequestConflict when the object is deleted while the create is under way, and stores nothing', async () => {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'evidence/d/front/1', Body: testBytes(50) }));
    const body = testBytes(64 * 1024);
    const url = new URL(`${storage.endpoint}/${BUCKET}/evidence/d/front/1`);
    const { SignatureV4 } = await import('@smithy/signature-v4');
    const { Sha256 } = await import('@aws-crypto/sha256-js');
    const signer = new SignatureV4({ credentials: SERVER_CREDENTIALS, region: REGION, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
    const signed = await signer.sign({
      method: 'PUT',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      headers: { host: url.host, 'content-length': String(body.length), 'if-none-match': '*', 'x-amz-content-sha256': createHash('sha256').update(body).digest('hex') },
    });
    // The endpoint writes the body to a file of its own once it has read the key's state: the moment to delete.
    const tmpDir = path.join(storage.dataDir, 'objects', '.tmp');
    const receiving = new Promise<void>((resolve) => {
      const watcher = watch(tmpDir, () => {
        watcher.close();
        resolve();
      });
    });
    const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
      const put = request(url, { method: 'PUT', headers: signed.headers }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += String(chunk)));
        response.on('end', () => resolve({ status: response.statusCode!, text }));
      });
      put.on('error', reject);
      put.write(body.subarray(0, 1024));
      void receiving.then(async () => {
        await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'evidence/d/front/1' }));
        put.end(body.subarray(1024));
      });
    });
    const { status, text } = await answer;
    expect(status).toBe(409);
    expect(text).toContain('<Code>ConditionalRequestConflict</Code>');
    expect(await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'evidence/d/front/1' })))).toEqual({ code: 'NoSuchKey', status: 404 });
    // Asked again, as S3 says to, the create goes through.
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'evidence/d/front/1', Body: body, IfNoneMatch: '*' }));
    expect((await bytesOf(client, 'evidence/d/front/1')).equals(body)).toBe(true);
  });

  it('refuses the preconditions it does not implement rather than ignore them: If-Match, or If-None-Match with an entity tag', async () => {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'evidence/e/1', Body: testBytes(10) }));
    for (const headers of [{ 'if-match': '"abc"' }, { 'if-none-match': '"abc"' }] as Record<string, string>[]) {
      const answer = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/evidence/e/1`, { body: 'replaced', headers });
      expect(answer.status).toBe(501);
      expect(await answer.text()).toContain('<Code>NotImplemented</Code>');
    }
    expect((await bytesOf(client, 'evidence/e/1')).toString()).not.toBe('replaced');
  });
});
