import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { smtpSender } from '../../../server/services/messaging/smtpSender';
import { maskCode, maskPhone } from '../../../server/services/messaging/types';

// No mail server can be reached from here: a local one stands in for it, so the sender's real requests are what
// is checked (the SMS senders: httpSmsSender.test.ts here, and against an AWS emulator __tests__/aws/snsSmsSender.test.ts).

describe('the SMTP sender', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: { from?: string; to: string[]; raw: string }[] = [];

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
        stream.on('end', () => {
          received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined, to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('delivers an e-mail with sender, recipient, subject and text', async () => {
    await smtpSender({ url: `smtp://127.0.0.1:${port}`, from: 'no-reply@divilo.test' }).send({
      channel: 'email',
      to: 'ana@example.es',
      purpose: 'email-code',
      subject: 'Tu código',
      text: 'Tu código es 482913',
    });
    expect(received).toHaveLength(1);
    expect(received[0].from).toBe('no-reply@divilo.test');
    expect(received[0].to).toEqual(['ana@example.es']);
    expect(received[0].raw).toContain('482913');
  });

  it('refuses to send an SMS', async () => {
    await expect(smtpSender({ url: `smtp://127.0.0.1:${port}`, from: 'x@y.z' }).send({ channel: 'sms', to: '+34600', purpose: 'notice', text: 't' })).rejects.toThrow(
      'cannot send sms',
    );
  });
});

describe('masking', () => {
  it('shows no digit of a code, and only the last three of a phone', () => {
    expect(maskCode('Tu código es 482913. Caduca en 5 minutos.')).toBe('Tu código es ••••••. Caduca en 5 minutos.');
    expect(maskCode('Your code is 007300, not 0073')).toBe('Your code is ••••••, not ••••');
    expect(maskPhone('+34 600 111 222')).toBe('********222');
  });
});
