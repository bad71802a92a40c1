// reCAPTCHA's verification unreachable: the check answers 503 SERVICE_UNAVAILABLE (the screen says the service could
// not be reached), not a refusal of the person as a robot, and grants no pass.
import { recaptchaProvider } from '../../../server/services/captcha/recaptcha';
import { buildTestApp, freePort, type TestApp } from '../helpers';

describe('the captcha provider unreachable', () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await buildTestApp({ CAPTCHA_PROVIDER: 'recaptcha', RECAPTCHA_SITE_KEY: 'site-key', RECAPTCHA_SECRET: 'secret' });
    // Google, at a port where nothing listens.
    server.app.captcha = recaptchaProvider({ secret: 'secret', minScore: 0.5, verifyUrl: `http://127.0.0.1:${await freePort()}/recaptcha/api/siteverify` });
  });
  afterAll(() => server.close());

  it('answers 503, and the session gets no pass', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/captcha/verify', query: { response: 'browser-token', sessionId: 'session-0001' } });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String) });
    expect(await server.app.captchaGate.consumePass('session-0001', new Date())).toBe(false);
  });
});
