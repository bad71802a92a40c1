import { PutObjectCommand } from '@aws-sdk/client-s3';
import { createStorageClient } from '../../src/documentStorage/uploadDocument';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import path from 'node:path';
import { loadConfig, toRuntimeConfig } from '../../server/config';
import { extraOrigins } from '../../server/plugins/security';
import { hashSessionId, SESSION_COOKIE } from '../../server/routes/user-authorization-management';
import { buildTestApp, describeEachDialect, logCollector, openTestDatabase, type TestApp } from './helpers';

let fixtures: string;
let distDir: string;
let localesDir: string;

beforeAll(() => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'divilo-app-'));
  distDir = path.join(fixtures, 'dist');
  localesDir = path.join(fixtures, 'locales');
  mkdirSync(path.join(distDir, 'assets'), { recursive: true });
  mkdirSync(localesDir);
  writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><div id="app"></div>');
  writeFileSync(path.join(distDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(path.join(distDir, 'assets', 'main.0123456789.js'), 'console.log(1)');
  // As the build leaves them: each text file with its brotli and gzip.
  writeFileSync(path.join(distDir, 'assets', 'main.0123456789.js.br'), brotliCompressSync('console.log(1)'));
  writeFileSync(path.join(distDir, 'assets', 'main.0123456789.js.gz'), gzipSync('console.log(1)'));
  writeFileSync(path.join(localesDir, 'en.json'), JSON.stringify({ 'app.title': 'Divilo' }));
  writeFileSync(path.join(localesDir, 'es.json'), JSON.stringify({ 'app.title': 'Divilo (es)' }));
  writeFileSync(path.join(fixtures, 'secret.json'), '{"secret":true}');
});
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

const page = (url: string) => ({ url, headers: { accept: 'text/html,application/xhtml+xml' } });

describe('the server', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await buildTestApp({ CORS_ORIGINS: 'https://app.divilo.es' }, { distDir, localesDir });
  });
  afterAll(() => server.close());

  it('answers /health when the database answers', async () => {
    const response = await server.app.inject('/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'ok' });
  });

  it('gives the web app its whole configuration, never cached', async () => {
    const response = await server.app.inject('/config.json');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual(toRuntimeConfig(server.config));
    expect(response.json()).toMatchObject({ apiBaseUrl: '/api', identity: { userPoolId: 'local_Divilo1' }, captcha: { provider: 'altcha' } });
  });

  it('serves the locale files, revalidated with an ETag', async () => {
    const first = await server.app.inject('/locales/en.json');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toContain('application/json');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.json()).toEqual({ 'app.title': 'Divilo' });
    const again = await server.app.inject({ url: '/locales/en.json', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    const spanish = await server.app.inject('/locales/es.json');
    expect(spanish.json()).toEqual({ 'app.title': 'Divilo (es)' });
    expect(spanish.headers.etag).not.toBe(first.headers.etag);
  });

  it('serves the locale files parsed into ICU ASTs for the app, which then needs no parser', async () => {
    writeFileSync(path.join(localesDir, 'en.json'), JSON.stringify({ 'app.title': 'Divilo', 'app.hello': 'Hello {name}, <b>welcome</b>' }));
    const compiled = await server.app.inject('/locales/en.ast.json');
    expect(compiled.statusCode).toBe(200);
    expect(compiled.json()).toEqual({
      'app.title': [{ type: 0, value: 'Divilo' }],
      'app.hello': [
        { type: 0, value: 'Hello ' },
        { type: 1, value: 'name' },
        { type: 0, value: ', ' },
        { type: 8, value: 'b', children: [{ type: 0, value: 'welcome' }] },
      ],
    });
    const again = await server.app.inject({ url: '/locales/en.ast.json', headers: { 'if-none-match': String(compiled.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await server.app.inject('/locales/fr.ast.json')).statusCode).toBe(404);
    writeFileSync(path.join(localesDir, 'en.json'), JSON.stringify({ 'app.title': 'Divilo' }));
    expect((await server.app.inject('/locales/en.ast.json')).json()).toEqual({ 'app.title': [{ type: 0, value: 'Divilo' }] });
  });

  it('serves no other locale and no other file', async () => {
    const unknown = await server.app.inject('/locales/fr.json');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'LOCALE_NOT_FOUND' });
    for (const url of ['/locales/..%2fsecret.json', '/locales/%2e%2e%2fsecret.json', '/locales/../secret.json', '/locales/..%2f..%2fpackage.json', '/locales/en']) {
      const response = await server.app.inject(url);
      // 404, or 400 when the name is longer than any locale file's.
      expect([400, 404]).toContain(response.statusCode);
      expect(response.body).not.toContain('"secret":true');
      expect(response.body).not.toContain('divilo-onboarding');
    }
  });

  it('sends the security headers: a CSP without inline scripts, no framing, no sniffing', async () => {
    for (const response of [await server.app.inject(page('/login')), await server.app.inject('/api/user-authorization-management/get-session')]) {
      const csp = String(response.headers['content-security-policy']);
      // Files of our own, and the login page's one inline script by its hash.
      expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*';/);
      expect(csp).toContain("style-src 'self';");
      // The embedded identity and storage endpoints are on our own origin: nothing else may be reached.
      expect(csp).toContain("connect-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('lets an allowed origin upload, abort an upload and finish a password reset: PUT and DELETE preflights', async () => {
    const preflight = (url: string, method: string, origin = 'https://app.divilo.es') =>
      server.app.inject({ method: 'OPTIONS', url, headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type' } });
    for (const [url, method] of [
      ['/api/credentials-management/password', 'PUT'],
      ['/s3/divilo-documents/private/x/a.pdf', 'PUT'],
      ['/s3/divilo-documents/private/x/a.pdf', 'DELETE'],
    ]) {
      const allowed = await preflight(url, method);
      expect(allowed.headers['access-control-allow-origin']).toBe('https://app.divilo.es');
      expect(String(allowed.headers['access-control-allow-methods'])).toContain(method);
      expect((await preflight(url, method, 'https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('allows the configured origin and no other', async () => {
    const preflight = (origin: string) =>
      server.app.inject({ method: 'OPTIONS', url: '/api/user-authorization-management/get-session', headers: { origin, 'access-control-request-method': 'GET' } });
    const allowed = await preflight('https://app.divilo.es');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://app.divilo.es');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    expect((await preflight('https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
    const simple = await server.app.inject({ url: '/health', headers: { origin: 'https://evil.example' } });
    expect(simple.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers an unknown API path with a JSON 404 and a code, even to a browser', async () => {
    for (const request of [page('/api/nothing-here'), { method: 'POST' as const, url: '/api/nothing-here' }, page('/api')]) {
      const response = await server.app.inject(request);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('serves the SPA for its routes: index.html, revalidated', async () => {
    for (const url of ['/login', '/recover-password/init?lang=ES', '/']) {
      const response = await server.app.inject(page(url));
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('<div id="app">');
      expect(response.headers['cache-control']).toBe('no-cache');
    }
    // `/` is always the app (a plain `curl /` too); HEAD answers like GET.
    expect((await server.app.inject('/')).body).toContain('<div id="app">');
    expect((await server.app.inject({ method: 'HEAD', url: '/login', headers: { accept: 'text/html' } })).statusCode).toBe(200);
  });

  it('does not answer with the SPA what is not a page load', async () => {
    const missingFile = await server.app.inject(page('/missing-icon.ico'));
    expect(missingFile.statusCode).toBe(404);
    const asJson = await server.app.inject({ url: '/login', headers: { accept: 'application/json' } });
    expect(asJson.statusCode).toBe(404);
    const posted = await server.app.inject({ method: 'POST', url: '/login', headers: { accept: 'text/html' } });
    expect(posted.statusCode).toBe(404);
    expect(posted.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('caches hashed assets for good, other files only with revalidation', async () => {
    const asset = await server.app.inject('/assets/main.0123456789.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await server.app.inject('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control']).toBe('no-cache');
    const missing = await server.app.inject(page('/assets/main.missing.js'));
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'NOT_FOUND' });
    const traversal = await server.app.inject('/assets/..%2f..%2fsecret.json');
    expect(traversal.body).not.toContain('"secret":true');
  });

  it('sends the brotli or gzip the build made when the browser takes it, and tells caches the encodings differ', async () => {
    const brotli = await server.app.inject({ url: '/assets/main.0123456789.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe('console.log(1)');
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/);
    const gzip = await server.app.inject({ url: '/assets/main.0123456789.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');
    const plain = await server.app.inject({ url: '/assets/main.0123456789.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('echoes a well-formed request id and replaces a malformed one', async () => {
    const kept = await server.app.inject({ url: '/health', headers: { 'x-request-id': 'req-12345678' } });
    expect(kept.headers['x-request-id']).toBe('req-12345678');
    const replaced = await server.app.inject({ url: '/health', headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers['x-request-id']).not.toBe('bad id <script>');
    expect(String(replaced.headers['x-request-id'])).toMatch(/^[\w-]{8,64}$/);
    const generated = await server.app.inject('/health');
    expect(String(generated.headers['x-request-id'])).toMatch(/^[\w-]{8,64}$/);
    expect(generated.headers['x-request-id']).not.toBe(replaced.headers['x-request-id']);
  });

  it('answers a request that breaks a route schema with VALIDATION_FAILED and one descriptor per field', async () => {
    const resend = (payload: unknown) =>
      server.app.inject({ method: 'POST', url: '/api/user-authorization-management/resend-code', headers: { 'x-divilo-session-id': 'browser-session-1' }, payload: payload as object });
    const empty = await resend({ token: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({
      code: 'VALIDATION_FAILED',
      message: 'The request is not valid',
      errors: [{ field: 'token', id: 'validations.minLength', values: { min: 1 } }],
    });
    expect((await resend({})).json()).toMatchObject({ errors: [{ field: 'token', id: 'validations.required' }] });
  });

  it('answers a body that is not JSON with a code of its own, repeating none of it', async () => {
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/user-authorization-management/resend-code',
      headers: { 'x-divilo-session-id': 'browser-session-1', 'content-type': 'application/json' },
      payload: '{"token": Secreto-2026',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'MALFORMED_JSON' });
    expect(response.body).not.toContain('Secreto');
  });

  it('answers /favicon.ico with the icon there is, and the server\'s pages name it', async () => {
    const icon = await server.app.inject('/favicon.ico');
    expect(icon.statusCode).toBe(301);
    expect(icon.headers.location).toBe('/favicon.svg');
    expect((await server.app.inject('/app/session.js')).statusCode).toBe(200);
  });

  it('publishes the OpenAPI document built from the route schemas, and its reader', async () => {
    const document = (await server.app.inject('/docs/json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/health', '/config.json', '/api/user-authorization-management/get-session']));
    const reader = await server.app.inject(page('/docs'));
    expect([200, 302]).toContain(reader.statusCode);
  });

  it('does not serve the API reader when API_DOCS is false (the production default), yet keeps the document', async () => {
    const closed = await buildTestApp({ API_DOCS: 'false' }, { distDir, localesDir });
    try {
      expect((await closed.app.inject('/docs/json')).statusCode).toBe(404);
      expect((await closed.app.inject(page('/docs'))).headers['content-type']).not.toContain('swagger');
      expect(Object.keys((closed.app.swagger() as { paths: object }).paths)).toContain('/health');
    } finally {
      await closed.close();
    }
  });
});

const ON_AWS = {
  COGNITO_USER_POOL_ID: 'eu-west-1_AbC123',
  COGNITO_CLIENT_ID: '4hj2k5l6m7n8p9q0r1s2t3u4v5',
  COGNITO_IDENTITY_POOL_ID: 'eu-west-1:0d6b3c2a-1e4f-4a5b-9c8d-7e6f5a4b3c2d',
  S3_BUCKET: 'divilo-prod-docs',
};

describe('the CSP for endpoints elsewhere', () => {
  it("names AWS's origins in the region's partition: amazonaws.com.cn in China", () => {
    const china = { ...ON_AWS, AWS_REGION: 'cn-north-1', COGNITO_USER_POOL_ID: 'cn-north-1_AbC123', COGNITO_IDENTITY_POOL_ID: 'cn-north-1:0d6b3c2a-1e4f-4a5b-9c8d-7e6f5a4b3c2d' };
    expect(extraOrigins(loadConfig(china)).connect).toEqual([
      'https://cognito-idp.cn-north-1.amazonaws.com.cn',
      'https://cognito-identity.cn-north-1.amazonaws.com.cn',
      'https://s3.cn-north-1.amazonaws.com.cn',
    ]);
  });

  it('names the identity pool\'s own endpoint when it has one', () => {
    const config = loadConfig({ ...ON_AWS, COGNITO_ENDPOINT: 'https://idp.internal', COGNITO_IDENTITY_ENDPOINT: 'https://identity.internal', S3_ENDPOINT: 'https://s3.internal' });
    expect(extraOrigins(config).connect).toEqual(['https://idp.internal', 'https://identity.internal', 'https://s3.internal']);
  });

  it('lets the browser reach AWS when no endpoint is configured, and Google with reCAPTCHA', () => {
    const onAws = loadConfig({ ...ON_AWS, CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_SITE_KEY: 'k', RECAPTCHA_SECRET: 's' });
    expect(extraOrigins(onAws)).toEqual({
      connect: ['https://cognito-idp.eu-west-1.amazonaws.com', 'https://cognito-identity.eu-west-1.amazonaws.com', 'https://s3.eu-west-1.amazonaws.com'],
      google: ['https://www.google.com', 'https://www.gstatic.com'],
    });
  });

  it('allows exactly the origin the browser\'s storage client calls on AWS', async () => {
    const onAws = loadConfig({ ...ON_AWS, S3_REGION: 'eu-west-1' });
    const client = createStorageClient({ region: onAws.storage.region, bucket: onAws.storage.bucket, endpoint: onAws.storage.endpoint }, { accessKeyId: 'AKIATEST', secretAccessKey: 'secret' });
    let called = '';
    // The request as the SDK would send it (endpoint resolved, signed), stopped before it leaves.
    client.middlewareStack.add(
      (_next) => async (args) => {
        const request = args.request as { protocol: string; hostname: string };
        called = `${request.protocol}//${request.hostname}`;
        throw new Error('not sent');
      },
      { step: 'finalizeRequest', priority: 'low' },
    );
    await expect(client.send(new PutObjectCommand({ Bucket: onAws.storage.bucket, Key: 'private/x/a.pdf', Body: 'x' }))).rejects.toThrow('not sent');
    expect(called).toBe('https://s3.eu-west-1.amazonaws.com');
    expect(extraOrigins(onAws).connect).toContain(called);
  });

  it('names an endpoint on another origin, and nothing for endpoints on our own', () => {
    expect(extraOrigins(loadConfig({ COGNITO_ENDPOINT: 'https://idp.divilo.es/pool', S3_ENDPOINT: 'http://localhost:8080/s3' }))).toEqual({
      connect: ['https://idp.divilo.es'],
      google: [],
    });
    expect(extraOrigins(loadConfig({}))).toEqual({ connect: [], google: [] });
  });
});

describeEachDialect('customer sessions: get-session', (dialect) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await buildTestApp({}, { distDir, localesDir, dialect });
  });
  afterAll(() => server.close());

  const getSession = (cookie?: string) =>
    server.app.inject({ url: '/api/user-authorization-management/get-session', headers: cookie ? { cookie: `theme=dark; ${SESSION_COOKIE}=${cookie}` } : {} });

  it('401 without a cookie, 200 with a live session, 401 once revoked', async () => {
    const none = await getSession();
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ code: 'NO_SESSION' });
    // The app's hint that a session may exist goes with it: the app asks no more until the next login.
    expect([none.headers['set-cookie']].flat().find((header) => header?.startsWith('divilo_signed_in='))).toMatch(/^divilo_signed_in=;.*Expires=Thu, 01 Jan 1970/);
    await server.app.loginSessions.create({ idHash: hashSessionId('cookie-value-1'), userSub: 'u1', username: 'name-u1', expiresAt: new Date(Date.now() + 3600_000) }, server.app.clock());
    const live = await getSession('cookie-value-1');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ authenticated: true });
    expect((await getSession('another-value')).statusCode).toBe(401);
    await server.app.loginSessions.revoke(hashSessionId('cookie-value-1'), server.app.clock());
    expect((await getSession('cookie-value-1')).statusCode).toBe(401);
  });

  it('stores only the hash of the cookie, and renews the session on use', async () => {
    const fourMinutesAgo = new Date(Date.now() - 240_000);
    await server.app.loginSessions.create(
      { idHash: hashSessionId('cookie-value-2'), userSub: 'u2', username: 'name-u2', expiresAt: new Date(Date.now() + 3600_000) },
      fourMinutesAgo,
    );
    const stored = await server.app.db.selectFrom('login_sessions').select('id_hash').where('user_sub', '=', 'u2').executeTakeFirstOrThrow();
    expect(stored.id_hash).not.toContain('cookie-value-2');
    expect((await getSession('cookie-value-2')).statusCode).toBe(200);
    // Without the renewal, the session would be idle for more than 300 s two minutes from now.
    const inTwoMinutes = new Date(Date.now() + 120_000);
    expect(await server.app.loginSessions.findLive(hashSessionId('cookie-value-2'), 300, inTwoMinutes)).toBeDefined();
  });

  it('401 for a session left idle longer than SESSION_IDLE_SECONDS', async () => {
    const sixMinutesAgo = new Date(Date.now() - 360_000);
    await server.app.loginSessions.create(
      { idHash: hashSessionId('cookie-value-3'), userSub: 'u3', username: 'name-u3', expiresAt: new Date(Date.now() + 3600_000) },
      sixMinutesAgo,
    );
    expect((await getSession('cookie-value-3')).json()).toMatchObject({ code: 'NO_SESSION' });
  });
});

describe('protection', () => {
  it('rate limits with a code, the 404 answers included', async () => {
    const server = await buildTestApp({ RATE_LIMIT_MAX: '3' }, { distDir, localesDir });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await server.app.inject('/api/user-authorization-management/get-session')).statusCode);
    const limited = await server.app.inject('/api/user-authorization-management/get-session');
    expect(statuses).toEqual([401, 401, 401]);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    await server.close();

    // Someone guessing URLs gets 404s, then 429s.
    const guessed = await buildTestApp({ RATE_LIMIT_MAX: '3' }, { distDir, localesDir });
    const probes: number[] = [];
    for (let i = 0; i < 4; i += 1) probes.push((await guessed.app.inject(`/api/guess-${i}`)).statusCode);
    expect(probes).toEqual([404, 404, 404, 429]);
    await guessed.close();
  });

  it('throttles storage as S3 does: 503 SlowDown, which the SDKs retry', async () => {
    const server = await buildTestApp({ RATE_LIMIT_MAX: '2' }, { distDir, localesDir });
    try {
      for (let i = 0; i < 2; i += 1) expect((await server.app.inject('/s3/divilo-documents/private/x/a.pdf')).statusCode).toBe(403);
      const limited = await server.app.inject('/s3/divilo-documents/private/x/a.pdf');
      expect(limited.statusCode).toBe(503);
      expect(limited.body).toMatch(/<Error><Code>SlowDown<\/Code><Message>Please reduce your request rate.<\/Message>/);
    } finally {
      await server.close();
    }
  });

  it('gives the sensitive routes a tighter limit of their own', async () => {
    const server = await buildTestApp({ RATE_LIMIT_MAX: '100', RATE_LIMIT_SENSITIVE_MAX: '2' }, { distDir, localesDir });
    const verify = () => server.app.inject('/api/captcha/verify?response=not-a-solution&sessionId=browser-session-1');
    expect((await verify()).statusCode).toBe(200);
    expect((await verify()).statusCode).toBe(200);
    const limited = await verify();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await server.app.inject('/api/user-authorization-management/get-session')).statusCode).toBe(401);
    // Reporting a document (each report inspects the file whole) is one of them.
    const report = () => server.app.inject({ method: 'POST', url: '/api/onboarding-management-private/documents', payload: { kind: 'model036', key: 'private/x:0/a.pdf' } });
    expect((await report()).statusCode).toBe(400);
    expect((await report()).statusCode).toBe(400);
    expect((await report()).json()).toMatchObject({ code: 'RATE_LIMITED' });
    await server.close();
  });

  it('answers 503 on /health when the database is gone', async () => {
    const database = await openTestDatabase('sqlite');
    const server = await buildTestApp({}, { distDir, localesDir, database });
    expect((await server.app.inject('/health')).statusCode).toBe(200);
    await database.destroy();
    const response = await server.app.inject('/health');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    await server.close();
  });

  it('answers an unexpected failure with INTERNAL_ERROR and no detail; the detail goes to the log', async () => {
    const logs = logCollector();
    const server = await buildTestApp({ LOG_LEVEL: 'error' }, { distDir, localesDir, logStream: logs.stream });
    server.app.get('/api/test/failure', async () => {
      throw new Error('relation "customers" does not exist');
    });
    const response = await server.app.inject('/api/test/failure');
    await server.close();
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'INTERNAL_ERROR', message: 'Something went wrong' });
    expect(logs.text()).toContain('relation \\"customers\\" does not exist');
  });

  it('never logs credentials, codes or tokens', async () => {
    const logs = logCollector();
    const server = await buildTestApp({ LOG_LEVEL: 'trace' }, { distDir, localesDir, logStream: logs.stream });
    await server.app.inject({
      method: 'POST',
      url: '/api/user-authorization-management/create-session?response=captcha-token-abc&password=query-pass-1&SessionToken=aws-token-2',
      headers: {
        'x-divilo-session-id': 'browser-session-1',
        authorization: 'Bearer id-token-xyz',
        'x-divilo-verification-signature': 'c2lnbmF0dXJl',
        cookie: `${SESSION_COOKIE}=cookie-secret-123`,
      },
      payload: { password: 'Secreto-2026!', diviloPassword: 'Otro-2026!', code: '482913', refreshToken: 'refresh-789' },
    });
    server.app.log.info({ body: { token: 'logged-token-1', newPassword: 'Nueva-2026!' }, accessToken: 'access-456' }, 'a careless log call');
    await server.close();
    const text = logs.text();
    expect(text).toContain('create-session');
    expect(text).toContain('a careless log call');
    expect(text).toContain('[redacted]');
    const secrets = ['captcha-token-abc', 'query-pass-1', 'aws-token-2', 'id-token-xyz', 'c2lnbmF0dXJl', 'cookie-secret-123', 'Secreto-2026!', 'Otro-2026!', '482913', 'refresh-789', 'logged-token-1', 'Nueva-2026!', 'access-456'];
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('logs each request under its request id', async () => {
    const logs = logCollector();
    const server = await buildTestApp({ LOG_LEVEL: 'info' }, { distDir, localesDir, logStream: logs.stream });
    await server.app.inject({ url: '/health', headers: { 'x-request-id': 'trace-me-12345' } });
    await server.close();
    const entries = logs.entries().filter((entry) => entry.reqId === 'trace-me-12345');
    expect(entries.map((entry) => entry.msg)).toEqual(['incoming request', 'request completed']);
  });

  it('without a built web app, a page request says in one line how to build it', async () => {
    const server = await buildTestApp({}, { distDir: path.join(fixtures, 'missing'), localesDir });
    for (const url of ['/', '/login']) {
      const response = await server.app.inject(page(url));
      expect(response.statusCode).toBe(503);
      expect(response.body).toContain('npm run build');
      expect(response.body.trim().split('\n')).toHaveLength(1);
    }
    expect((await server.app.inject('/health')).statusCode).toBe(200);
    await server.close();
  });
});

describe('the embedded storage endpoint', () => {
  it('is mounted at /s3 and refuses an unsigned request in S3 XML', async () => {
    const server = await buildTestApp({}, { distDir, localesDir });
    const response = await server.app.inject({ url: '/s3/divilo-documents/private/someone/file.pdf' });
    expect(response.statusCode).toBe(403);
    expect(response.headers['content-type']).toContain('xml');
    expect(response.body).toContain('<Code>AccessDenied</Code>');
    await server.close();
  });

  it('lets browsers from the allowed origin send the S3 SDK headers and read ETag', async () => {
    const server = await buildTestApp({ CORS_ORIGINS: 'https://app.divilo.es' }, { distDir, localesDir });
    const preflight = await server.app.inject({
      method: 'OPTIONS',
      url: '/s3/divilo-documents/public/x',
      headers: { origin: 'https://app.divilo.es', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'x-amz-content-sha256,range' },
    });
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('x-amz-content-sha256');
    const get = await server.app.inject({ url: '/health', headers: { origin: 'https://app.divilo.es' } });
    expect(String(get.headers['access-control-expose-headers']).toLowerCase()).toContain('etag');
    await server.close();
  });
});

describeEachDialect('the main app page', (dialect) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await buildTestApp({ SESSION_IDLE_SECONDS: '120', SESSION_WARNING_SECONDS: '30' }, { distDir, localesDir, dialect });
  });
  afterAll(() => server.close());

  it('sends a visitor without a session to the login page', async () => {
    const response = await server.app.inject('/app');
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/login');
  });

  it('gives the idle countdown its times, its texts in the visitor language, and its script from a file', async () => {
    await server.app.loginSessions.create({ idHash: hashSessionId('main-app-cookie'), userSub: 'u-main', username: 'name-main', expiresAt: new Date(Date.now() + 3600_000) }, server.app.clock());
    const open = (language: string) =>
      server.app.inject({ url: '/app', headers: { cookie: `${SESSION_COOKIE}=main-app-cookie`, 'accept-language': language } });
    const english = await open('en-GB');
    expect(english.statusCode).toBe(200);
    expect(english.headers['cache-control']).toBe('no-store');
    expect(english.body).toContain('data-session-idle="120" data-session-warning="30"');
    expect(english.body).toContain('the session ends after 2 min without activity');
    // The warning is a modal dialog over a backdrop, hidden until the script shows it.
    expect(english.body).toMatch(/<div class="dv-modal__backdrop" id="session-warning-backdrop" hidden>\s*<div class="dv-modal" id="session-warning" role="alertdialog" aria-modal="true"/);
    expect(english.body).toContain('<script src="/app/session.js" defer></script>');
    expect(english.body).not.toMatch(/<script>(?!<\/script>)/);
    expect((await open('es-ES')).body).toContain('la sesión se cierra tras 2 min sin actividad');

    // The language chosen in the app wins over the browser's: by the app's cookie, or by ?lang=.
    const chosen = await server.app.inject({ url: '/app', headers: { cookie: `${SESSION_COOKIE}=main-app-cookie; divilo_lang=es`, 'accept-language': 'en-GB' } });
    expect(chosen.body).toContain('la sesión se cierra tras 2 min sin actividad');
    expect(chosen.body).toContain('<html lang="es"');
    expect(chosen.body).toContain('<link rel="icon" href="/favicon.svg">');
    const asked = await server.app.inject({ url: '/app?lang=en', headers: { cookie: `${SESSION_COOKIE}=main-app-cookie; divilo_lang=es`, 'accept-language': 'es' } });
    expect(asked.body).toContain('the session ends after 2 min without activity');

    // A language picked on the page is kept (for the login page too); the switch points at the same page.
    expect(asked.headers['set-cookie']).toEqual(expect.stringContaining('divilo_lang=en; Max-Age=31536000; Path=/; SameSite=Lax'));
    expect(chosen.headers['set-cookie']).toBeUndefined();
    expect(chosen.body).toContain('<a class="dv-languages__button" lang="en" hreflang="en" href="/app?lang=en">EN');
    expect(chosen.body).toContain('href="/app?lang=es" aria-current="true">ES');
    expect(chosen.body).toContain('<form method="post" action="/app/logout?lang=es"');

    const script = await server.app.inject('/app/session.js');
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toContain('text/javascript');
    expect(script.body).toContain('/api/user-authorization-management/get-session');
  });

  it('signs out to the login page in the customer\'s language, which says so', async () => {
    await server.app.loginSessions.create({ idHash: hashSessionId('main-app-out'), userSub: 'u-out', username: 'name-out', expiresAt: new Date(Date.now() + 3600_000) }, server.app.clock());
    const out = await server.app.inject({ method: 'POST', url: '/app/logout?lang=es', headers: { cookie: `${SESSION_COOKIE}=main-app-out`, 'content-type': 'application/x-www-form-urlencoded' }, payload: '' });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/login?lang=es&loggedOut=1');
    expect((await server.app.inject({ url: '/app', headers: { cookie: `${SESSION_COOKIE}=main-app-out` } })).headers.location).toBe('/login');
  });

  it('styles its pages with the app\'s own style sheets and typeface, served for good under a versioned address', async () => {
    const css = await server.app.inject('/server.css');
    expect(css.body).toContain('.dv-layout__header');
    expect(css.body).toContain('.dv-button--blue');
    expect(css.body).toContain('.dv-modal__backdrop');
    const face = /url\('(\/fonts\/figtree-[\d.]+\/latin\.woff2)'\)/.exec(css.body);
    expect(face).not.toBeNull();
    expect(css.body).not.toContain("url('@fontsource");
    const font = await server.app.inject(face![1]);
    expect(font.statusCode).toBe(200);
    expect(font.headers['content-type']).toBe('font/woff2');
    expect(font.headers['cache-control']).toContain('immutable');
    expect(font.rawPayload.subarray(0, 4).toString('latin1')).toBe('wOF2');
    // The login's file, which the pages preload, under an address that changes with its content.
    const login = /url\('(\/fonts\/figtree-[\d.]+\/login\.[0-9a-f]{10}\.woff2)'\)/.exec(css.body);
    expect(login).not.toBeNull();
    expect((await server.app.inject(login![1])).rawPayload.subarray(0, 4).toString('latin1')).toBe('wOF2');
  });
});
