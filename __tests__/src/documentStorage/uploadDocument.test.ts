/**
 * @jest-environment node
 */
// The upload module against the real storage endpoint on a real port, with real temporary credentials. Node,
// not jsdom: the endpoint runs in this process, and under Jest the SDK takes its Node code path either way.
import { existsSync, readdirSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { AbortMultipartUploadCommand, GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { getDownloadUrl, PART_SIZE, storageKey, uploadDocument, type StorageConfig } from '../../../src/documentStorage/uploadDocument';
import { BUCKET, MIB, REGION, startStorage, testBytes, type StorageHarness, type TestIdentity } from '../../server/embedded/s3/harness';

/** A file as the browser hands it over. */
const blobOf = (bytes: Buffer, type = '') => new Blob([new Uint8Array(bytes)], { type });

describe('uploadDocument against the embedded storage endpoint', () => {
  let storage: StorageHarness;
  let identity: TestIdentity;
  let config: StorageConfig;
  beforeAll(async () => {
    storage = await startStorage('sqlite');
    identity = storage.identities.mint();
    config = { region: REGION, bucket: BUCKET, endpoint: storage.endpoint };
  });
  afterAll(async () => {
    await storage.close();
  });

  const options = () => ({ credentials: async () => identity, identityId: identity.identityId, config });

  it('uploads a small document in one put, under the access level prefix, with progress reaching 1', async () => {
    const progress: number[] = [];
    const bytes = testBytes(2000);
    const stored = await uploadDocument(blobOf(bytes, 'application/pdf'), {
      ...options(),
      key: 'deeds.pdf',
      level: 'private',
      onProgress: (fraction) => progress.push(fraction),
    });
    expect(stored.key).toBe(`private/${identity.identityId}/deeds.pdf`);
    expect(progress[progress.length - 1]).toBe(1);
    const got = await storage.client(identity).send(new GetObjectCommand({ Bucket: BUCKET, Key: stored.key }));
    expect(got.ContentType).toBe('application/pdf');
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(bytes)).toBe(true);
  });

  it('uploads a 12 MiB document in parts, progress rising to 1, byte for byte', async () => {
    const progress: number[] = [];
    const bytes = testBytes(12 * MIB);
    const stored = await uploadDocument(blobOf(bytes), { ...options(), key: 'model200.pdf', level: 'private', onProgress: (f) => progress.push(f) });
    expect(stored.etag).toMatch(/-3"$/);
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress[progress.length - 1]).toBe(1);
    const got = await storage.client().send(new GetObjectCommand({ Bucket: BUCKET, Key: `private/${identity.identityId}/model200.pdf` }));
    expect(got.ContentType).toBe('binary/octet-stream');
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(bytes)).toBe(true);
  });

  it('cancels in the middle: the parts are removed and the upload rejects with "Upload was cancelled."', async () => {
    const controller = new AbortController();
    const upload = uploadDocument(blobOf(testBytes(30 * MIB)), {
      ...options(),
      key: 'cancelled.pdf',
      level: 'private',
      queueSize: 1,
      signal: controller.signal,
      onProgress: (fraction) => {
        if (fraction > 0 && !controller.signal.aborted) controller.abort();
      },
    });
    await expect(upload).rejects.toThrow('Upload was cancelled.');
    // Nothing of it is left: no object, no unfinished upload's folder, no part file.
    const listed = await storage.client(identity).send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: `private/${identity.identityId}/` }));
    expect((listed.Contents ?? []).map((object) => object.Key)).not.toContain(`private/${identity.identityId}/cancelled.pdf`);
    expect(readdirSync(path.join(storage.dataDir, 'uploads'))).toEqual([]);
    const rows = await storage.db.selectFrom('storage_uploads').selectAll().execute();
    expect(rows).toEqual([]);
  });

  it('refuses before starting: too many parts, a queue size that is not positive, no credentials, an aborted signal', async () => {
    const tooLarge = { size: PART_SIZE * 10_000 + 1, type: '' } as Blob;
    await expect(uploadDocument(tooLarge, { ...options(), key: 'x', level: 'public' })).rejects.toThrow('Only a maximum of 10000 parts are allowed');
    await expect(uploadDocument(new Blob(['x']), { ...options(), key: 'x', level: 'public', queueSize: 0 })).rejects.toThrow('Queue size must be a positive number');
    await expect(
      uploadDocument(new Blob(['x']), {
        ...options(),
        credentials: async () => {
          throw new Error('identity pool unreachable');
        },
        key: 'x',
        level: 'public',
      }),
    ).rejects.toThrow('No credentials');
    const aborted = new AbortController();
    aborted.abort();
    await expect(uploadDocument(new Blob(['x']), { ...options(), key: 'x', level: 'public', signal: aborted.signal })).rejects.toThrow('Upload was cancelled.');
  });

  it('fails a request that takes too long with the timeout message', async () => {
    // An endpoint that accepts connections and never answers.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    try {
      await expect(
        uploadDocument(new Blob(['x']), { ...options(), config: { ...config, endpoint: `http://127.0.0.1:${port}/s3` }, key: 'slow.pdf', level: 'public', requestTimeoutMs: 200 }),
      ).rejects.toThrow('Request did not complete within 200 ms');
    } finally {
      silent.closeAllConnections();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('signs download URLs that a plain fetch can use, for the owner area only where allowed', async () => {
    await uploadDocument(new Blob(['the articles']), { ...options(), key: 'articles.pdf', level: 'private', contentType: 'application/pdf' });
    const url = await getDownloadUrl('articles.pdf', { ...options(), level: 'private' });
    expect(url).toContain('X-Amz-Expires=900');
    expect(url).toContain('X-Amz-Security-Token=');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(await response.text()).toBe('the articles');

    // Signed by another identity, a URL to this identity's private area is refused.
    const other = storage.identities.mint();
    const foreign = await getDownloadUrl('deeds.pdf', { ...options(), credentials: other, level: 'private' });
    expect(foreign).toContain(`/private/${encodeURIComponent(identity.identityId)}/deeds.pdf`);
    const refused = await fetch(foreign);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('<Code>AccessDenied</Code>');
  });

  it('rejects with "Multi Part upload clean up failed" when the parts cannot be removed', async () => {
    // A proxy in front of the endpoint that fails every abort.
    const target = new URL(storage.endpoint);
    const proxy = createServer((request, response) => {
      if (request.method === 'DELETE') {
        request.resume();
        response.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code><Message>no</Message></Error>');
        return;
      }
      const forwarded = httpRequest({ host: target.hostname, port: target.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      });
      request.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const { port } = proxy.address() as AddressInfo;
    const controller = new AbortController();
    try {
      await expect(
        uploadDocument(blobOf(testBytes(12 * MIB)), {
          ...options(),
          config: { ...config, endpoint: `http://127.0.0.1:${port}/s3` },
          key: 'stuck.pdf',
          level: 'private',
          queueSize: 1,
          signal: controller.signal,
          onProgress: () => controller.abort(),
        }),
      ).rejects.toThrow('Multi Part upload clean up failed');
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
    // The endpoint still holds the upload the proxy kept it from aborting; the server's own client removes it.
    const [row] = await storage.db.selectFrom('storage_uploads').select(['upload_id', 'object_key']).execute();
    expect(row.object_key).toBe(`private/${identity.identityId}/stuck.pdf`);
    await storage.client().send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: row.object_key, UploadId: row.upload_id }));
  });

  it('builds keys per access level', () => {
    expect(storageKey('a.pdf', 'public', 'id')).toBe('public/a.pdf');
    expect(storageKey('a.pdf', 'protected', 'eu-west-1:abc')).toBe('protected/eu-west-1:abc/a.pdf');
    expect(storageKey('a/b.pdf', 'private', 'eu-west-1:abc')).toBe('private/eu-west-1:abc/a/b.pdf');
    expect(() => storageKey('', 'public', 'id')).toThrow();
    expect(existsSync(storage.dataDir)).toBe(true);
  });
});

describe('upload progress', () => {
  /** A browser's XMLHttpRequest as seen from the page: upload events every 64 KB, then S3's answer to a put. */
  class SteppedXhr {
    static sent: { method: string; url: string; headers: Record<string, string> }[] = [];
    responseType = '';
    status = 0;
    statusText = '';
    response: unknown = null;
    upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private request = { method: '', url: '', headers: {} as Record<string, string> };
    open(method: string, url: string) {
      this.request = { method, url, headers: {} };
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name] = value;
    }
    getAllResponseHeaders() {
      return 'etag: "d41d8cd98f00b204e9800998ecf8427e"\r\ncontent-length: 0\r\n';
    }
    abort() {}
    send(body: Blob | Uint8Array) {
      SteppedXhr.sent.push(this.request);
      const total = body instanceof Uint8Array ? body.byteLength : body.size;
      void (async () => {
        for (let loaded = 64 * 1024; loaded < total; loaded += 64 * 1024) {
          await Promise.resolve();
          this.upload.onprogress?.({ loaded, total, lengthComputable: true });
        }
        this.upload.onprogress?.({ loaded: total, total, lengthComputable: true });
        this.status = 200;
        this.statusText = 'OK';
        this.response = new ArrayBuffer(0);
        this.onload?.();
      })();
    }
  }

  it('moves in small steps through a single put, as the bytes go, not from 0 to 1 at the end', async () => {
    const progress: number[] = [];
    const size = 2 * 1024 * 1024;
    await uploadDocument(new Blob([new Uint8Array(size)], { type: 'application/pdf' }), {
      key: 'escritura.pdf',
      level: 'private',
      identityId: 'eu-west-1:00000000-0000-4000-8000-000000000000',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' },
      config: { region: 'eu-west-1', bucket: 'documents', endpoint: 'http://127.0.0.1:9' },
      createXhr: () => new SteppedXhr(),
      onProgress: (fraction) => progress.push(fraction),
    });
    expect(SteppedXhr.sent).toEqual([expect.objectContaining({ method: 'PUT', url: expect.stringContaining('/documents/private/eu-west-1%3A00000000-0000-4000-8000-000000000000/escritura.pdf') })]);
    expect(SteppedXhr.sent[0].headers).not.toHaveProperty('host');
    // 32 steps of 64 KB: never more than 64 KB (1/32) between two reports, and it ends at 1.
    expect(progress.length).toBeGreaterThanOrEqual(32);
    expect(progress.at(-1)).toBe(1);
    const steps = progress.map((fraction, index) => fraction - (progress[index - 1] ?? 0));
    expect(Math.max(...steps)).toBeLessThanOrEqual(64 / 2048 + 1e-9);
  });
});
