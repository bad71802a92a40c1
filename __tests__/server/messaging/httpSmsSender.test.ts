// The generic HTTP SMS sender against a real HTTP server on this machine, answering as a provider would: every rule of
// the contract in docs/server.md ("The generic HTTP SMS sender"), and the code of the text in no error and no log line.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { httpSmsSender } from '../../../server/services/messaging/httpSmsSender';
import type { OutgoingMessage } from '../../../server/services/messaging/types';
import { logCollector } from '../helpers';

interface Received {
  method?: string;
  path?: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A provider on a local port: each request is answered by the next of `answers` (the last one repeats). */
async function provider() {
  const received: Received[] = [];
  let answers: ((res: ServerResponse) => void)[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ method: req.method, path: req.url, headers: req.headers, body });
      (answers[received.length - 1] ?? answers[answers.length - 1])(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/sms`,
    received,
    answer(...next: ((res: ServerResponse) => void)[]) {
      answers = next;
      received.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => (res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  // A provider may echo the request: the sender must never pass any of it on.
  res.end(JSON.stringify(body));
};
const silent = () => () => undefined;
const reset = () => (res: ServerResponse) => res.socket?.destroy();

const CODE = '538201';
const message: OutgoingMessage = { channel: 'sms', to: '+34600111222', purpose: 'login-code', text: `Divilo: tu código es ${CODE}` };

describe('the generic HTTP SMS sender (docs/server.md)', () => {
  let sms: Awaited<ReturnType<typeof provider>>;
  const logs = logCollector();
  const log = pino({ level: 'trace' }, logs.stream);
  let waits: number[];
  const sender = (overrides: { timeoutMs?: number } = {}) =>
    httpSmsSender({ url: sms.url, apiKey: 'provider-key-9f8e', sender: 'Divilo', log, wait: async (ms) => void waits.push(ms), ...overrides });
  /** What a send threw (or undefined), checked to hold no code, no key and no whole number. */
  const failureOf = async (sending: Promise<void>) => {
    const error = await sending.then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    if (error) expect(`${error.message} ${error.stack}`).not.toMatch(new RegExp(`${CODE}|provider-key|600111222`));
    return error?.message;
  };

  beforeAll(async () => {
    sms = await provider();
  });
  beforeEach(() => {
    waits = [];
  });
  afterEach(() => {
    // No log line holds the code, the key or the whole number, whatever happened.
    expect(logs.text()).not.toMatch(new RegExp(`${CODE}|provider-key|600111222`));
  });
  afterAll(() => sms.close());

  it('posts the JSON message with the bearer key and an idempotency key, and counts a 2xx with an id as sent', async () => {
    sms.answer(json(201, { id: 'msg-42', echo: message.text }));
    await sender().send(message);
    expect(sms.received).toHaveLength(1);
    const [request] = sms.received;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/sms' });
    expect(request.headers).toMatchObject({ authorization: 'Bearer provider-key-9f8e', 'content-type': 'application/json; charset=utf-8', accept: 'application/json' });
    expect(request.headers['idempotency-key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(JSON.parse(request.body)).toEqual({ to: '+34600111222', from: 'Divilo', text: message.text });
    const sent = logs.entries().find((entry) => entry.msg === 'SMS handed to the provider');
    expect(sent).toMatchObject({ channel: 'sms', purpose: 'login-code', to: '********222', providerId: 'msg-42', attempts: 1 });
  });

  it('gives every message its own idempotency key', async () => {
    sms.answer(json(200, { id: 'a' }));
    await sender().send(message);
    await sender().send(message);
    expect(new Set(sms.received.map((request) => request.headers['idempotency-key'])).size).toBe(2);
  });

  it.each([400, 401, 403, 404, 422])('takes %i as not sent and does not try again', async (status) => {
    sms.answer(json(status, { error: 'refused', echo: message.text }));
    expect(await failureOf(sender().send(message))).toBe(`SMS not sent to ********222: the provider answered ${status} (attempt 1)`);
    expect(sms.received).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('tries a 5xx again with the same idempotency key, after 250 ms, and is sent by the second answer', async () => {
    sms.answer(json(503, {}), json(200, { id: 'msg-43' }));
    await sender().send(message);
    expect(sms.received).toHaveLength(2);
    expect(sms.received[1].headers['idempotency-key']).toBe(sms.received[0].headers['idempotency-key']);
    expect(sms.received[1].body).toBe(sms.received[0].body);
    expect(waits).toEqual([250]);
  });

  it('stops after three attempts, waiting 250 ms and 1 s between them', async () => {
    sms.answer(json(500, { echo: message.text }));
    expect(await failureOf(sender().send(message))).toBe('SMS not sent to ********222: the provider answered 500 (attempt 3)');
    expect(sms.received).toHaveLength(3);
    expect(waits).toEqual([250, 1000]);
    expect(logs.entries().filter((entry) => entry.msg === 'SMS provider attempt failed').slice(-3)).toEqual(
      [1, 2, 3].map((attempt) => expect.objectContaining({ to: '********222', purpose: 'login-code', attempt, outcome: 'answered 500' })),
    );
  });

  it('follows a 429 or 408 Retry-After of up to 2 s, and gives up when asked to wait longer', async () => {
    sms.answer(json(429, {}, { 'retry-after': '2' }), json(408, {}), json(200, { id: 'msg-44' }));
    await sender().send(message);
    expect(waits).toEqual([2000, 1000]);

    waits = [];
    sms.answer(json(429, {}, { 'retry-after': '30' }));
    expect(await failureOf(sender().send(message))).toBe('SMS not sent to ********222: the provider answered 429 and asked to wait 30 s (attempt 1)');
    expect(sms.received).toHaveLength(1);
  });

  it('takes a 2xx without an id as not sent, and does not try again', async () => {
    sms.answer((res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('OK'));
    expect(await failureOf(sender().send(message))).toBe('SMS not sent to ********222: the provider answered 200 without an id (attempt 1)');
    sms.answer(json(202, { id: '' }));
    expect(await failureOf(sender().send(message))).toBe('SMS not sent to ********222: the provider answered 202 without an id (attempt 1)');
    expect(sms.received).toHaveLength(1);
  });

  it('tries again when the connection drops or no answer comes in time', async () => {
    sms.answer(reset(), json(200, { id: 'msg-45' }));
    await sender().send(message);
    expect(sms.received).toHaveLength(2);

    // The first request is never answered: the attempt's own time limit ends it.
    sms.answer(silent(), json(200, { id: 'msg-46' }));
    await sender({ timeoutMs: 200 }).send(message);
    expect(sms.received).toHaveLength(2);
    expect(logs.entries()).toContainEqual(expect.objectContaining({ msg: 'SMS provider attempt failed', outcome: 'no answer in time', attempt: 1 }));
  });

  it('does not follow a redirect (the key would go with it), and does not try again', async () => {
    const elsewhere = await provider();
    elsewhere.answer(json(200, { id: 'stolen' }));
    sms.answer((res) => res.writeHead(307, { location: elsewhere.url }).end());
    expect(await failureOf(sender().send(message))).toBe('SMS not sent to ********222: the provider answered 307 (attempt 1)');
    expect(elsewhere.received).toEqual([]);
    await elsewhere.close();
  });

  it('refuses an e-mail', async () => {
    await expect(sender().send({ ...message, channel: 'email' })).rejects.toThrow('cannot send email');
  });
});
