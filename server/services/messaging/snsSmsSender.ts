import { PublishCommand, SNSClient, type MessageAttributeValue } from '@aws-sdk/client-sns';
import type { FastifyBaseLogger } from 'fastify';
import { maskPhone, type MessageSender, type OutgoingMessage } from './types';

export interface SnsSmsOptions {
  region: string;
  /** Absent: AWS itself (the SDK's own endpoint settings are read by the configuration, docs/server.md). */
  endpoint?: string;
  /** The alphanumeric sender ID the phone shows (registered with the CNMC for Spain: docs/deploy.md). */
  senderId: string;
  /** A number of the account's to send from, where the destination country takes no sender ID. */
  originationNumber?: string;
  /** The most, in US dollars, one message may cost; SNS does not send a dearer one. */
  maxPriceUsd?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** A connection must open within `connectMs`, and the whole answer arrive within `answerMs` of the start; two attempts in all. */
  timeouts?: { connectMs: number; answerMs: number };
  log: FastifyBaseLogger;
}

/** A code is only worth its five minutes: an SMS that cannot be handed to SNS within seconds is reported as not sent. */
const TIMEOUTS = { connectMs: 2_000, answerMs: 4_000 };
/**
 * One retry (the SDK's backoff: throttling, 5xx, a dropped connection). Publish has no idempotency key: a retry
 * after an answer lost on the way may text the same code twice, which costs a message and confuses nobody.
 */
const ATTEMPTS = 2;
const E164 = /^\+[1-9]\d{1,14}$/;

const attribute = (value: string, type: 'String' | 'Number' = 'String'): MessageAttributeValue => ({ DataType: type, StringValue: value });

/**
 * SMS through Amazon SNS: one Publish to the phone number, transactional (the route for codes, not marketing), from
 * the bank's sender ID. Only the masked phone, the purpose and SNS's MessageId are logged; the text holds the code
 * and goes nowhere but to SNS.
 */
export function snsSmsSender(options: SnsSmsOptions): MessageSender & { destroy(): void } {
  const timeouts = options.timeouts ?? TIMEOUTS;
  const client = new SNSClient({
    region: options.region,
    ...(options.endpoint !== undefined && { endpoint: options.endpoint }),
    ...(options.credentials !== undefined && { credentials: options.credentials }),
    maxAttempts: ATTEMPTS,
    // Without throwOnRequestTimeout the SDK's handler only warns when the time is up, and waits on.
    requestHandler: { connectionTimeout: timeouts.connectMs, requestTimeout: timeouts.answerMs, throwOnRequestTimeout: true },
  });
  const MessageAttributes: Record<string, MessageAttributeValue> = {
    'AWS.SNS.SMS.SMSType': attribute('Transactional'),
    'AWS.SNS.SMS.SenderID': attribute(options.senderId),
    ...(options.originationNumber !== undefined && { 'AWS.MM.SMS.OriginationNumber': attribute(options.originationNumber) }),
    ...(options.maxPriceUsd !== undefined && { 'AWS.SNS.SMS.MaxPrice': attribute(options.maxPriceUsd, 'Number') }),
  };

  return {
    async send(message: OutgoingMessage) {
      if (message.channel !== 'sms') throw new Error(`The SNS sender cannot send ${message.channel}`);
      const to = maskPhone(message.to);
      // SNS would refuse it too, but with the whole number in its error.
      if (!E164.test(message.to)) throw new Error(`SMS not sent to ${to}: the number is not in E.164`);
      let messageId: string | undefined;
      try {
        ({ MessageId: messageId } = await client.send(new PublishCommand({ PhoneNumber: message.to, Message: message.text, MessageAttributes })));
      } catch (error) {
        // SNS's own message may repeat the number or the request: only the error's name and status go on.
        const reason = error instanceof Error ? error.name : 'Error';
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        options.log.warn({ channel: 'sms', purpose: message.purpose, to, reason, status }, 'SMS not sent: SNS did not take it');
        throw new Error(`SMS not sent to ${to}: SNS answered ${reason}${status === undefined ? '' : ` (HTTP ${status})`}`);
      }
      options.log.info({ channel: 'sms', purpose: message.purpose, to, messageId }, 'SMS handed to SNS');
    },
    destroy: () => client.destroy(),
  };
}
