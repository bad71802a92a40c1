// The SNS sender against an AWS emulator (moto) with IAM enforced, signing as a user whose policy is the server's own
// SMS statements (server/awsPermissions.ts): what SNS receives of each message, and what the sender logs and throws.
import pino from 'pino';
import { serverPolicyDocument } from '../../server/awsPermissions';
import { snsSmsSender, type SnsSmsOptions } from '../../server/services/messaging/snsSmsSender';
import type { OutgoingMessage } from '../../server/services/messaging/types';
import { logCollector } from '../server/helpers';
import { describeWhenAvailable, emulatorUnavailable, REGION, startMoto, textMessages, userWithPolicy, type Credentials, type Moto } from './moto';

const describeOnMoto = describeWhenAvailable('SNS sender on the AWS emulator', emulatorUnavailable());

const CODE = '604215';
const message: OutgoingMessage = { channel: 'sms', to: '+34600444555', purpose: 'login-code', text: `Divilo: tu código es ${CODE}. Caduca en 5 minutos.` };

describeOnMoto('the SNS sender on "AWS" (moto, IAM enforced)', () => {
  const logs = logCollector();
  const log = pino({ level: 'trace' }, logs.stream);
  let moto: Moto;
  let texting: Credentials;

  beforeAll(async () => {
    moto = await startMoto();
    // The server's SMS statements and nothing else: the Allow on "*" and the Deny on every topic and endpoint.
    const policy = serverPolicyDocument({ partition: 'aws', region: REGION, account: '123456789012', userPoolId: `${REGION}_None`, identityPoolId: `${REGION}:none`, bucket: 'none' });
    const sms = policy.Statement.filter((statement) => statement.Action.every((action) => action.startsWith('sns:')));
    expect(sms.map((statement) => statement.Sid)).toEqual(['TextMessages', 'NoTopicsOrEndpoints']);
    texting = await userWithPolicy(moto, 'texting', { ...policy, Statement: sms });
  }, 60_000);
  afterEach(() => expect(logs.text()).not.toMatch(new RegExp(`${CODE}|600444555`)));
  afterAll(() => moto?.stop());

  const sender = (options: Partial<SnsSmsOptions> = {}) => snsSmsSender({ region: REGION, endpoint: moto.endpoint, senderId: 'DiviloBank', credentials: texting, log, ...options });

  it('publishes the text to the number, transactional, from the sender ID, with the origination number and price cap', async () => {
    const sms = sender({ originationNumber: '+34900000001', maxPriceUsd: '0.15' });
    await sms.send(message);
    sms.destroy();
    const [sent] = (await textMessages(moto)).slice(-1);
    expect(sent).toEqual({
      messageId: expect.any(String),
      phoneNumber: '+34600444555',
      text: message.text,
      attributes: {
        'AWS.SNS.SMS.SMSType': { Type: 'String', Value: 'Transactional' },
        'AWS.SNS.SMS.SenderID': { Type: 'String', Value: 'DiviloBank' },
        'AWS.MM.SMS.OriginationNumber': { Type: 'String', Value: '+34900000001' },
        'AWS.SNS.SMS.MaxPrice': { Type: 'Number', Value: '0.15' },
      },
      region: REGION,
      account: '123456789012',
    });
    // The log says which message went where, by SNS's id, and never what it said.
    expect(logs.entries()).toContainEqual(expect.objectContaining({ msg: 'SMS handed to SNS', channel: 'sms', purpose: 'login-code', to: '********555', messageId: sent.messageId }));
  });

  it('sends no origination number and no price cap unless configured', async () => {
    const sms = sender();
    await sms.send({ ...message, purpose: 'recovery-code' });
    sms.destroy();
    const [sent] = (await textMessages(moto)).slice(-1);
    expect(Object.keys(sent.attributes).sort()).toEqual(['AWS.SNS.SMS.SMSType', 'AWS.SNS.SMS.SenderID']);
  });

  it('is refused by IAM for a role without sns:Publish: not sent, and neither the error nor the log repeats the text or the number', async () => {
    const before = (await textMessages(moto)).length;
    const sms = sender({ credentials: await userWithPolicy(moto, 'no-sms', { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 'sns:ListTopics', Resource: '*' }] }) });
    const failure = (await sms.send(message).catch((error: unknown) => error)) as Error;
    sms.destroy();
    expect(failure.message).toMatch(/^SMS not sent to \*{8}555: SNS answered \w+ \(HTTP 403\)$/);
    expect(`${failure.message} ${failure.stack}`).not.toMatch(new RegExp(`${CODE}|600444555`));
    expect(await textMessages(moto)).toHaveLength(before);
    expect(logs.entries()).toContainEqual(expect.objectContaining({ msg: 'SMS not sent: SNS did not take it', to: '********555', status: 403 }));
  });
});
