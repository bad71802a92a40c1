import { PutObjectCommand } from '@aws-sdk/client-s3';
import { Sha256 } from '@aws-crypto/sha256-js';
import { SignatureV4 } from '@smithy/signature-v4';
import { describeEachDialect } from '../../helpers';
import { BUCKET, REGION, SERVER_CREDENTIALS, startStorage, type StorageHarness } from './harness';

const escape = (value: string) => encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A GetObject URL as @aws-sdk/s3-request-presigner builds it: x-amz-* hoisted into the query, UNSIGNED-PAYLOAD. */
async function presign(
  endpoint: string,
  key: string,
  options: {
    expiresIn?: number;
    method?: string;
    credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
    query?: Record<string, string>;
    signingDate?: Date;
  } = {},
): Promise<string> {
  const base = new URL(endpoint);
  const path = `${base.pathname}/${BUCKET}/${key.split('/').map(escape).join('/')}`;
  const signer = new SignatureV4({ credentials: options.credentials ?? SERVER_CREDENTIALS, region: REGION, service: 's3', sha256: Sha256, uriEscapePath: false, applyChecksum: false });
  const signed = await signer.presign(
    {
      method: options.method ?? 'GET',
      protocol: 'http:',
      hostname: base.hostname,
      port: Number(base.port),
      path,
      query: { 'x-id': 'GetObject', ...options.query },
      headers: { host: base.host, 'X-Amz-Content-Sha256': 'UNSIGNED-PAYLOAD' },
    },
    { expiresIn: options.expiresIn ?? 900, unsignableHeaders: new Set(['content-type']), signingDate: options.signingDate },
  );
  const query = Object.entries(signed.query ?? {})
    .map(([name, value]) => `${escape(name)}=${escape(String(value))}`)
    .join('&');
  return `${base.origin}${path}?${query}`;
}

const errorCode = async (response: Response) => /<Code>([^<]+)<\/Code>/.exec(await response.text())?.[1];

describeEachDialect('embedded S3 presigned URLs', (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    storage = await startStorage(dialect);
    await storage.client().send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/report (1).pdf', Body: 'report body', ContentType: 'application/pdf' }));
  });
  afterAll(async () => {
    await storage.close();
  });
  afterEach(() => {
    storage.clock.offsetMs = 0;
    storage.clock.fixedMs = undefined;
  });

  it('downloads with a plain fetch until the URL expires', async () => {
    // Signed at a whole second and checked on a stopped clock: the boundary is exact, whatever the machine's speed.
    const signedAt = new Date('2026-11-24T10:00:00.000Z');
    storage.clock.fixedMs = signedAt.getTime();
    const url = await presign(storage.endpoint, 'public/report (1).pdf', { expiresIn: 60, signingDate: signedAt });
    expect(url).toContain('X-Amz-Content-Sha256=UNSIGNED-PAYLOAD');
    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(await response.text()).toBe('report body');
    // The method is signed: a GET URL does not serve a HEAD.
    expect((await fetch(url, { method: 'HEAD' })).status).toBe(403);

    storage.clock.fixedMs = signedAt.getTime() + 60_000;
    expect((await fetch(url)).status).toBe(200);
    storage.clock.fixedMs = signedAt.getTime() + 61_000;
    const expired = await fetch(url);
    expect(expired.status).toBe(403);
    expect(await expired.text()).toMatch(/<Code>AccessDenied<\/Code><Message>Request has expired/);
  });

  it('refuses a tampered URL', async () => {
    const url = await presign(storage.endpoint, 'public/report (1).pdf');
    const flipped = url.replace(/X-Amz-Signature=([0-9a-f])/, (_match, c: string) => `X-Amz-Signature=${c === '0' ? '1' : '0'}`);
    expect(await errorCode(await fetch(flipped))).toBe('SignatureDoesNotMatch');
    const longer = url.replace('X-Amz-Expires=900', 'X-Amz-Expires=3600');
    expect(await errorCode(await fetch(longer))).toBe('SignatureDoesNotMatch');
    const otherKey = url.replace('report%20%281%29.pdf', 'other.pdf');
    expect(await errorCode(await fetch(otherKey))).toBe('SignatureDoesNotMatch');
    const tooLong = url.replace('X-Amz-Expires=900', 'X-Amz-Expires=604801');
    expect(await errorCode(await fetch(tooLong))).toBe('AuthorizationQueryParametersError');
  });

  it('applies response header overrides that were signed', async () => {
    const url = await presign(storage.endpoint, 'public/report (1).pdf', { query: { 'response-content-disposition': 'attachment; filename="report.pdf"' } });
    const response = await fetch(url);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="report.pdf"');
  });

  it('refuses an override that could not be a header value (a line break, a control character, a non-Latin letter) with 400 InvalidArgument', async () => {
    for (const [parameter, value] of [
      ['response-content-type', 'text/plain\r\nX-Injected: 1'],
      ['response-content-type', 'text/plain\nX-Injected: 1'],
      ['response-content-disposition', 'attachment; filename="a\u0000.pdf"'],
      ['response-cache-control', 'no-cache\u007f'],
      ['response-content-language', 'es\tES'],
      ['response-content-disposition', 'attachment; filename="факт.pdf"'],
    ] as const) {
      const response = await fetch(await presign(storage.endpoint, 'public/report (1).pdf', { query: { [parameter]: value } }));
      expect({ parameter, value, status: response.status }).toEqual({ parameter, value, status: 400 });
      const body = await response.text();
      expect(body).toContain('<Code>InvalidArgument</Code>');
      expect(body).toContain(`<ArgumentName>${parameter}</ArgumentName>`);
      expect(response.headers.get('x-injected')).toBeNull();
      expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    }
    // The same request with a clean value is served.
    const clean = await fetch(await presign(storage.endpoint, 'public/report (1).pdf', { query: { 'response-content-type': 'text/plain' } }));
    expect(clean.status).toBe(200);
    expect(clean.headers.get('content-type')).toBe('text/plain');
  });

  it('works with temporary credentials, needs their token, and keeps to the access levels', async () => {
    const alice = storage.identities.mint();
    const key = `private/${alice.identityId}/id.pdf`;
    await storage.client(alice).send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'id card' }));
    const url = await presign(storage.endpoint, key, { credentials: alice });
    expect(url).toContain('X-Amz-Security-Token=');
    expect(await (await fetch(url)).text()).toBe('id card');
    expect(await errorCode(await fetch(url.replace(/&X-Amz-Security-Token=[^&]+/, '')))).toBe('InvalidAccessKeyId');

    const bob = storage.identities.mint();
    expect(await errorCode(await fetch(await presign(storage.endpoint, key, { credentials: bob })))).toBe('AccessDenied');
  });

  it('never lets a stored file be a page of the app: sandbox CSP, nosniff, and active types as downloads', async () => {
    const html = '<!doctype html><script>document.title = "ran"</script>';
    await storage.client().send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/page.html', Body: html, ContentType: 'text/html' }));
    await storage.client().send(new PutObjectCommand({ Bucket: BUCKET, Key: 'public/fake.pdf', Body: html, ContentType: 'application/pdf' }));
    const stored = await fetch(await presign(storage.endpoint, 'public/page.html'));
    expect(stored.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(stored.headers.get('x-content-type-options')).toBe('nosniff');
    expect(stored.headers.get('content-disposition')).toBe('attachment');
    // Asked for as HTML, or as inline SVG, a PDF is a download too; a file name asked for is kept.
    for (const [type, disposition, expected] of [
      ['text/html', undefined, 'attachment'],
      ['TEXT/HTML; charset=utf-8', 'inline', 'attachment'],
      ['image/svg+xml', 'inline; filename="a.svg"', 'attachment; filename="a.svg"'],
      ['application/xhtml+xml', undefined, 'attachment'],
      ['text/javascript', undefined, 'attachment'],
    ] as const) {
      const query: Record<string, string> = { 'response-content-type': type };
      if (disposition) query['response-content-disposition'] = disposition;
      const answer = await fetch(await presign(storage.endpoint, 'public/fake.pdf', { query }));
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-disposition')).toBe(expected);
      expect(answer.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    }
    // A PDF stays a PDF shown in the page (still sandboxed); errors carry the same headers.
    const pdf = await fetch(await presign(storage.endpoint, 'public/fake.pdf'));
    expect(pdf.headers.get('content-disposition')).toBeNull();
    const missing = await fetch(await presign(storage.endpoint, 'public/none.pdf'));
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(missing.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('accepts presigned URLs for downloads only', async () => {
    const url = await presign(storage.endpoint, 'public/upload-by-url.pdf', { method: 'PUT' });
    const response = await fetch(url, { method: 'PUT', body: 'x' });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain('GET and HEAD only');
  });
});
