import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  UploadPartCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { describeEachDialect } from '../../helpers';
import { BUCKET, MIB, REGION, SERVER_CREDENTIALS, s3Failure, signedFetch, startStorage, testBytes, type StorageHarness } from './harness';

async function startUpload(client: S3Client, Key: string): Promise<string> {
  const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key, ContentType: 'application/pdf' }));
  return UploadId!;
}

async function putPart(client: S3Client, Key: string, UploadId: string, PartNumber: number, Body: Buffer): Promise<string> {
  const { ETag } = await client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber, Body }));
  return ETag!;
}

describeEachDialect('embedded S3 multipart uploads', (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    storage = await startStorage(dialect, { maxObjectBytes: 40 * MIB });
  });
  afterAll(async () => {
    await storage.close();
  });

  it('round-trips a 12 MiB upload through lib-storage byte for byte', async () => {
    const client = storage.client();
    const body = testBytes(12 * MIB);
    const progress: number[] = [];
    const upload = new Upload({
      client,
      params: { Bucket: BUCKET, Key: 'public/big.bin', Body: body, ContentType: 'application/pdf' },
      partSize: 5 * MIB,
      queueSize: 4,
    });
    upload.on('httpUploadProgress', ({ loaded }) => progress.push(loaded ?? 0));
    const result = await upload.done();
    expect(result.ETag).toMatch(/^"[0-9a-f]{32}-3"$/);
    expect(progress[progress.length - 1]).toBe(12 * MIB);

    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/big.bin' }));
    expect(got.ContentLength).toBe(12 * MIB);
    expect(got.ContentType).toBe('application/pdf');
    expect(got.ETag).toBe(result.ETag);
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    // The parts' folder went with the completion.
    expect(readdirSync(path.join(storage.dataDir, 'uploads'))).toEqual([]);
  });

  it('also works for a client left at the SDK default checksums (CRC32 on every upload), checking them', async () => {
    const client = new S3Client({ region: REGION, endpoint: storage.endpoint, forcePathStyle: true, credentials: SERVER_CREDENTIALS, maxAttempts: 1 });
    const sentChecksums: string[] = [];
    client.middlewareStack.add(
      (next) => async (args) => {
        const crc = (args.request as { headers: Record<string, string> }).headers['x-amz-checksum-crc32'];
        if (crc) sentChecksums.push(crc);
        return next(args);
      },
      { step: 'finalizeRequest' },
    );
    try {
      const body = testBytes(11 * MIB);
      const result = await new Upload({ client, params: { Bucket: BUCKET, Key: 'public/crc-default.bin', Body: body } }).done();
      expect(result.ETag).toMatch(/-3"$/);
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/crc-single.txt', Body: 'checked' }));
      expect(sentChecksums).toHaveLength(4);
      const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/crc-default.bin' }));
      expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    } finally {
      client.destroy();
    }
  });

  it('lists parts in pages and leaves nothing after an abort', async () => {
    const client = storage.client();
    const Key = 'public/aborted.bin';
    const UploadId = await startUpload(client, Key);
    const etags = [await putPart(client, Key, UploadId, 1, testBytes(5 * MIB)), await putPart(client, Key, UploadId, 2, testBytes(MIB))];
    await putPart(client, Key, UploadId, 3, testBytes(10));

    const first = await client.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId, MaxParts: 2 }));
    expect(first.Parts?.map((part) => [part.PartNumber, part.ETag, part.Size])).toEqual([
      [1, etags[0], 5 * MIB],
      [2, etags[1], MIB],
    ]);
    expect(first.IsTruncated).toBe(true);
    const rest = await client.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId, PartNumberMarker: first.NextPartNumberMarker }));
    expect(rest.Parts?.map((part) => part.PartNumber)).toEqual([3]);
    expect(rest.IsTruncated).toBe(false);

    const aborted = await client.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId }));
    expect(aborted.$metadata.httpStatusCode).toBe(204);
    expect(await s3Failure(client.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId })))).toEqual({ code: 'NoSuchUpload', status: 404 });
    expect(await s3Failure(putPart(client, Key, UploadId, 4, testBytes(10)))).toEqual({ code: 'NoSuchUpload', status: 404 });
    expect(existsSync(path.join(storage.dataDir, 'uploads', UploadId))).toBe(false);
  });

  it('refuses parts out of order, a wrong ETag and a small part that is not the last', async () => {
    const client = storage.client();
    const Key = 'public/refused.bin';
    const UploadId = await startUpload(client, Key);
    const one = await putPart(client, Key, UploadId, 1, testBytes(5 * MIB));
    const two = await putPart(client, Key, UploadId, 2, testBytes(MIB));
    const three = await putPart(client, Key, UploadId, 3, testBytes(100));
    const complete = (Parts: { PartNumber: number; ETag: string }[]) =>
      s3Failure(client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts } })));

    expect(await complete([{ PartNumber: 2, ETag: two }, { PartNumber: 1, ETag: one }])).toEqual({ code: 'InvalidPartOrder', status: 400 });
    expect(await complete([{ PartNumber: 1, ETag: one }, { PartNumber: 2, ETag: '"00000000000000000000000000000000"' }])).toEqual({ code: 'InvalidPart', status: 400 });
    expect(await complete([{ PartNumber: 1, ETag: one }, { PartNumber: 7, ETag: two }])).toEqual({ code: 'InvalidPart', status: 400 });
    expect(await complete([{ PartNumber: 1, ETag: one }, { PartNumber: 2, ETag: two }, { PartNumber: 3, ETag: three }])).toEqual({
      code: 'EntityTooSmall',
      status: 400,
    });
    // Every refusal left the upload as it was: it still completes with parts it may use.
    const done = await client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: one }, { PartNumber: 2, ETag: two }] } }));
    expect(done.ETag).toMatch(/-2"$/);
    const head = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key, Range: 'bytes=0-0' }));
    expect(head.ContentRange).toBe(`bytes 0-0/${6 * MIB}`);
    await head.Body!.transformToByteArray();
  });

  it('answers MalformedXML for a completion body that is not the expected XML', async () => {
    const client = storage.client();
    const Key = 'public/malformed.bin';
    const UploadId = await startUpload(client, Key);
    const etag = await putPart(client, Key, UploadId, 1, testBytes(10));
    for (const body of [
      'not xml at all',
      '<CompleteMultipartUpload><Part><PartNumber>1</PartNumber>',
      '<CompleteMultipartUpload></CompleteMultipartUpload>',
      `<!DOCTYPE x [<!ENTITY e "1">]><CompleteMultipartUpload><Part><PartNumber>&e;</PartNumber><ETag>${etag}</ETag></Part></CompleteMultipartUpload>`,
      `<Other><Part><PartNumber>1</PartNumber><ETag>${etag}</ETag></Part></Other>`,
    ]) {
      const response = await signedFetch(storage.endpoint, 'POST', `/${BUCKET}/${Key}?uploadId=${UploadId}`, { body });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('<Code>MalformedXML</Code>');
    }
    const good = `<?xml version="1.0"?><CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Part><ETag>${etag.replace(/"/g, '&quot;')}</ETag><PartNumber>1</PartNumber></Part></CompleteMultipartUpload>`;
    const response = await signedFetch(storage.endpoint, 'POST', `/${BUCKET}/${Key}?uploadId=${UploadId}`, { body: good });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<CompleteMultipartUploadResult');
  });

  it('refuses objects larger than maxObjectBytes, single or multipart', async () => {
    const client = storage.client();
    expect(await s3Failure(client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/huge', Body: testBytes(41 * MIB) })))).toEqual({
      code: 'EntityTooLarge',
      status: 400,
    });
    const Key = 'public/huge-multipart';
    const UploadId = await startUpload(client, Key);
    const parts = [];
    for (let PartNumber = 1; PartNumber <= 3; PartNumber += 1) parts.push({ PartNumber, ETag: await putPart(client, Key, UploadId, PartNumber, testBytes(15 * MIB)) });
    expect(await s3Failure(client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts: parts } })))).toEqual({
      code: 'EntityTooLarge',
      status: 400,
    });
    expect(await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key })))).toEqual({ code: 'NoSuchKey', status: 404 });
  });

  it('refuses an upload id to every identity but the one that created it', async () => {
    const alice = storage.identities.mint();
    const bob = storage.identities.mint();
    const aliceClient = storage.client(alice);
    const bobClient = storage.client(bob);
    const Key = `private/${alice.identityId}/shared-area.bin`;
    const UploadId = await startUpload(aliceClient, Key);
    const etag = await putPart(aliceClient, Key, UploadId, 1, testBytes(100));

    expect(await s3Failure(putPart(bobClient, Key, UploadId, 2, testBytes(100)))).toEqual({ code: 'AccessDenied', status: 403 });
    expect(await s3Failure(bobClient.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId })))).toEqual({ code: 'AccessDenied', status: 403 });
    expect(
      await s3Failure(bobClient.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag: etag }] } }))),
    ).toEqual({ code: 'AccessDenied', status: 403 });
    expect(await s3Failure(bobClient.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId })))).toEqual({ code: 'AccessDenied', status: 403 });

    const privateKey = `private/${alice.identityId}/id.pdf`;
    const privateUpload = await startUpload(aliceClient, privateKey);
    expect(await s3Failure(bobClient.send(new ListPartsCommand({ Bucket: BUCKET, Key: privateKey, UploadId: privateUpload })))).toEqual({
      code: 'AccessDenied',
      status: 403,
    });
    expect(await s3Failure(startUpload(bobClient, privateKey))).toEqual({ code: 'AccessDenied', status: 403 });

    // Alice still owns both.
    const listed = await aliceClient.send(new ListPartsCommand({ Bucket: BUCKET, Key, UploadId }));
    expect(listed.Parts?.map((part) => part.PartNumber)).toEqual([1]);
    await aliceClient.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId }));
    await aliceClient.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: privateKey, UploadId: privateUpload }));
  });

  it('answers NoSuchUpload for an unknown upload id or one used with another key', async () => {
    const client = storage.client();
    const UploadId = await startUpload(client, 'public/one.bin');
    expect(await s3Failure(client.send(new ListPartsCommand({ Bucket: BUCKET, Key: 'public/two.bin', UploadId })))).toEqual({ code: 'NoSuchUpload', status: 404 });
    expect(await s3Failure(client.send(new ListPartsCommand({ Bucket: BUCKET, Key: 'public/one.bin', UploadId: 'x'.repeat(32) })))).toEqual({
      code: 'NoSuchUpload',
      status: 404,
    });
    expect(await s3Failure(client.send(new ListPartsCommand({ Bucket: BUCKET, Key: 'public/one.bin', UploadId: '../../objects' })))).toEqual({
      code: 'NoSuchUpload',
      status: 404,
    });
    await client.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'public/one.bin', UploadId }));
  });
});
