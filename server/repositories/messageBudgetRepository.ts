import { sql, type Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/** One budget a message is charged to: its key and how many messages it allows per window. */
export interface BudgetBucket {
  key: string;
  limit: number;
}

/** A bucket as it stands: messages in its current window, and when that window ends. */
export interface BucketState {
  key: string;
  sent: number;
  windowEndsAt: string;
}

export type TakeResult = { taken: true } | { taken: false; refusedBy: string };

/** Thrown inside the transaction to undo the buckets already charged. */
class BucketFull extends Error {
  constructor(readonly key: string) {
    super(`message budget ${key} is spent`);
  }
}

/**
 * Message budgets: per bucket, the messages sent in a window that starts with the bucket's first message and
 * restarts once it is over (a fixed window per bucket).
 */
export function messageBudgetRepository(db: Kysely<Database>) {
  return {
    /**
     * Charges one message to every bucket, or to none. Each bucket changes in one statement (an upsert that
     * counts only while the bucket has room, and answers the new count), so simultaneous messages each get
     * their own place and no more than `limit` ever pass; all buckets are charged in one transaction, undone
     * when one of them is full. Buckets are taken in the order of their keys, so two transactions never wait
     * for each other's rows in opposite orders.
     */
    async take(buckets: BudgetBucket[], windowSeconds: number, now: Date): Promise<TakeResult> {
      const nowText = toDbTime(now);
      const windowEnd = toDbTime(new Date(now.getTime() + windowSeconds * 1000));
      const ordered = [...buckets].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      try {
        await db.transaction().execute(async (trx) => {
          for (const bucket of ordered) {
            const row = await trx
              .insertInto('message_budgets')
              .values({ bucket: bucket.key, sent: 1, window_ends_at: windowEnd })
              .onConflict((conflict) =>
                conflict
                  .column('bucket')
                  .doUpdateSet({
                    sent: sql<number>`case when message_budgets.window_ends_at <= ${nowText} then 1 else message_budgets.sent + 1 end`,
                    window_ends_at: sql<string>`case when message_budgets.window_ends_at <= ${nowText} then ${windowEnd} else message_budgets.window_ends_at end`,
                  })
                  .where((where) => where.or([where('message_budgets.window_ends_at', '<=', nowText), where('message_budgets.sent', '<', bucket.limit)])),
              )
              .returning('sent')
              .executeTakeFirst();
            if (row === undefined) throw new BucketFull(bucket.key);
          }
        });
        return { taken: true };
      } catch (error) {
        if (error instanceof BucketFull) return { taken: false, refusedBy: error.key };
        throw error;
      }
    },

    /** The buckets among `keys` whose window is still running at `now` (the others count as empty). */
    async read(keys: string[], now: Date): Promise<BucketState[]> {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('message_budgets')
        .select(['bucket', 'sent', 'window_ends_at'])
        .where('bucket', 'in', keys)
        .where('window_ends_at', '>', toDbTime(now))
        .execute();
      return rows.map((row) => ({ key: row.bucket, sent: Number(row.sent), windowEndsAt: row.window_ends_at }));
    },
  };
}

export type MessageBudgetRepository = ReturnType<typeof messageBudgetRepository>;
