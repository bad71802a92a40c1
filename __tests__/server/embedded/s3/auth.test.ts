import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { describeEachDialect } from '../../helpers';
import { BUCKET, MIB, SERVER_CREDENTIALS, s3Failure, signedFetch, startStorage, type StorageHarness } from './harness';

const errorCode = async (response: Response) => /<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1];

describeEachDialect('embedded S3 signatures and access levels', (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    storage = await startStorage(dialect);
  });
  afterAll(async () => {
    await storage.close();
  });

  describe('signatures', () => {
    it('accepts a correctly signed request and refuses one with a changed signature byte', async () => {
      const ok = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/signed.txt`, { body: 'signed' });
      expect(ok.status).toBe(200);
      const tampered = await signedFetch(storage.endpoint, 'GET', `/${BUCKET}/public/signed.txt`, {
        tamper: (headers) => {
          headers.authorization = headers.authorization.replace(/Signature=([0-9a-f])/, (_match, c: string) => `Signature=${c === '0' ? '1' : '0'}`);
        },
      });
      expect(tampered.status).toBe(403);
      expect(await errorCode(tampered)).toBe('SignatureDoesNotMatch');
    });

    it('refuses a request whose path, date or body hash differs from what was signed', async () => {
      await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/other.txt`, { body: 'other' });
      const moved = await signedFetch(storage.endpoint, 'GET', `/${BUCKET}/public/signed.txt`, { sendTo: `/${BUCKET}/public/other.txt` });
      expect(moved.status).toBe(403);
      expect(await errorCode(moved)).toBe('SignatureDoesNotMatch');
      const redated = await signedFetch(storage.endpoint, 'GET', `/${BUCKET}/public/signed.txt`, {
        tamper: (headers) => {
          headers['x-amz-date'] = headers['x-amz-date'].replace(/(\d)Z$/, (_match, d: string) => `${(Number(d) + 1) % 10}Z`);
        },
      });
      expect(await errorCode(redated)).toBe('SignatureDoesNotMatch');
      const rehashed = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/signed.txt`, {
        body: 'replaced',
        tamper: (headers) => {
          headers['x-amz-content-sha256'] = createHash('sha256').update('replaced!').digest('hex');
        },
      });
      expect(await errorCode(rehashed)).toBe('SignatureDoesNotMatch');
    });

    it('refuses a wrong secret, an unknown key and an anonymous request', async () => {
      const wrongSecret = storage.client({ accessKeyId: SERVER_CREDENTIALS.accessKeyId, secretAccessKey: 'not-the-secret' });
      expect(await s3Failure(wrongSecret.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/signed.txt' })))).toEqual({
        code: 'SignatureDoesNotMatch',
        status: 403,
      });
      const unknown = storage.client({ accessKeyId: 'AKIAUNKNOWNUNKNOWN00', secretAccessKey: 'x' });
      expect(await s3Failure(unknown.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/signed.txt' })))).toEqual({
        code: 'InvalidAccessKeyId',
        status: 403,
      });
      const anonymous = await fetch(`${storage.endpoint}/${BUCKET}/public/signed.txt`);
      expect(anonymous.status).toBe(403);
      expect(await errorCode(anonymous)).toBe('AccessDenied');
    });

    it('refuses a replayed request with an old date and one signed for another region', async () => {
      const old = await signedFetch(storage.endpoint, 'GET', `/${BUCKET}/public/signed.txt`, { signingDate: new Date(Date.now() - 16 * 60_000) });
      expect(old.status).toBe(403);
      expect(await errorCode(old)).toBe('RequestTimeTooSkewed');
      const future = await signedFetch(storage.endpoint, 'GET', `/${BUCKET}/public/signed.txt`, { signingDate: new Date(Date.now() + 16 * 60_000) });
      expect(await errorCode(future)).toBe('RequestTimeTooSkewed');

      const otherRegion = await signedFetch(storage.endpoint, 'GET', `/${BUCKET}/public/signed.txt`, {
        tamper: (headers) => {
          headers.authorization = headers.authorization.replace('/eu-west-1/', '/us-east-1/');
        },
      });
      expect(otherRegion.status).toBe(400);
      expect(await errorCode(otherRegion)).toBe('AuthorizationHeaderMalformed');
    });

    it('enforces the session token and the expiry of temporary credentials', async () => {
      const identity = storage.identities.mint();
      const key = `private/${identity.identityId}/token.txt`;
      expect((await storage.client(identity).send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'x' }))).$metadata.httpStatusCode).toBe(200);

      const withoutToken = storage.client({ accessKeyId: identity.accessKeyId, secretAccessKey: identity.secretAccessKey });
      expect(await s3Failure(withoutToken.send(new GetObjectCommand({ Bucket: BUCKET, Key: key })))).toEqual({ code: 'InvalidAccessKeyId', status: 403 });
      const wrongToken = storage.client({ ...identity, sessionToken: `${identity.sessionToken}x` });
      expect(await s3Failure(wrongToken.send(new GetObjectCommand({ Bucket: BUCKET, Key: key })))).toEqual({ code: 'InvalidToken', status: 400 });

      const expired = storage.identities.mint({ lifetimeMs: -1000 });
      expect(await s3Failure(storage.client(expired).send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/signed.txt' })))).toEqual({
        code: 'ExpiredToken',
        status: 400,
      });
      // The server's own credentials never carry a token.
      const serverWithToken = storage.client({ ...SERVER_CREDENTIALS, sessionToken: 'token' });
      expect(await s3Failure(serverWithToken.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/signed.txt' })))).toEqual({
        code: 'InvalidToken',
        status: 400,
      });
    });
  });

  describe('payload hashes', () => {
    it('refuses a body whose SHA-256 does not match and stores nothing', async () => {
      const claimed = 'a'.repeat(64);
      const response = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/mismatch.txt`, { body: 'the real body', payloadHash: claimed });
      expect(response.status).toBe(400);
      expect(await errorCode(response)).toBe('XAmzContentSHA256Mismatch');
      expect(await s3Failure(storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/mismatch.txt' })))).toEqual({ code: 'NoSuchKey', status: 404 });
      expect(readdirSync(path.join(storage.dataDir, 'objects', '.tmp'))).toEqual([]);
    });

    it('refuses an upload with UNSIGNED-PAYLOAD and a bad Content-MD5', async () => {
      const unsigned = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/unsigned.txt`, { body: 'x', payloadHash: 'UNSIGNED-PAYLOAD' });
      expect(unsigned.status).toBe(400);
      expect(await errorCode(unsigned)).toBe('InvalidRequest');
      const badMd5 = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/md5.txt`, { body: 'x', headers: { 'content-md5': Buffer.alloc(16).toString('base64') } });
      expect(await errorCode(badMd5)).toBe('BadDigest');
      expect(existsSync(path.join(storage.dataDir, 'objects', '.tmp'))).toBe(true);
      expect(readdirSync(path.join(storage.dataDir, 'objects', '.tmp'))).toEqual([]);
    });

    it('checks a CRC32 checksum a client sends anyway', async () => {
      const good = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/crc.txt`, { body: 'hello', headers: { 'x-amz-checksum-crc32': 'NhCmhg==' } });
      expect(good.status).toBe(200);
      const bad = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/crc.txt`, { body: 'hellO', headers: { 'x-amz-checksum-crc32': 'NhCmhg==' } });
      expect(await errorCode(bad)).toBe('BadDigest');
    });

    it('checks a SHA-256 checksum a client sends anyway', async () => {
      const checksum = (body: string) => createHash('sha256').update(body).digest('base64');
      const good = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/sha.txt`, { body: 'hello', headers: { 'x-amz-checksum-sha256': checksum('hello') } });
      expect(good.status).toBe(200);
      // Signed correctly, so only the checksum can refuse it.
      const bad = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/sha.txt`, { body: 'hellO', headers: { 'x-amz-checksum-sha256': checksum('hello') } });
      expect(await errorCode(bad)).toBe('BadDigest');
      const kept = await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/sha.txt' }));
      expect(await kept.Body!.transformToString()).toBe('hello');
    });
  });

  describe('access levels', () => {
    const alice = () => storage.identities.mint({ identityId: 'eu-west-1:00000000-0000-4000-8000-00000000a11c' });
    const bob = () => storage.identities.mint({ identityId: 'eu-west-1:00000000-0000-4000-8000-000000000b0b' });

    it('keeps private objects to their owner', async () => {
      const a = alice();
      const key = `private/${a.identityId}/passport.pdf`;
      await storage.client(a).send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'secret' }));
      const own = await storage.client(a).send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(await own.Body!.transformToString()).toBe('secret');

      const b = storage.client(bob());
      expect(await s3Failure(b.send(new GetObjectCommand({ Bucket: BUCKET, Key: key })))).toEqual({ code: 'AccessDenied', status: 403 });
      expect(await s3Failure(b.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: key })))).toEqual({ code: 'AccessDenied', status: 403 });
      expect(await s3Failure(b.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `private/${a.identityId}/` })))).toEqual({ code: 'AccessDenied', status: 403 });
      // A missing private object of someone else is AccessDenied too: nothing is learnt about what exists.
      expect(await s3Failure(b.send(new GetObjectCommand({ Bucket: BUCKET, Key: `private/${a.identityId}/missing.pdf` })))).toEqual({ code: 'AccessDenied', status: 403 });
      // The server may read everything.
      expect((await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))).$metadata.httpStatusCode).toBe(200);
    });

    it('gives an identity nothing outside its own private area: public/ and protected/ are the server\'s alone', async () => {
      const a = alice();
      const b = storage.client(bob());
      for (const key of ['public/evil.js', `protected/${a.identityId}/page.html`, 'internal/config', 'public']) {
        expect(await s3Failure(b.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'x' })))).toEqual({ code: 'AccessDenied', status: 403 });
      }
      // What the server put there cannot be read, listed or deleted by an identity either.
      await storage.client().send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/shared.txt', Body: 'shared' }));
      expect(await s3Failure(b.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/shared.txt' })))).toEqual({ code: 'AccessDenied', status: 403 });
      expect(await s3Failure(b.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'public/shared.txt' })))).toEqual({ code: 'AccessDenied', status: 403 });
      for (const Prefix of [undefined, 'public/', 'protected/', 'private/']) {
        expect(await s3Failure(b.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix })))).toEqual({ code: 'AccessDenied', status: 403 });
      }
      expect((await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/shared.txt' }))).$metadata.httpStatusCode).toBe(200);
    });

    it('lists an identity\'s own area', async () => {
      const a = alice();
      await storage.client(a).send(new PutObjectCommand({ Bucket: BUCKET, Key: `private/${a.identityId}/listed.pdf`, Body: 'x' }));
      const listed = await storage.client(a).send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `private/${a.identityId}/` }));
      expect(listed.Contents?.map((object) => object.Key)).toContain(`private/${a.identityId}/listed.pdf`);
    });
  });
});

// Bodies are hashed on worker threads by default; the event loop (0) and several threads must check the same.
describe.each([0, 2])('embedded S3 payload checks with %i hashing thread(s)', (hashThreads) => {
  describeEachDialect('bodies of several batches', (dialect) => {
    let storage: StorageHarness;
    beforeAll(async () => {
      storage = await startStorage(dialect, { hashThreads });
    });
    afterAll(async () => {
      await storage.close();
    });

    it('stores a body of several batches with its MD5 as ETag, and refuses one whose last byte differs from what was signed', async () => {
      const body = randomBytes(2 * MIB + 12345);
      const stored = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/batches.bin`, { body });
      expect(stored.status).toBe(200);
      expect(stored.headers.get('etag')).toBe(`"${createHash('md5').update(body).digest('hex')}"`);

      const changed = Buffer.from(body);
      changed[changed.length - 1] ^= 1;
      const claimed = createHash('sha256').update(body).digest('hex');
      const refused = await signedFetch(storage.endpoint, 'PUT', `/${BUCKET}/public/batches.bin`, { body: changed, payloadHash: claimed });
      expect(refused.status).toBe(400);
      expect(await errorCode(refused)).toBe('XAmzContentSHA256Mismatch');
      // The object keeps its bytes, and nothing is left behind.
      const kept = await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/batches.bin' }));
      expect(Buffer.from(await kept.Body!.transformToByteArray()).equals(body)).toBe(true);
      expect(readdirSync(path.join(storage.dataDir, 'objects', '.tmp'))).toEqual([]);
    });

    it('round-trips a multipart upload through lib-storage', async () => {
      const body = randomBytes(11 * MIB);
      const result = await new Upload({ client: storage.client(), params: { Bucket: BUCKET, Key: 'public/multipart.bin', Body: body }, partSize: 5 * MIB, queueSize: 4 }).done();
      const parts = [body.subarray(0, 5 * MIB), body.subarray(5 * MIB, 10 * MIB), body.subarray(10 * MIB)];
      const partMd5s = Buffer.concat(parts.map((part) => createHash('md5').update(part).digest()));
      expect(result.ETag).toBe(`"${createHash('md5').update(partMd5s).digest('hex')}-3"`);
      const got = await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/multipart.bin' }));
      expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    });
  });
});
