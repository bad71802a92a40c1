import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { describeEachDialect } from '../../helpers';
import { BUCKET, s3Failure, signedFetch, startStorage, testBytes, type StorageHarness } from './harness';

describeEachDialect('embedded S3 objects', (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    storage = await startStorage(dialect);
  });
  afterAll(async () => {
    await storage.close();
  });

  it('stores a small object and gives back the same bytes and content type', async () => {
    const client = storage.client();
    const body = testBytes(1000);
    const put = await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/a.pdf', Body: body, ContentType: 'application/pdf' }));
    expect(put.ETag).toMatch(/^"[0-9a-f]{32}"$/);

    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/a.pdf' }));
    expect(Buffer.from(await got.Body!.transformToByteArray())).toEqual(body);
    expect(got.ContentType).toBe('application/pdf');
    expect(got.ContentLength).toBe(1000);
    expect(got.ETag).toBe(put.ETag);
    expect(got.AcceptRanges).toBe('bytes');
  });

  it('gives an object stored without a content type binary/octet-stream', async () => {
    const client = storage.client();
    // The SDK always names a content type, so this one goes out signed by hand, without it.
    const put = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/untyped`, { body: 'x' });
    expect(put.status).toBe(200);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'public/untyped' }));
    expect(head.ContentType).toBe('binary/octet-stream');
    expect(head.ContentLength).toBe(1);
  });

  it('keeps metadata and answers NoSuchKey after a delete', async () => {
    const client = storage.client();
    await client.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: 'public/meta.txt', Body: 'hello', Metadata: { origin: 'test' }, ContentDisposition: 'attachment' }),
    );
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'public/meta.txt' }));
    expect(head.Metadata).toEqual({ origin: 'test' });
    expect(head.ContentDisposition).toBe('attachment');

    const deleted = await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'public/meta.txt' }));
    expect(deleted.$metadata.httpStatusCode).toBe(204);
    expect(await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/meta.txt' })))).toEqual({ code: 'NoSuchKey', status: 404 });
    expect(await s3Failure(client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'public/meta.txt' })))).toEqual({ code: 'NotFound', status: 404 });
  });

  it('keeps keys with spaces, plus signs, percent signs, unicode, and up to 1024 bytes', async () => {
    const client = storage.client();
    const odd = "public/a b+c%20d/ñandú (1)!'*~@$&=;,?#[].pdf";
    const long = `public/${'x'.repeat(1024 - 'public/'.length)}`;
    for (const Key of [odd, long]) {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: Key }));
      const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key }));
      expect(await got.Body!.transformToString()).toBe(Key);
    }
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'public/a b+c' }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual([odd]);
    expect(await s3Failure(client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${long}y`, Body: 'x' })))).toEqual({ code: 'KeyTooLongError', status: 400 });
  });

  it('answers NoSuchBucket for a bucket that does not exist', async () => {
    const failure = await s3Failure(storage.client().send(new GetObjectCommand({ Bucket: 'other-bucket', Key: 'public/a' })));
    expect(failure).toEqual({ code: 'NoSuchBucket', status: 404 });
  });

  it('overwrites an object in place', async () => {
    const client = storage.client();
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/over', Body: 'first version' }));
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/over', Body: 'second' }));
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/over' }));
    expect(await got.Body!.transformToString()).toBe('second');
  });

  it('serves byte ranges as 206 with Content-Range, and 416 past the end', async () => {
    const client = storage.client();
    const body = testBytes(5000);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/range.bin', Body: body }));

    const middle = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/range.bin', Range: 'bytes=100-199' }));
    expect(middle.$metadata.httpStatusCode).toBe(206);
    expect(middle.ContentRange).toBe('bytes 100-199/5000');
    expect(Buffer.from(await middle.Body!.transformToByteArray())).toEqual(body.subarray(100, 200));

    const suffix = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/range.bin', Range: 'bytes=-10' }));
    expect(suffix.ContentRange).toBe('bytes 4990-4999/5000');
    expect(Buffer.from(await suffix.Body!.transformToByteArray())).toEqual(body.subarray(4990));

    const open = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/range.bin', Range: 'bytes=4000-' }));
    expect(open.ContentLength).toBe(1000);

    expect(await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/range.bin', Range: 'bytes=5000-5010' })))).toEqual({
      code: 'InvalidRange',
      status: 416,
    });
  });

  it('answers conditional GETs with 304 and 412 as S3 does', async () => {
    const client = storage.client();
    const { ETag } = await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/cond', Body: 'conditional' }));
    const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/cond' }));
    const lastModified = got.LastModified!;
    await got.Body!.transformToString();

    expect((await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/cond', IfNoneMatch: ETag })))).status).toBe(304);
    const changed = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/cond', IfNoneMatch: '"0123"' }));
    expect(await changed.Body!.transformToString()).toBe('conditional');

    const unchanged = await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/cond', IfModifiedSince: new Date(lastModified.getTime() + 1000) })));
    expect(unchanged.status).toBe(304);
    const modified = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/cond', IfModifiedSince: new Date(lastModified.getTime() - 60_000) }));
    expect(modified.$metadata.httpStatusCode).toBe(200);
    await modified.Body!.transformToString();

    expect(await s3Failure(client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/cond', IfMatch: '"0123"' })))).toEqual({
      code: 'PreconditionFailed',
      status: 412,
    });
  });

  it('lists with prefix and delimiter, in pages, with ListObjects and ListObjectsV2', async () => {
    const client = storage.client();
    const keys = ['public/list/a.txt', 'public/list/b/1.txt', 'public/list/b/2.txt', 'public/list/c.txt', 'public/list/d/1.txt', 'public/listing.txt'];
    for (const Key of keys) await client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: Key }));

    const v2 = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'public/list/', Delimiter: '/' }));
    expect(v2.Contents?.map((object) => object.Key)).toEqual(['public/list/a.txt', 'public/list/c.txt']);
    expect(v2.CommonPrefixes?.map((prefix) => prefix.Prefix)).toEqual(['public/list/b/', 'public/list/d/']);
    expect(v2.KeyCount).toBe(4);
    expect(v2.IsTruncated).toBe(false);
    expect(v2.Contents?.[0].Size).toBe('public/list/a.txt'.length);

    // Pages of two: a.txt + b/ | c.txt + d/
    const first = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'public/list/', Delimiter: '/', MaxKeys: 2 }));
    expect(first.IsTruncated).toBe(true);
    expect([...(first.Contents ?? []).map((o) => o.Key), ...(first.CommonPrefixes ?? []).map((p) => p.Prefix)]).toEqual(['public/list/a.txt', 'public/list/b/']);
    const second = await client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'public/list/', Delimiter: '/', MaxKeys: 2, ContinuationToken: first.NextContinuationToken }),
    );
    expect(second.IsTruncated).toBe(false);
    expect([...(second.Contents ?? []).map((o) => o.Key), ...(second.CommonPrefixes ?? []).map((p) => p.Prefix)]).toEqual(['public/list/c.txt', 'public/list/d/']);

    const startAfter = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'public/list', StartAfter: 'public/list/c.txt' }));
    expect(startAfter.Contents?.map((object) => object.Key)).toEqual(['public/list/d/1.txt', 'public/listing.txt']);

    const v1 = await client.send(new ListObjectsCommand({ Bucket: BUCKET, Prefix: 'public/list/', Delimiter: '/', MaxKeys: 3 }));
    expect(v1.Contents?.map((object) => object.Key)).toEqual(['public/list/a.txt', 'public/list/c.txt']);
    expect(v1.CommonPrefixes?.map((prefix) => prefix.Prefix)).toEqual(['public/list/b/']);
    expect(v1.IsTruncated).toBe(true);
    expect(v1.NextMarker).toBe('public/list/c.txt');
    const v1next = await client.send(new ListObjectsCommand({ Bucket: BUCKET, Prefix: 'public/list/', Delimiter: '/', Marker: v1.NextMarker }));
    expect(v1next.CommonPrefixes?.map((prefix) => prefix.Prefix)).toEqual(['public/list/d/']);
    expect(v1next.Contents ?? []).toEqual([]);

    const flat = await client.send(new ListObjectsCommand({ Bucket: BUCKET, Prefix: 'public/list/b/', Marker: 'public/list/b/1.txt' }));
    expect(flat.Contents?.map((object) => object.Key)).toEqual(['public/list/b/2.txt']);
  });

  it('sorts keys byte by byte, as S3 lists them', async () => {
    const client = storage.client();
    const keys = ['public/sort/B', 'public/sort/a', 'public/sort/é', 'public/sort/Z', 'public/sort/_', 'public/sort/1'];
    for (const Key of keys) await client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: 'x' }));
    const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'public/sort/' }));
    expect(listed.Contents?.map((object) => object.Key)).toEqual([...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
  });

  it("answers the browser SDK's CORS preflight and exposes ETag", async () => {
    const requested = 'authorization,content-type,x-amz-date,x-amz-content-sha256,x-amz-security-token,x-amz-user-agent,amz-sdk-invocation-id,amz-sdk-request,x-amz-meta-origin';
    const preflight = await fetch(`${storage.endpoint}/${BUCKET}/public/cors.pdf?partNumber=1&uploadId=x`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:8080', 'access-control-request-method': 'PUT', 'access-control-request-headers': requested },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    const allowed = preflight.headers.get('access-control-allow-headers')!.split(', ');
    expect(requested.split(',').filter((name) => !allowed.includes(name))).toEqual([]);

    const put = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/cors.pdf`, { body: 'x', headers: { origin: 'http://localhost:8080' } });
    expect(put.headers.get('access-control-allow-origin')).toBe('*');
    const exposed = put.headers.get('access-control-expose-headers')!.split(', ');
    expect(exposed).toEqual(expect.arrayContaining(['etag', 'x-amz-version-id', 'x-amz-checksum-crc32', 'content-range', 'accept-ranges']));
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
  });

  it('refuses keys XML cannot carry, so every listing stays valid XML, and never echoes them raw', async () => {
    const client = storage.client();
    for (const Key of ['public/bell\u0007.pdf', 'public/nul\u0000.pdf', 'public/esc\u001b[31m.pdf']) {
      expect(await s3Failure(client.send(new PutObjectCommand({ Bucket: BUCKET, Key, Body: 'x' })))).toEqual({ code: 'InvalidArgument', status: 400 });
    }
    const listed = await signedFetch(storage.endpoint, 'GET', `/${BUCKET}?list-type=2&prefix=${encodeURIComponent('public/\u0007')}`);
    const xml = await listed.text();
    expect(listed.status).toBe(200);
    expect([...xml].filter((c) => c < ' ' && !'\t\n\r'.includes(c))).toEqual([]);
    expect(xml).toContain('<Prefix>public/\uFFFD</Prefix>');
  });
});
