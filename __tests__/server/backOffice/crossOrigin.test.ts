// Writes a cookie authorises, forged from another page: a form on another origin of the same site (another port of
// localhost, which SameSite=Strict lets the cookie go to), a script of another site, a form with no origin. Every
// state-changing route of the back office refuses them and changes nothing; the product's own calls still work.
import { describeEachDialect } from '../helpers';
import { startLoginServerOn } from '../login/loginServer';
import { consentAndSign, readyToSign } from '../onboarding/signing';
import { nextDni, signedInStaff, staffCall } from './staff';

jest.setTimeout(120_000);

/** What a page at http://localhost:18304 makes the browser send to the server on another port of the same host. */
const SAME_SITE_FORM = { origin: 'http://localhost:18304', 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate', 'content-type': 'text/plain' };

describeEachDialect('writes from other origins', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect, { RATE_LIMIT_MAX: '100000' });
  });
  afterAll(() => server.close());

  async function signedApplication() {
    const { id, token } = await readyToSign(server, nextDni(), { identityCheck: 'approved' });
    expect((await consentAndSign(server, token)).status).toBe(200);
    return id;
  }
  const statusOf = async (id: string) => (await server.app.applications.find(id))!.status;
  const post = (path: string, headers: Record<string, string>, body: string) => fetch(`${server.base}${path}`, { method: 'POST', headers, body, redirect: 'manual' });

  it('refuses on every state-changing route of the back office a form posted from another origin of the same site', async () => {
    const approver = await signedInStaff(server, ['approver', 'reviewer', 'administrator']);
    const document = (await (await fetch(`${server.base}/docs/json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const writes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/staff-api/'))
      .flatMap(([path, operations]) => Object.keys(operations).filter((method) => ['post', 'put', 'patch', 'delete'].includes(method)).map((method) => ({ method, path })));
    // The sign-in, the session's end, decisions, the bank's requests for more, templates: none may be missing here.
    expect(writes.length).toBeGreaterThanOrEqual(6);
    for (const { method, path } of writes) {
      const url = path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
      const answer = await fetch(`${server.base}${url}`, { method: method.toUpperCase(), headers: { ...SAME_SITE_FORM, cookie: approver.cookie }, body: 'reason=x' });
      expect({ method, path, status: answer.status, code: ((await answer.json()) as { code: string }).code }).toEqual({ method, path, status: 403, code: 'CROSS_ORIGIN_REFUSED' });
    }
    // The session was not ended by the forged DELETE.
    expect((await staffCall(server, approver.cookie, 'GET', '/session')).status).toBe(200);
  });

  it('approves nothing forged: a same-site form, a script of another site, a form whose origin the browser hides', async () => {
    const approver = await signedInStaff(server, ['approver']);
    const id = await signedApplication();
    const path = `/staff-api/applications/${id}/approve`;
    const forged = [
      await post(path, { ...SAME_SITE_FORM, cookie: approver.cookie }, ''),
      // A script of another site with the cookie (a browser sending it despite SameSite), as JSON.
      await post(path, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', 'content-type': 'application/json', cookie: approver.cookie }, '{}'),
      await post(path, { origin: 'https://evil.example', 'content-type': 'application/json', cookie: approver.cookie }, '{}'),
      // A sandboxed frame's form: Origin null.
      await post(path, { origin: 'null', 'content-type': 'application/x-www-form-urlencoded', cookie: approver.cookie }, 'a=b'),
      // A browser that names no origin: still no form body.
      await post(path, { 'content-type': 'text/plain', cookie: approver.cookie }, ''),
      await post(path, { 'content-type': 'application/x-www-form-urlencoded', cookie: approver.cookie }, 'a=b'),
    ];
    expect(await Promise.all(forged.map(async (answer) => [answer.status, ((await answer.json()) as { code: string }).code]))).toEqual([
      [403, 'CROSS_ORIGIN_REFUSED'],
      [403, 'CROSS_ORIGIN_REFUSED'],
      [403, 'CROSS_ORIGIN_REFUSED'],
      [403, 'CROSS_ORIGIN_REFUSED'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
      [415, 'UNSUPPORTED_MEDIA_TYPE'],
    ]);
    expect(await statusOf(id)).toBe('pending-review');

    // The back office's own call: same origin, JSON.
    const own = await post(path, { origin: new URL(server.base).origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', cookie: approver.cookie }, '{}');
    expect(own.status).toBe(200);
    expect(await statusOf(id)).toBe('approved');
  });

  it("ends a customer's session only from the product's pages", async () => {
    const logout = (headers: Record<string, string>, body: string) => post('/api/user-authorization-management/logout', { cookie: 'divilo_session=anything', ...headers }, body);
    expect((await logout(SAME_SITE_FORM, '')).status).toBe(403);
    expect((await logout({ 'content-type': 'text/plain' }, '')).status).toBe(415);
    expect((await logout({ origin: new URL(server.base).origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' }, '{}')).status).toBe(204);

    // The signed-in page's own form (it works without its script): its origin is checked, its body is a form's.
    const form = (headers: Record<string, string>) => post('/app/logout?lang=en', { cookie: 'divilo_session=anything', 'content-type': 'application/x-www-form-urlencoded', ...headers }, '');
    expect((await form({ origin: 'http://localhost:18304', 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await form({ origin: new URL(server.base).origin, 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    // As Chromium sends it under the pages' Referrer-Policy (no-referrer): Origin null, Sec-Fetch-Site same-origin.
    expect((await form({ origin: 'null', 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    // A sandboxed frame's form names no origin either, and is no same-origin request.
    expect((await form({ origin: 'null', 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await form({ origin: 'null' })).status).toBe(403);
  });
});
