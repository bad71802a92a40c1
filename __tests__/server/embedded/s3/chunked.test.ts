// aws-chunked uploads, as the SDKs and the CLI stream them: the unmodified JS SDK with a stream body (over
// HTTP and HTTPS), and hand-built signed bodies for what the SDK does not send (signed chunks, tampering).
import { createHash, createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { GetObjectCommand, PutObjectCommand, S3Client, UploadPartCommand, CreateMultipartUploadCommand, AbortMultipartUploadCommand } from '@aws-sdk/client-s3';
import { Sha256 } from '@aws-crypto/sha256-js';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { SignatureV4 } from '@smithy/signature-v4';
import Fastify from 'fastify';
import { embeddedS3 } from '../../../../server/embedded/s3';
import { describeEachDialect, openTestDatabase } from '../../helpers';
import { BUCKET, REGION, SERVER_CREDENTIALS, s3Failure, startStorage, testBytes, type StorageHarness } from './harness';

/** A client as applications configure it by default: checksums on every upload (a CRC32 trailer for streams). */
function defaultClient(endpoint: string, requestHandler?: NodeHttpHandler): S3Client {
  return new S3Client({ region: REGION, endpoint, forcePathStyle: true, credentials: SERVER_CREDENTIALS, maxAttempts: 1, requestHandler });
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A signed aws-chunked PutObject built by hand: the chunk signatures chain from the header signature. */
async function signedChunkedPut(
  endpoint: string,
  key: string,
  chunks: Buffer[],
  options: { trailer?: { name: string; value: string }; corrupt?: 'chunk' | 'trailer' | 'framing'; decodedLength?: number } = {},
): Promise<Response> {
  const url = new URL(`${endpoint}/${BUCKET}/${key}`);
  const mode = options.trailer ? 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER' : 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD';
  const decodedLength = options.decodedLength ?? chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const headers: Record<string, string> = {
    host: url.host,
    'x-amz-content-sha256': mode,
    'content-encoding': 'aws-chunked',
    'x-amz-decoded-content-length': String(decodedLength),
    ...(options.trailer ? { 'x-amz-trailer': options.trailer.name } : {}),
  };
  const signingDate = new Date();
  const signer = new SignatureV4({ credentials: SERVER_CREDENTIALS, region: REGION, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  const signed = await signer.sign({ method: 'PUT', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, query: {}, headers }, { signingDate });
  const sentHeaders = signed.headers as Record<string, string>;
  const seed = /Signature=([0-9a-f]{64})/.exec(sentHeaders.authorization)![1];
  const amzDate = sentHeaders['x-amz-date'];
  const date = amzDate.slice(0, 8);
  const scope = `${date}/${REGION}/s3/aws4_request`;
  const key4 = hmac(hmac(hmac(hmac(`AWS4${SERVER_CREDENTIALS.secretAccessKey}`, date), REGION), 's3'), 'aws4_request');
  let previous = seed;
  const parts: Buffer[] = [];
  for (const chunk of [...chunks, Buffer.alloc(0)]) {
    const signature = hmac(key4, ['AWS4-HMAC-SHA256-PAYLOAD', amzDate, scope, previous, sha256Hex(''), sha256Hex(chunk)].join('\n')).toString('hex');
    const sent = options.corrupt === 'chunk' && chunk.length > 0 ? signature.replace(/^./, (c) => (c === '0' ? '1' : '0')) : signature;
    parts.push(Buffer.from(`${chunk.length.toString(16)};chunk-signature=${sent}\r\n`), chunk);
    if (chunk.length > 0 || !options.trailer) parts.push(Buffer.from('\r\n'));
    previous = signature;
  }
  if (options.trailer) {
    const line = `${options.trailer.name}:${options.trailer.value}\n`;
    const trailerSignature = hmac(key4, ['AWS4-HMAC-SHA256-TRAILER', amzDate, scope, previous, sha256Hex(line)].join('\n')).toString('hex');
    const sent = options.corrupt === 'trailer' ? trailerSignature.replace(/^./, (c) => (c === '0' ? '1' : '0')) : trailerSignature;
    parts.push(Buffer.from(`${options.trailer.name}:${options.trailer.value}\r\nx-amz-trailer-signature:${sent}\r\n\r\n`));
  }
  let body = Buffer.concat(parts);
  if (options.corrupt === 'framing') body = Buffer.from(body.toString('latin1').replace(/^[0-9a-f]+;/, 'zz;'), 'latin1');
  delete sentHeaders.host;
  return fetch(url, { method: 'PUT', headers: sentHeaders, body });
}

const crc32Base64 = async (data: Buffer) => {
  const { Crc32 } = await import('@aws-sdk/checksums/crc');
  const crc = new Crc32();
  crc.update(data);
  return Buffer.from(await crc.digest()).toString('base64');
};

describeEachDialect('embedded S3 aws-chunked uploads', (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    storage = await startStorage(dialect);
  });
  afterAll(() => storage.close());

  const read = async (Key: string) => Buffer.from(await (await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key }))).Body!.transformToByteArray());

  it('takes PutObject and UploadPart from the unmodified JS SDK with a stream body (unsigned chunks, CRC32 trailer)', async () => {
    const client = defaultClient(storage.endpoint);
    const sent: string[] = [];
    client.middlewareStack.add(
      (next) => async (args) => {
        sent.push((args.request as { headers: Record<string, string> }).headers['x-amz-content-sha256']);
        return next(args);
      },
      { step: 'finalizeRequest', priority: 'low' },
    );
    const bytes = testBytes(300_000);
    const put = await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/streamed.bin', Body: Readable.from([bytes.subarray(0, 100_000), bytes.subarray(100_000)]), ContentLength: bytes.length }));
    expect(put.ETag).toBe(`"${createHash('md5').update(bytes).digest('hex')}"`);
    expect((await read('public/streamed.bin')).equals(bytes)).toBe(true);
    // aws-chunked described the upload, not the object.
    const got = await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/streamed.bin' }));
    expect(got.ContentEncoding).toBeUndefined();

    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: 'public/streamed-parts.bin' }));
    const part = await client.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'public/streamed-parts.bin', UploadId, PartNumber: 1, Body: Readable.from([bytes]), ContentLength: bytes.length }));
    expect(part.ETag).toBe(`"${createHash('md5').update(bytes).digest('hex')}"`);
    await client.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'public/streamed-parts.bin', UploadId }));
    // The SDK really streamed: both uploads went as aws-chunked with a trailer.
    expect(sent.filter((hash) => hash === 'STREAMING-UNSIGNED-PAYLOAD-TRAILER')).toHaveLength(2);
  });

  it('takes signed chunks, with and without a signed trailer, and checks every chunk signature', async () => {
    const chunks = [testBytes(70_000), testBytes(9_000)];
    const whole = Buffer.concat(chunks);
    expect((await signedChunkedPut(storage.endpoint, 'public/signed-chunks.bin', chunks)).status).toBe(200);
    expect((await read('public/signed-chunks.bin')).equals(whole)).toBe(true);
    const trailer = { name: 'x-amz-checksum-crc32', value: await crc32Base64(whole) };
    expect((await signedChunkedPut(storage.endpoint, 'public/signed-trailer.bin', chunks, { trailer })).status).toBe(200);
    expect((await read('public/signed-trailer.bin')).equals(whole)).toBe(true);
  });

  it('refuses a wrong chunk or trailer signature, a wrong checksum, a short body and broken framing, and keeps the stored object', async () => {
    const original = testBytes(1000);
    await storage.client().send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/kept.bin', Body: original }));
    const chunks = [testBytes(10_000)];
    const codeOf = async (response: Response) => ({ status: response.status, code: /<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1] });
    expect(await codeOf(await signedChunkedPut(storage.endpoint, 'public/kept.bin', chunks, { corrupt: 'chunk' }))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    const trailer = { name: 'x-amz-checksum-crc32', value: await crc32Base64(chunks[0]) };
    expect(await codeOf(await signedChunkedPut(storage.endpoint, 'public/kept.bin', chunks, { trailer, corrupt: 'trailer' }))).toEqual({ status: 403, code: 'SignatureDoesNotMatch' });
    const wrongSum = { name: 'x-amz-checksum-crc32', value: await crc32Base64(Buffer.from('other bytes')) };
    expect(await codeOf(await signedChunkedPut(storage.endpoint, 'public/kept.bin', chunks, { trailer: wrongSum }))).toEqual({ status: 400, code: 'BadDigest' });
    expect(await codeOf(await signedChunkedPut(storage.endpoint, 'public/kept.bin', chunks, { decodedLength: 20_000 }))).toEqual({ status: 400, code: 'IncompleteBody' });
    expect(await codeOf(await signedChunkedPut(storage.endpoint, 'public/kept.bin', chunks, { corrupt: 'framing' }))).toEqual({ status: 400, code: 'InvalidRequest' });
    expect((await read('public/kept.bin')).equals(original)).toBe(true);
  });

  it('checks each trailing checksum S3 takes, over a body of several batches: the right one stores, a wrong one is BadDigest', async () => {
    const { Crc32, Crc32c, Crc64Nvme } = await import('@aws-sdk/checksums/crc');
    const sdkSum = async (Checksum: new () => { update(data: Uint8Array): void; digest(): Promise<Uint8Array> }, data: Buffer) => {
      const sum = new Checksum();
      sum.update(data);
      return Buffer.from(await sum.digest()).toString('base64');
    };
    const sums: Record<string, (data: Buffer) => Promise<string>> = {
      'x-amz-checksum-crc32': (data) => sdkSum(Crc32, data),
      'x-amz-checksum-crc32c': (data) => sdkSum(Crc32c, data),
      'x-amz-checksum-crc64nvme': (data) => sdkSum(Crc64Nvme, data),
      'x-amz-checksum-sha1': async (data) => createHash('sha1').update(data).digest('base64'),
      'x-amz-checksum-sha256': async (data) => createHash('sha256').update(data).digest('base64'),
    };
    // Chunks that do not line up with the endpoint's 1 MiB batches.
    const chunks = [testBytes(700_000), testBytes(700_000), testBytes(123)];
    const whole = Buffer.concat(chunks);
    for (const [name, sum] of Object.entries(sums)) {
      const key = `public/trailer-${name}.bin`;
      expect((await signedChunkedPut(storage.endpoint, key, chunks, { trailer: { name, value: await sum(whole) } })).status).toBe(200);
      expect((await read(key)).equals(whole)).toBe(true);
      const wrong = await signedChunkedPut(storage.endpoint, key, chunks, { trailer: { name, value: await sum(whole.subarray(1)) } });
      expect({ name, status: wrong.status, code: /<Code>([^<]+)<\/Code>/.exec(await wrong.text())?.[1] }).toEqual({ name, status: 400, code: 'BadDigest' });
      expect((await read(key)).equals(whole)).toBe(true);
    }
  });

  it('refuses a trailer form without a declared checksum', async () => {
    const client = defaultClient(storage.endpoint);
    client.middlewareStack.add(
      (next) => async (args) => {
        delete (args.request as { headers: Record<string, string> }).headers['x-amz-trailer'];
        return next(args);
      },
      { step: 'build', priority: 'low' },
    );
    expect(await s3Failure(client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/no-trailer.bin', Body: Readable.from([testBytes(10)]), ContentLength: 10 })))).toMatchObject({ status: 400 });
  });
});

describe('embedded S3 aws-chunked uploads over HTTPS', () => {
  it('takes the default JS SDK client\'s streamed upload over TLS', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'divilo-tls-'));
    const database = await openTestDatabase('sqlite');
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      const cert = readFileSync(path.join(dir, 'cert.pem'));
      const app = Fastify({ logger: false, https: { key: readFileSync(path.join(dir, 'key.pem')), cert } });
      await app.register(embeddedS3, { prefix: '/s3', db: database.db, buckets: [BUCKET], dataDir: database.dataDir, region: REGION, serverCredentials: SERVER_CREDENTIALS });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      const client = defaultClient(`https://127.0.0.1:${port}/s3`, new NodeHttpHandler({ httpsAgent: new Agent({ ca: cert }) }));
      try {
        const bytes = testBytes(50_000);
        await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/tls.bin', Body: Readable.from([bytes]), ContentLength: bytes.length }));
        const got = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'public/tls.bin' }));
        expect(Buffer.from(await got.Body!.transformToByteArray()).equals(bytes)).toBe(true);
      } finally {
        client.destroy();
        await app.close();
      }
    } finally {
      await database.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

