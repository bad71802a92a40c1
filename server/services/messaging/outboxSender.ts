import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db';
import { toDbTime } from '../../db/values';
import { maskCode, type MessageSender } from './types';

/**
 * The embedded default: messages are stored (listed at /dev/outbox outside production) and logged with the
 * code masked, instead of going to an SMS provider or a mail server.
 */
export function outboxSender(db: Kysely<Database>, log: FastifyBaseLogger): MessageSender {
  return {
    async send(message) {
      await db
        .insertInto('outbox')
        .values({ channel: message.channel, recipient: message.to, purpose: message.purpose, text: message.text, created_at: toDbTime(new Date()) })
        .execute();
      log.info({ channel: message.channel, purpose: message.purpose, text: maskCode(message.text) }, 'message stored in the outbox');
    },
  };
}

export async function listOutbox(db: Kysely<Database>, limit = 50) {
  return db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
}
