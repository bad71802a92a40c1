// Requests refused before any route sees them still get their area's error shape, and a request that never
// arrives in full is closed after REQUEST_TIMEOUT_SECONDS.
import { connect } from 'node:net';
import { buildTestApp, freePort, type TestApp } from './helpers';

/** Sends raw bytes and collects everything until the server closes the connection. */
function exchange(port: number, text: string, { half = false } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(text);
      if (half) socket.end();
    });
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
  });
}

describe('refusals before routing', () => {
  let server: TestApp;
  let port: number;
  beforeAll(async () => {
    server = await buildTestApp({ REQUEST_TIMEOUT_SECONDS: '1' });
    port = await freePort();
    await server.app.listen({ port, host: '127.0.0.1' });
  });
  afterAll(() => server.close());

  it('a malformed URL: S3 XML under /s3, AWS JSON under /cognito, { code, message } elsewhere', async () => {
    const s3 = await server.app.inject({ method: 'PUT', url: '/s3/divilo-documents/%ZZbad.pdf' });
    expect(s3.statusCode).toBe(400);
    expect(s3.headers['content-type']).toContain('application/xml');
    expect(s3.body).toMatch(/<Error><Code>InvalidURI<\/Code>/);
    expect(s3.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    const cognito = await server.app.inject({ method: 'POST', url: '/cognito/%ZZ' });
    expect(cognito.statusCode).toBe(400);
    expect(cognito.json()).toEqual({ __type: 'SerializationException', message: expect.any(String) });
    const api = await server.app.inject({ method: 'GET', url: '/api/%ZZ' });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toEqual({ code: 'BAD_URL', message: expect.any(String) });
    for (const body of [s3.body, cognito.body, api.body]) expect(body).not.toMatch(/FST_|%ZZ/);
  });

  it('a path segment too long: 414 in the API shape, never Fastify\'s own', async () => {
    const response = await server.app.inject({ method: 'GET', url: `/locales/${'a'.repeat(5000)}` });
    expect(response.statusCode).toBe(414);
    expect(response.json()).toEqual({ code: 'URL_TOO_LONG', message: expect.any(String) });
  });

  it('a body shorter than its Content-Length: 400 INCOMPLETE_BODY under /api, IncompleteBody under /s3', async () => {
    const api = await exchange(port, 'POST /api/captcha/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1}', { half: true });
    expect(api).toMatch(/^HTTP\/1\.1 400 /);
    expect(api).toContain('{"code":"INCOMPLETE_BODY"');
    const s3 = await exchange(port, 'PUT /s3/divilo-documents/private/x/a.pdf HTTP/1.1\r\nHost: x\r\nx-amz-content-sha256: UNSIGNED-PAYLOAD\r\nContent-Length: 100\r\n\r\n0123', { half: true });
    expect(s3).not.toContain('"error":"Bad Request"');
    expect(s3).toMatch(/<Error><Code>\w+<\/Code>/);
  });

  it('a body that stops arriving is answered 408 and closed after the request timeout', async () => {
    // The connection stays open from the client's side: only the server's timeout can end it.
    const answer = await exchange(port, 'POST /api/captcha/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer).toContain('{"code":"REQUEST_TIMEOUT"');
    expect((await server.app.inject('/health')).statusCode).toBe(200);
  }, 60_000);
});

describe('a service the server needs is down', () => {
  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, not a 500', async () => {
    // Not listening: the embedded identity pool the server calls over HTTP cannot be reached.
    const server = await buildTestApp({ PUBLIC_URL: `http://127.0.0.1:${await freePort()}` });
    try {
      const application = await server.app.applications.create({ email: 'down@example.com', idDocument: '00000094K', answers: {}, completedSteps: [], language: 'es' }, server.app.clock());
      const bearer = await server.app.onboardingTokens.issue(application.id);
      const response = await server.app.inject({ method: 'POST', url: '/api/onboarding-management-private/storage-identity', headers: { authorization: `Bearer ${bearer}` } });
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    } finally {
      await server.close();
    }
  });
});
