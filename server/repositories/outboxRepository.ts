import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/** The messages the embedded default stores instead of sending them (listed at /dev/outbox outside production). */
export function outboxRepository(db: Kysely<Database>) {
  return {
    async store(message: { channel: 'sms' | 'email'; to: string; purpose: string; text: string }, now: Date): Promise<void> {
      await db
        .insertInto('outbox')
        .values({ channel: message.channel, recipient: message.to, purpose: message.purpose, text: message.text, created_at: toDbTime(now) })
        .execute();
    },

    async listNewest(limit = 50) {
      return db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
    },

    /** Removes the messages stored at `before` or earlier; answers how many went. */
    async removeStoredBefore(before: Date): Promise<number> {
      const result = await db.deleteFrom('outbox').where('created_at', '<=', toDbTime(before)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type OutboxRepository = ReturnType<typeof outboxRepository>;
