import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { recaptchaProvider } from '../../../server/services/captcha/recaptcha';

// Google cannot be reached from here: a local server stands in for the siteverify API, so the adapter's
// real request and its reading of the answer are what is tested.
let server: Server;
let verifyUrl: string;
let answer: { status: number; body: unknown };
let received: URLSearchParams | undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received = new URLSearchParams(body);
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  verifyUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/recaptcha/api/siteverify`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = undefined;
});

const captcha = () => recaptchaProvider({ secret: 'server-secret', minScore: 0.5, verifyUrl });

describe('the reCAPTCHA v3 adapter', () => {
  it('posts the secret, the token and the client address, and accepts a good score for the right action', async () => {
    answer = { status: 200, body: { success: true, score: 0.9, action: 'login' } };
    expect(await captcha().verify('browser-token', { remoteIp: '203.0.113.7', action: 'login' })).toEqual({ success: true, score: 0.9 });
    expect(received?.get('secret')).toBe('server-secret');
    expect(received?.get('response')).toBe('browser-token');
    expect(received?.get('remoteip')).toBe('203.0.113.7');
  });

  it('refuses a score under the threshold', async () => {
    answer = { status: 200, body: { success: true, score: 0.3, action: 'login' } };
    expect(await captcha().verify('t', { action: 'login' })).toEqual({ success: false, reason: 'low-score', score: 0.3 });
  });

  it('refuses a token made for another action', async () => {
    answer = { status: 200, body: { success: true, score: 0.9, action: 'register' } };
    expect((await captcha().verify('t', { action: 'login' })).reason).toBe('wrong-action');
  });

  it('refuses what Google refuses', async () => {
    answer = { status: 200, body: { success: false, 'error-codes': ['invalid-input-response'] } };
    expect(await captcha().verify('t', { action: 'login' })).toEqual({ success: false, reason: 'invalid' });
  });

  it('fails closed when Google answers an error or cannot be reached', async () => {
    answer = { status: 502, body: {} };
    expect(await captcha().verify('t', {})).toEqual({ success: false, reason: 'unavailable' });
    const unreachable = recaptchaProvider({ secret: 's', minScore: 0.5, verifyUrl: 'http://127.0.0.1:1/siteverify' });
    expect(await unreachable.verify('t', {})).toEqual({ success: false, reason: 'unavailable' });
  });
});
