import nodemailer from 'nodemailer';
import type { MessageSender, OutgoingMessage } from './types';

interface SmtpOptions {
  /** e.g. `smtps://user:password@smtp.example.com:465` */
  url: string;
  from: string;
}

/** E-mail through any SMTP server (nodemailer). SMS messages are not its business. */
export function smtpSender(options: SmtpOptions): MessageSender {
  const transport = nodemailer.createTransport(options.url);
  return {
    async send(message: OutgoingMessage) {
      if (message.channel !== 'email') throw new Error(`The SMTP sender cannot send ${message.channel}`);
      await transport.sendMail({ from: options.from, to: message.to, subject: message.subject ?? 'Divilo', text: message.text });
    },
  };
}
