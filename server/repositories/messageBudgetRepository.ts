import { sql, type Kysely } from 'kysely';
import type { Database } from '../db';
import { prepareQuery } from '../db/prepared';
import { toDbTime } from '../db/values';

/** One budget a message is charged to: its key, how many messages it allows per window, and its own window if not the usual. */
export interface BudgetBucket {
  key: string;
  limit: number;
  windowSeconds?: number;
}

/** A bucket as it stands: messages in its current window, and when that window ends. */
interface BucketState {
  key: string;
  sent: number;
  windowEndsAt: string;
}

/** A message's count in one bucket: the bucket, the window it was counted in, and the bucket's count with it. */
export interface ChargedBucket {
  key: string;
  windowEndsAt: string;
  sent: number;
}

type TakeResult = { taken: true; charged: ChargedBucket[] } | { taken: false; refusedBy: string };

/**
 * Message budgets: per bucket, the messages sent in a window that starts with the bucket's first message and
 * restarts once it is over (a fixed window per bucket).
 */
export function messageBudgetRepository(db: Kysely<Database>) {
  // Built and compiled once: every SMS and e-mail runs them (Kysely would build and compile them each time).
  /** One more message in the bucket if it has room or its window is over; no row when it is full. */
  const charge = prepareQuery((key: string, now: string, windowEnd: string, limit: number) =>
    db
      .insertInto('message_budgets')
      .values({ bucket: key, sent: 1, window_ends_at: windowEnd })
      .onConflict((conflict) =>
        conflict
          .column('bucket')
          .doUpdateSet({
            sent: sql<number>`case when message_budgets.window_ends_at <= ${now} then 1 else message_budgets.sent + 1 end`,
            window_ends_at: sql<string>`case when message_budgets.window_ends_at <= ${now} then ${windowEnd} else message_budgets.window_ends_at end`,
          })
          .where((where) => where.or([where('message_budgets.window_ends_at', '<=', now), where('message_budgets.sent', '<', limit)])),
      )
      .returning(['sent', 'window_ends_at']),
  );
  /** One message fewer in the bucket, in the window it was counted in (a newer window is someone else's count). */
  const refund = prepareQuery((key: string, windowEndsAt: string) =>
    db
      .updateTable('message_budgets')
      .set({ sent: sql<number>`sent - 1` })
      .where('bucket', '=', key)
      .where('window_ends_at', '=', windowEndsAt)
      .where('sent', '>', 0),
  );

  return {
    /**
     * Charges one message to every bucket, or to none. Each bucket changes in one statement (an upsert that
     * counts only while the bucket has room, and answers the new count), so simultaneous messages each get
     * their own place and no more than `limit` ever pass. The buckets are charged one after the other; when one
     * is full, the message hands back what it took from those before it, each in one statement. (Until it has,
     * another message may find them one fuller than they end up: a refusal the bank can afford, where a
     * transaction around the buckets would hold the total's row, every message's, until its end.)
     */
    async take(buckets: BudgetBucket[], windowSeconds: number, now: Date): Promise<TakeResult> {
      const nowText = toDbTime(now);
      const taken: ChargedBucket[] = [];
      for (const bucket of buckets) {
        const windowEnd = toDbTime(new Date(now.getTime() + (bucket.windowSeconds ?? windowSeconds) * 1000));
        const { rows } = await charge(db, bucket.key, nowText, windowEnd, bucket.limit);
        if (rows.length === 0) {
          for (const earlier of taken) await refund(db, earlier.key, earlier.windowEndsAt);
          return { taken: false, refusedBy: bucket.key };
        }
        taken.push({ key: bucket.key, windowEndsAt: rows[0].window_ends_at, sent: Number(rows[0].sent) });
      }
      return { taken: true, charged: taken };
    },

    /**
     * Hands back one message's charges (a message its provider did not send), in one statement over all its
     * buckets: each only in the window it was counted in (a newer window is someone else's count), never below
     * zero. Simultaneous refunds and charges of a bucket each change it in their own statement, so none is lost.
     */
    async refund(charged: ChargedBucket[]): Promise<void> {
      if (charged.length === 0) return;
      await db
        .updateTable('message_budgets')
        .set({ sent: sql<number>`sent - 1` })
        .where('sent', '>', 0)
        .where((where) => where.or(charged.map((bucket) => where.and([where('bucket', '=', bucket.key), where('window_ends_at', '=', bucket.windowEndsAt)]))))
        .execute();
    },

    /** The buckets among `keys` with messages in a window still running at `now` (the others count as empty). */
    async read(keys: string[], now: Date): Promise<BucketState[]> {
      if (keys.length === 0) return [];
      const rows = await db
        .selectFrom('message_budgets')
        .select(['bucket', 'sent', 'window_ends_at'])
        .where('bucket', 'in', keys)
        .where('window_ends_at', '>', toDbTime(now))
        .where('sent', '>', 0)
        .execute();
      return rows.map((row) => ({ key: row.bucket, sent: Number(row.sent), windowEndsAt: row.window_ends_at }));
    },

    /** Records that the address keyed `address` entered a code sent to it (once; the first proof stays). */
    async markProven(address: string, now: Date): Promise<void> {
      await db
        .insertInto('proven_email_addresses')
        .values({ address, proven_at: toDbTime(now) })
        .onConflict((conflict) => conflict.column('address').doNothing())
        .execute();
    },

    /** Whether the address keyed `address` has ever entered a code sent to it. */
    async isProven(address: string): Promise<boolean> {
      const row = await db.selectFrom('proven_email_addresses').select('address').where('address', '=', address).executeTakeFirst();
      return row !== undefined;
    },

    /** Housekeeping: forgets the addresses proven before `cutoff`; answers how many went. */
    async removeProvenBefore(cutoff: Date): Promise<number> {
      const result = await db.deleteFrom('proven_email_addresses').where('proven_at', '<', toDbTime(cutoff)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },

    /** Housekeeping: removes the buckets whose window is over at `now`; answers how many went. */
    async removeEnded(now: Date): Promise<number> {
      const result = await db.deleteFrom('message_budgets').where('window_ends_at', '<=', toDbTime(now)).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

export type MessageBudgetRepository = ReturnType<typeof messageBudgetRepository>;
