// Answers carrying an applicant's or a customer's data are never stored by a cache: `Cache-Control: no-store` on
// every answer of the areas that serve them, errors included, and on the signed-in page.
import { randomUUID } from 'node:crypto';
import { DEMO_CUSTOMERS } from '../../server/plugins/demoCustomers';
import { describeEachDialect } from './helpers';
import { lastCode, passCaptcha, signIn, startLoginServerOn, verificationSignature } from './login/loginServer';
import { call, readyToSign } from './onboarding/signing';

const [ana] = DEMO_CUSTOMERS;

/** The API areas whose every answer is about a person. */
const PERSONAL_AREAS = ['/api/onboarding-management-private/', '/api/onboarding-management/', '/api/user-authorization-management/'];

describeEachDialect('personal data is never cached', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  it('every route of the areas that serve applicants and customers answers no-store, a refusal too', async () => {
    const document = server.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(document.paths)
      .filter(([path]) => PERSONAL_AREAS.some((area) => path.startsWith(area)))
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, 'x') })));
    // The areas' routes as the API document lists them: the application, its steps, documents, contract, login.
    expect(routes.length).toBeGreaterThan(25);
    expect(routes).toEqual(expect.arrayContaining([{ method: 'GET', path: '/api/onboarding-management-private/application' }, { method: 'GET', path: '/api/onboarding-management-private/documents' }]));
    for (const { method, path } of routes) {
      const answer = await server.app.inject({ method: method as 'GET', url: path, ...(method === 'GET' ? {} : { payload: {} }) });
      expect({ method, path, cacheControl: answer.headers['cache-control'] }).toEqual({ method, path, cacheControl: 'no-store' });
    }
  });

  it("an applicant's application, documents and contract are answered no-store", async () => {
    const { token } = await readyToSign(server, '00000060X');
    for (const path of ['application', 'documents', 'contract', 'contract/text']) {
      const response = await fetch(`${server.api}/onboarding-management-private/${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect({ path, status: response.status, cacheControl: response.headers.get('cache-control') }).toEqual({ path, status: 200, cacheControl: 'no-store' });
    }
    expect((await call(server, token, 'POST', 'session/renew')).status).toBe(200);
  });

  it('the login answers and the signed-in page are answered no-store; a public file is not', async () => {
    const sessionId = randomUUID();
    const idToken = await signIn(server.base, ana.username, ana.password);
    await passCaptcha(server.api, sessionId);
    const started = await fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { authorization: `Bearer ${idToken}`, 'x-divilo-session-id': sessionId },
    });
    expect(started.status).toBe(200);
    expect(started.headers.get('cache-control')).toBe('no-store');
    const { token } = (await started.json()) as { token: string };
    const confirmed = await fetch(`${server.api}/user-authorization-management/create-session`, {
      method: 'POST',
      headers: { 'x-divilo-session-id': sessionId, 'x-divilo-verification-signature': verificationSignature(token, await lastCode(server.app, ana.phone)) },
    });
    expect(confirmed.status).toBe(201);
    expect(confirmed.headers.get('cache-control')).toBe('no-store');
    const cookie = (confirmed.headers.get('set-cookie') ?? '').split(';')[0];
    const session = await fetch(`${server.api}/user-authorization-management/get-session`, { headers: { cookie } });
    expect([session.status, session.headers.get('cache-control')]).toEqual([200, 'no-store']);
    const page = await fetch(`${server.base}/app`, { headers: { cookie }, redirect: 'manual' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(ana.username);
    expect(page.headers.get('cache-control')).toBe('no-store');

    // The hook marks the routes that say so, not every answer: the texts of the app stay cacheable.
    expect((await fetch(`${server.base}/locales/es.json`)).headers.get('cache-control')).toBe('no-cache');
  });
});
