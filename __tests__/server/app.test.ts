import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hashSessionId, SESSION_COOKIE } from '../../server/routes/user-authorization-management';
import { buildTestApp, logCollector, openTestDatabase } from './helpers';

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
  writeFileSync(path.join(distDir, 'assets', 'main.0123456789.js'), 'console.log(1)');
  writeFileSync(path.join(localesDir, 'en.json'), JSON.stringify({ 'app.title': 'Divilo' }));
  writeFileSync(path.join(localesDir, 'es.json'), JSON.stringify({ 'app.title': 'Divilo' }));
  writeFileSync(path.join(fixtures, 'secret.json'), '{"secret":true}');
});
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

describe('the server', () => {
  let server: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    server = await buildTestApp({ CORS_ORIGINS: 'https://app.divilo.es' }, { distDir, localesDir });
  });
  afterAll(() => server.close());

  it('answers /health when the database answers', async () => {
    const response = await server.app.inject('/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it('gives the web app its configuration, never cached', async () => {
    const response = await server.app.inject('/config.json');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toMatchObject({ apiBaseUrl: '/api', identity: { userPoolId: 'local_Divilo1' }, captcha: { provider: 'altcha' } });
  });

  it('serves the locale files with a validator, and only those', async () => {
    const first = await server.app.inject('/locales/en.json');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ 'app.title': 'Divilo' });
    const again = await server.app.inject({ url: '/locales/en.json', headers: { 'if-none-match': String(first.headers.etag) } });
    expect(again.statusCode).toBe(304);
    expect((await server.app.inject('/locales/fr.json')).json()).toMatchObject({ code: 'LOCALE_NOT_FOUND' });
    for (const url of ['/locales/..%2fsecret.json', '/locales/%2e%2e%2fsecret.json', '/locales/../secret.json']) {
      const response = await server.app.inject(url);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('"secret":true');
    }
  });

  it('sends the security headers: a CSP without inline scripts, no framing, no sniffing', async () => {
    const response = await server.app.inject({ url: '/login', headers: { accept: 'text/html' } });
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
  });

  it('allows the configured origin and no other', async () => {
    const preflight = (origin: string) =>
      server.app.inject({ method: 'OPTIONS', url: '/api/user-authorization-management/get-session', headers: { origin, 'access-control-request-method': 'GET' } });
    expect((await preflight('https://app.divilo.es')).headers['access-control-allow-origin']).toBe('https://app.divilo.es');
    expect((await preflight('https://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('answers an unknown API path with a JSON 404 and a code', async () => {
    const response = await server.app.inject({ url: '/api/nothing-here', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('serves the SPA for its routes, and hashed assets with a long cache', async () => {
    const page = await server.app.inject({ url: '/recover-password/init?lang=ES', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="app">');
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await server.app.inject('/assets/main.0123456789.js');
    expect(asset.headers['cache-control']).toContain('immutable');
  });

  it('echoes a well-formed request id and replaces a malformed one', async () => {
    const kept = await server.app.inject({ url: '/health', headers: { 'x-request-id': 'req-12345678' } });
    expect(kept.headers['x-request-id']).toBe('req-12345678');
    const replaced = await server.app.inject({ url: '/health', headers: { 'x-request-id': 'bad id\u0000' } });
    expect(replaced.headers['x-request-id']).not.toBe('bad id\u0000');
    expect(String(replaced.headers['x-request-id'])).toMatch(/^[\w-]{8,64}$/);
  });

  it('publishes the OpenAPI document built from the route schemas', async () => {
    const document = (await server.app.inject('/docs/json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/health', '/api/user-authorization-management/get-session']));
  });
});

describe('customer sessions: get-session', () => {
  let server: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    server = await buildTestApp({}, { distDir, localesDir });
  });
  afterAll(() => server.close());

  const getSession = (cookie?: string) =>
    server.app.inject({ url: '/api/user-authorization-management/get-session', cookies: cookie ? { [SESSION_COOKIE]: cookie } : {} });

  it('401 without a cookie, 200 with a live session, 401 once revoked', async () => {
    expect((await getSession()).json()).toMatchObject({ code: 'NO_SESSION' });
    await server.app.loginSessions.create({ idHash: hashSessionId('cookie-value-1'), userSub: 'u1', username: 'name-u1', expiresAt: new Date(Date.now() + 3600_000) });
    const live = await getSession('cookie-value-1');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ authenticated: true });
    expect((await getSession('another-value')).statusCode).toBe(401);
    await server.app.loginSessions.revoke(hashSessionId('cookie-value-1'));
    expect((await getSession('cookie-value-1')).statusCode).toBe(401);
  });
});

describe('protection', () => {
  it('rate limits with a code', async () => {
    const server = await buildTestApp({ RATE_LIMIT_MAX: '3' }, { distDir, localesDir });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) statuses.push((await server.app.inject('/api/user-authorization-management/get-session')).statusCode);
    const limited = await server.app.inject('/api/user-authorization-management/get-session');
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED' });
    await server.close();
  });

  it('answers 503 on /health when the database is gone', async () => {
    const database = await openTestDatabase('sqlite');
    const server = await buildTestApp({}, { distDir, localesDir, database });
    await database.destroy();
    const response = await server.app.inject('/health');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'DATABASE_UNAVAILABLE' });
    await server.app.close();
  });

  it('never logs credentials, codes or tokens', async () => {
    const logs = logCollector();
    const server = await buildTestApp({ LOG_LEVEL: 'info' }, { distDir, localesDir, logStream: logs.stream });
    await server.app.inject({
      method: 'POST',
      url: '/api/user-authorization-management/create-session?response=captcha-token-abc',
      headers: { authorization: 'Bearer id-token-xyz', 'x-divilo-verification-signature': 'c2lnbmF0dXJl' },
      cookies: { [SESSION_COOKIE]: 'cookie-secret-123' },
      payload: { password: 'Secreto-2026!', code: '482913' },
    });
    await server.close();
    const text = logs.text();
    expect(text).toContain('create-session');
    for (const secret of ['captcha-token-abc', 'id-token-xyz', 'c2lnbmF0dXJl', 'cookie-secret-123', 'Secreto-2026!', '482913']) {
      expect(text).not.toContain(secret);
    }
  });

  it('without a built web app, a page request says how to build it', async () => {
    const server = await buildTestApp({}, { distDir: path.join(fixtures, 'missing'), localesDir });
    const response = await server.app.inject({ url: '/login', headers: { accept: 'text/html' } });
    expect(response.statusCode).toBe(503);
    expect(response.body).toContain('npm run build');
    await server.close();
  });
});
