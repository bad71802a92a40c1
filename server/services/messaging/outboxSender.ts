import type { FastifyBaseLogger } from 'fastify';
import type { OutboxRepository } from '../../repositories/outboxRepository';
import { maskCode, type MessageSender } from './types';

/**
 * The embedded default: messages are stored (listed at /dev/outbox outside production) and logged with the
 * code masked, instead of going to an SMS provider or a mail server.
 */
export function outboxSender(outbox: Pick<OutboxRepository, 'store'>, clock: () => Date, log: FastifyBaseLogger): MessageSender {
  return {
    async send(message) {
      await outbox.store(message, clock());
      log.info({ channel: message.channel, purpose: message.purpose, text: maskCode(message.text) }, 'message stored in the outbox');
    },
  };
}
