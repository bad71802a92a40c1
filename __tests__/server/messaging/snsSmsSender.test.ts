// The SNS sender's limits with the SDK's own middleware (signing, retries, timeouts) against a local HTTP server that
// fails as an endpoint can: how many times it asks, and how long it waits. What SNS records of a message sent (the
// number, the text, the sender ID…) is tried against an AWS emulator: __tests__/aws/snsSmsSender.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { snsSmsSender } from '../../../server/services/messaging/snsSmsSender';
import type { OutgoingMessage } from '../../../server/services/messaging/types';
import { logCollector } from '../helpers';

const CODE = '730418';
const message: OutgoingMessage = { channel: 'sms', to: '+34600111333', purpose: 'signature-code', text: `Divilo: código de firma ${CODE}` };

describe('the SNS sender at the SDK boundary', () => {
  const logs = logCollector();
  const log = pino({ level: 'trace' }, logs.stream);
  let server: Server;
  let endpoint: string;
  let requests: { body: string; authorization?: string }[];
  let answer: (req: IncomingMessage, res: ServerResponse) => void;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        requests.push({ body, authorization: req.headers.authorization });
        answer(req, res);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  beforeEach(() => {
    requests = [];
  });
  afterEach(() => expect(logs.text()).not.toMatch(new RegExp(`${CODE}|600111333`)));
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const sender = (timeouts?: { connectMs: number; answerMs: number }) =>
    snsSmsSender({ region: 'eu-west-1', endpoint, senderId: 'Divilo', credentials: { accessKeyId: 'AKIATEST', secretAccessKey: 'secret' }, log, timeouts });
  const failureOf = async (sending: Promise<void>) => {
    const error = await sending.then(
      () => undefined,
      (thrown: unknown) => thrown as Error,
    );
    expect(error).toBeDefined();
    expect(`${error!.message} ${error!.stack}`).not.toMatch(new RegExp(`${CODE}|600111333`));
    return error!.message;
  };

  it('asks twice when the endpoint fails (the SDK retries once), then reports the SMS not sent', async () => {
    answer = (_req, res) => res.writeHead(500, { 'content-type': 'text/xml' }).end(`<ErrorResponse><Error><Code>InternalError</Code><Message>${message.text}</Message></Error></ErrorResponse>`);
    const sms = sender();
    expect(await failureOf(sms.send(message))).toBe('SMS not sent to ********333: SNS answered InternalErrorException (HTTP 500)');
    sms.destroy();
    expect(requests).toHaveLength(2);
    // A signed Publish of the text, with the message type and sender ID.
    const form = new URLSearchParams(requests[0].body);
    expect(requests[0].authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATEST\/\d{8}\/eu-west-1\/sns\/aws4_request/);
    expect(Object.fromEntries(form)).toMatchObject({ Action: 'Publish', PhoneNumber: message.to, Message: message.text });
    const attributes = [...form.entries()].filter(([key]) => key.endsWith('.Name')).map(([, name]) => name);
    expect(attributes.sort()).toEqual(['AWS.SNS.SMS.SMSType', 'AWS.SNS.SMS.SenderID']);
    expect(logs.entries()).toContainEqual(expect.objectContaining({ msg: 'SMS not sent: SNS did not take it', to: '********333', purpose: 'signature-code', reason: 'InternalErrorException', status: 500 }));
  });

  it('does not ask again when SNS refuses the message', async () => {
    answer = (_req, res) => res.writeHead(400, { 'content-type': 'text/xml' }).end('<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>Invalid parameter: PhoneNumber Reason: +34600111333 is not valid</Message></Error></ErrorResponse>');
    const sms = sender();
    expect(await failureOf(sms.send(message))).toBe('SMS not sent to ********333: SNS answered InvalidParameterException (HTTP 400)');
    sms.destroy();
    expect(requests).toHaveLength(1);
  });

  it('gives up on an endpoint that never answers, after two attempts of its answer time', async () => {
    answer = () => undefined;
    const sms = sender({ connectMs: 1_000, answerMs: 150 });
    expect(await failureOf(sms.send(message))).toBe('SMS not sent to ********333: SNS answered TimeoutError');
    sms.destroy();
    expect(requests).toHaveLength(2);
  });

  it('refuses a number not in E.164 and an e-mail without asking SNS', async () => {
    answer = (_req, res) => res.writeHead(500).end();
    const sms = sender();
    expect(await failureOf(sms.send({ ...message, to: '600111333' }))).toBe('SMS not sent to ******333: the number is not in E.164');
    await expect(sms.send({ ...message, channel: 'email' })).rejects.toThrow('cannot send email');
    sms.destroy();
    expect(requests).toEqual([]);
  });
});
