import { createHash } from 'node:crypto';
import http from 'node:http';
import {
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { QuotaOf } from '../../../../server/embedded/s3';
import { applicantQuota } from '../../../../server/plugins/storage';
import { uploadDocument } from '../../../../src/documentStorage/uploadDocument';
import { APPLICATION_STORAGE_MAX_BYTES, DOCUMENT_FORMAT_MAX_BYTES, LARGEST_DOCUMENT_BYTES } from '../../../../src/validation/documentLimits';
import { describeEachDialect } from '../../helpers';
import { BUCKET, REGION, s3Failure, startStorage, testBytes, type StorageHarness, type TestIdentity } from './harness';

const KIB = 1024;
const GIB = 1024 ** 3;
const MAX_OBJECT = 256 * KIB;
const MAX_AREA = 768 * KIB;

/** Small caps, so the tests fill an area with a few hundred KiB: each file 256 KiB, an area 768 KiB. */
const testQuota: QuotaOf = (key, principal) => {
  if (principal.kind !== 'identity') return undefined;
  const area = `private/${principal.identityId}/`;
  return key.startsWith(area) ? { area, maxObjectBytes: MAX_OBJECT, maxAreaBytes: MAX_AREA } : undefined;
};

/**
 * Sends a signed request's headers and never its body; resolves with the answer (status, body) and whether the
 * server then closed the connection. Only headers travel, so an answer proves the body was not waited for.
 */
async function headersOnly(storage: StorageHarness, identity: TestIdentity, path: string, headers: Record<string, string>) {
  const { SignatureV4 } = await import('@smithy/signature-v4');
  const { Sha256 } = await import('@aws-crypto/sha256-js');
  const url = new URL(`${storage.endpoint}${path}`);
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => {
    query[name] = value;
  });
  const signer = new SignatureV4({ credentials: identity, region: REGION, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  const signed = await signer.sign({ method: 'PUT', protocol: 'http:', hostname: url.hostname, port: Number(url.port), path: url.pathname, query, headers: { host: url.host, ...headers } });
  return new Promise<{ status: number; body: string; closed: boolean }>((resolve, reject) => {
    const request = http.request(url, { method: 'PUT', headers: signed.headers, agent: false });
    request.on('error', reject);
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        const closed = response.headers.connection === 'close';
        request.destroy();
        resolve({ status: response.statusCode ?? 0, body, closed });
      });
    });
    request.flushHeaders();
  });
}

const sha256Of = (text: string) => createHash('sha256').update(text).digest('hex');

describeEachDialect('embedded S3 quotas', (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    storage = await startStorage(dialect, { quotaOf: testQuota });
  });
  afterAll(async () => {
    await storage.close();
  });

  const put = (identity: TestIdentity, name: string, size: number) =>
    storage.client(identity).send(new PutObjectCommand({ Bucket: BUCKET, Key: `private/${identity.identityId}/${name}`, Body: testBytes(size) }));
  const exists = async (identity: TestIdentity, name: string) => {
    try {
      await storage.client(identity).send(new HeadObjectCommand({ Bucket: BUCKET, Key: `private/${identity.identityId}/${name}` }));
      return true;
    } catch {
      return false;
    }
  };

  it('sweeps away the reservations a crash left unreleased once they count no more, and only those', async () => {
    const applicant = storage.identities.mint();
    const area = `private/${applicant.identityId}/`;
    const reservation = (id: string, createdAt: Date) => ({ id, bucket: BUCKET, area, object_key: `${area}selfie/a.jpg`, bytes: MAX_OBJECT, created_at: createdAt.toISOString() });
    // The sweep the server ran at start is over first: a sweep asked for meanwhile would be that one.
    await storage.maintenance.sweep();
    const now = Date.now();
    await storage.db.insertInto('storage_reservations').values([reservation('left-by-a-crash', new Date(now - 2 * 3600_000)), reservation('arriving', new Date(now - 60_000))]).execute();
    try {
      expect(await storage.maintenance.sweep()).toMatchObject({ staleReservations: 1 });
      expect(await storage.db.selectFrom('storage_reservations').select('id').where('area', '=', area).execute()).toEqual([{ id: 'arriving' }]);
    } finally {
      await storage.db.deleteFrom('storage_reservations').where('area', '=', area).execute();
    }
  });

  it('refuses a PutObject over the largest file of the area with EntityTooLarge, as the unmodified SDK sends it', async () => {
    const applicant = storage.identities.mint();
    expect(await s3Failure(put(applicant, 'model036/big.pdf', MAX_OBJECT + 1))).toEqual({ code: 'EntityTooLarge', status: 400 });
    expect(await exists(applicant, 'model036/big.pdf')).toBe(false);
    await put(applicant, 'model036/fits.pdf', MAX_OBJECT);
    expect(await exists(applicant, 'model036/fits.pdf')).toBe(true);
  });

  it('answers a PutObject declaring 4 GiB at once, without its body being sent', async () => {
    const applicant = storage.identities.mint();
    const answer = await headersOnly(storage, applicant, `/${BUCKET}/private/${applicant.identityId}/selfie/huge.jpg`, {
      'content-length': String(4 * GIB),
      'x-amz-content-sha256': sha256Of('never sent'),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toContain('<Code>EntityTooLarge</Code>');
    expect(answer.body).toContain(`<MaxSizeAllowed>${MAX_OBJECT}</MaxSizeAllowed>`);
    expect(answer.closed).toBe(true);
  });

  it('answers an aws-chunked PutObject and an UploadPart declaring 4 GiB at once, without their bodies', async () => {
    const applicant = storage.identities.mint();
    const chunked = await headersOnly(storage, applicant, `/${BUCKET}/private/${applicant.identityId}/selfie/chunked.jpg`, {
      'content-encoding': 'aws-chunked',
      'content-length': '100',
      'x-amz-decoded-content-length': String(4 * GIB),
      'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      'x-amz-trailer': 'x-amz-checksum-crc32',
    });
    expect(chunked.status).toBe(400);
    expect(chunked.body).toContain('<Code>EntityTooLarge</Code>');

    const Key = `private/${applicant.identityId}/companyDeeds/deeds.pdf`;
    const { UploadId } = await storage.client(applicant).send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
    const part = await headersOnly(storage, applicant, `/${BUCKET}/${Key}?partNumber=1&uploadId=${UploadId}`, {
      'content-length': String(4 * GIB),
      'x-amz-content-sha256': sha256Of('never sent'),
    });
    expect(part.status).toBe(400);
    expect(part.body).toContain('<Code>EntityTooLarge</Code>');
  });

  it('refuses the parts of one multipart upload once together they pass the largest file', async () => {
    const applicant = storage.identities.mint();
    const client = storage.client(applicant);
    const Key = `private/${applicant.identityId}/companyDeeds/parts.pdf`;
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
    const part = (PartNumber: number, size: number) => client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber, Body: testBytes(size) }));
    await part(1, 200 * KIB);
    expect(await s3Failure(part(2, 100 * KIB))).toEqual({ code: 'EntityTooLarge', status: 400 });
    // Sending part 1 again replaces its bytes: they are not counted twice.
    await part(1, 250 * KIB);
  });

  it('refuses what would pass the area total, counting objects and unfinished uploads, and frees the bytes of a deleted object', async () => {
    const applicant = storage.identities.mint();
    await put(applicant, 'model036/a.pdf', MAX_OBJECT);
    await put(applicant, 'model200/b.pdf', MAX_OBJECT);
    const client = storage.client(applicant);
    const Key = `private/${applicant.identityId}/selfie/parts.jpg`;
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
    await client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: testBytes(200 * KIB) }));
    // 712 KiB used of 768 KiB.
    expect(await s3Failure(put(applicant, 'selfie/c.jpg', 100 * KIB))).toEqual({ code: 'EntityTooLarge', status: 400 });
    expect(await exists(applicant, 'selfie/c.jpg')).toBe(false);
    await put(applicant, 'selfie/small.jpg', 56 * KIB);
    expect(await s3Failure(put(applicant, 'selfie/one-more.jpg', 1))).toEqual({ code: 'EntityTooLarge', status: 400 });

    await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `private/${applicant.identityId}/model036/a.pdf` }));
    await put(applicant, 'selfie/c.jpg', 100 * KIB);
    // Another applicant's area is its own.
    await put(storage.identities.mint(), 'model036/a.pdf', MAX_OBJECT);
  });

  it('lets only as many simultaneous uploads through as the area has room for', async () => {
    const applicant = storage.identities.mint();
    await put(applicant, 'model036/a.pdf', 200 * KIB);
    // 568 KiB left: two of 256 KiB fit, not three.
    const outcomes = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => put(applicant, `selfie/${i}.jpg`, MAX_OBJECT)));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect((outcome.reason as { name: string }).name).toBe('EntityTooLarge');
    }
    const rows = await storage.db.selectFrom('storage_objects').select('size').where('object_key', 'like', `private/${applicant.identityId}/%`).execute();
    expect(rows.reduce((sum: number, row: { size: number | string }) => sum + Number(row.size), 0)).toBe(200 * KIB + 2 * MAX_OBJECT);
    // Every reservation is released once its upload ended.
    expect(await storage.db.selectFrom('storage_reservations').selectAll().execute()).toEqual([]);
  });

  it("leaves the server's own writes without a quota", async () => {
    const applicant = storage.identities.mint();
    await storage.client().send(new PutObjectCommand({ Bucket: BUCKET, Key: `private/${applicant.identityId}/evidence.bin`, Body: testBytes(MAX_AREA + 1) }));
    expect(await s3Failure(put(applicant, 'model036/a.pdf', 1))).toEqual({ code: 'EntityTooLarge', status: 400 });
  });
});

describeEachDialect('the answer to an upload within a quota', (dialect) => {
  let storage: StorageHarness;
  /** Each successful PutObject's and UploadPart's reservations, as the table held them when its answer went out. */
  const answers: { upload: string; reservations: unknown[] }[] = [];
  beforeAll(async () => {
    storage = await startStorage(dialect, { quotaOf: testQuota }, {
      beforeRegister: (app) =>
        app.addHook('onSend', async (request, reply) => {
          if (request.method !== 'PUT' || reply.statusCode !== 200) return;
          const reservations = await storage.db.selectFrom('storage_reservations').select(['object_key', 'bytes']).execute();
          answers.push({ upload: request.url.includes('partNumber=') ? 'UploadPart' : 'PutObject', reservations });
        }),
    });
  });
  afterAll(async () => {
    await storage.close();
  });

  it('goes out only once the upload no longer holds a reservation', async () => {
    const applicant = storage.identities.mint();
    const client = storage.client(applicant);
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `private/${applicant.identityId}/selfie/a.jpg`, Body: testBytes(MAX_OBJECT) }));
    const Key = `private/${applicant.identityId}/companyDeeds/deeds.pdf`;
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
    await client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: testBytes(100 * KIB) }));
    expect(answers).toEqual([
      { upload: 'PutObject', reservations: [] },
      { upload: 'UploadPart', reservations: [] },
    ]);
  });
});

describe("an applicant's quota", () => {
  const applicant = { kind: 'identity' as const, identityId: 'eu-west-1:0b8a5d8e-7c1e-4c3b-9a55-3f0e7d6c2a11' };
  const area = `private/${applicant.identityId}/`;
  it('caps each file by its kind, the whole area by the application total, and nothing the server writes', () => {
    const quota = applicantQuota(50 * 1024 * 1024);
    expect(quota(`${area}selfie/a.jpg`, applicant)).toEqual({ area, maxObjectBytes: DOCUMENT_FORMAT_MAX_BYTES.image, maxAreaBytes: APPLICATION_STORAGE_MAX_BYTES });
    expect(quota(`${area}model036/a.pdf`, applicant)?.maxObjectBytes).toBe(DOCUMENT_FORMAT_MAX_BYTES.pdf);
    expect(quota(`${area}other/a.bin`, applicant)?.maxObjectBytes).toBe(Math.max(DOCUMENT_FORMAT_MAX_BYTES.pdf, DOCUMENT_FORMAT_MAX_BYTES.image));
    expect(applicantQuota(1024 * 1024)(`${area}model036/a.pdf`, applicant)?.maxObjectBytes).toBe(1024 * 1024);
    expect(quota(`${area}model036/a.pdf`, { kind: 'server' })).toBeUndefined();
    expect(quota('private/someone-else/model036/a.pdf', applicant)).toBeUndefined();
  });
});

describeEachDialect("an applicant's quota in the embedded storage, with the browser's upload module", (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    storage = await startStorage(dialect, { quotaOf: applicantQuota(LARGEST_DOCUMENT_BYTES) });
  });
  afterAll(async () => {
    await storage.close();
  });

  it("takes a deed in 5 MiB parts up to the PDF cap, and refuses the part that would pass it", async () => {
    const applicant = storage.identities.mint();
    const options = (name: string) => ({ key: `companyDeeds/${name}`, level: 'private' as const, identityId: applicant.identityId, credentials: applicant, config: { region: REGION, bucket: BUCKET, endpoint: storage.endpoint } });
    const fits = await uploadDocument(new Blob([new Uint8Array(testBytes(DOCUMENT_FORMAT_MAX_BYTES.pdf))]), options('fits.pdf'));
    expect(fits.key).toBe(`private/${applicant.identityId}/companyDeeds/fits.pdf`);
    await expect(uploadDocument(new Blob([new Uint8Array(testBytes(DOCUMENT_FORMAT_MAX_BYTES.pdf + 1))]), options('over.pdf'))).rejects.toMatchObject({ name: 'EntityTooLarge' });
    // Nothing of the refused upload stays: its parts went with it.
    const parts = await storage.db.selectFrom('storage_uploads').select('upload_id').where('object_key', 'like', `%over.pdf`).execute();
    expect(parts).toEqual([]);
  });
});

describeEachDialect('the object a multipart upload completes under a quota', (dialect) => {
  let storage: StorageHarness;
  /** The cap of a file, which a deployment may lower while uploads are under way. */
  let maxObjectBytes = MAX_OBJECT;
  beforeAll(async () => {
    storage = await startStorage(dialect, { quotaOf: (key, principal) => {
      const quota = testQuota(key, principal);
      return quota && { ...quota, maxObjectBytes };
    } });
  });
  afterAll(async () => {
    await storage.close();
  });

  it('is checked against the cap again, and a refused completion leaves the upload as it was', async () => {
    const applicant = storage.identities.mint();
    const client = storage.client(applicant);
    const Key = `private/${applicant.identityId}/companyDeeds/deeds.pdf`;
    const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key }));
    const { ETag } = await client.send(new UploadPartCommand({ Bucket: BUCKET, Key, UploadId, PartNumber: 1, Body: testBytes(200 * KIB) }));
    const complete = () => client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key, UploadId, MultipartUpload: { Parts: [{ PartNumber: 1, ETag }] } }));
    maxObjectBytes = 100 * KIB;
    expect(await s3Failure(complete())).toEqual({ code: 'EntityTooLarge', status: 400 });
    expect(await storage.db.selectFrom('storage_objects').select('object_key').where('object_key', '=', Key).execute()).toEqual([]);
    maxObjectBytes = MAX_OBJECT;
    await complete();
    expect((await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key }))).ContentLength).toBe(200 * KIB);
  });
});
