import { sql, type Kysely, type Selectable } from 'kysely';
import type { Database } from '../db';
import type { OneTimeCodeTable } from '../db/schema';
import { toDbTime } from '../db/values';

export type OneTimeCodeRow = Selectable<OneTimeCodeTable>;

/**
 * One-time code challenges (only an HMAC of each code), the wrong answers each person gave per purpose, and the
 * blocks too many of them earned. `keys`: the keys one person counts under, always in the same order.
 */
export function oneTimeCodeRepository(db: Kysely<Database>) {
  const newest = (purpose: string, subject: string) => db.selectFrom('one_time_codes').selectAll().where('purpose', '=', purpose).where('subject', '=', subject).orderBy('created_at', 'desc');

  return {
    async add(challenge: OneTimeCodeRow): Promise<void> {
      await db.insertInto('one_time_codes').values(challenge).execute();
    },

    async find(id: string, sessionId?: string): Promise<OneTimeCodeRow | undefined> {
      let query = db.selectFrom('one_time_codes').selectAll().where('id', '=', id);
      if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
      return query.executeTakeFirst();
    },

    async findOpen(id: string): Promise<OneTimeCodeRow | undefined> {
      return db.selectFrom('one_time_codes').selectAll().where('id', '=', id).where('consumed_at', 'is', null).executeTakeFirst();
    },

    /** The newest challenge of a person for a purpose, open or used up. */
    newest: (purpose: string, subject: string): Promise<OneTimeCodeRow | undefined> => newest(purpose, subject).executeTakeFirst(),

    newestOpen: (purpose: string, subject: string): Promise<OneTimeCodeRow | undefined> => newest(purpose, subject).where('consumed_at', 'is', null).executeTakeFirst(),

    /** Uses up every open challenge of a person for a purpose. */
    async useUpOpen(purpose: string, subject: string, now: Date): Promise<void> {
      await db.updateTable('one_time_codes').set({ consumed_at: toDbTime(now) }).where('purpose', '=', purpose).where('subject', '=', subject).where('consumed_at', 'is', null).execute();
    },

    /** Uses up an open challenge in one conditional statement: true for one caller only. */
    async consume(id: string, now: Date): Promise<boolean> {
      const used = await db.updateTable('one_time_codes').set({ consumed_at: toDbTime(now) }).where('id', '=', id).where('consumed_at', 'is', null).executeTakeFirst();
      return Number(used.numUpdatedRows) === 1;
    },

    async useUp(id: string, now: Date): Promise<void> {
      await db.updateTable('one_time_codes').set({ consumed_at: toDbTime(now) }).where('id', '=', id).execute();
    },

    /** Opens again a challenge used up at `consumedAt` (by a right answer), in one conditional statement. */
    async reopen(id: string, consumedAt: string): Promise<void> {
      await db.updateTable('one_time_codes').set({ consumed_at: null }).where('id', '=', id).where('consumed_at', '=', consumedAt).execute();
    },

    /**
     * Takes back one send of a challenge whose message did not go, while it still holds that code (`codeHash`):
     * one send fewer, and a new code may be asked for from `now`.
     */
    async takeBackSend(id: string, codeHash: string, now: Date): Promise<void> {
      await db
        .updateTable('one_time_codes')
        .set({ sends: sql<number>`sends - 1`, resend_available_at: toDbTime(now) })
        .where('id', '=', id)
        .where('code_hash', '=', codeHash)
        .where('sends', '>', 0)
        .execute();
    },

    async countWrongAnswer(id: string): Promise<void> {
      await db.updateTable('one_time_codes').set({ attempts: sql<number>`attempts + 1` }).where('id', '=', id).execute();
    },

    /** Moves a used-up challenge's cooldown to `resendAt` if it is over at `now`, in one statement: true for one caller only. */
    async claimReissue(id: string, resendAt: Date, now: Date): Promise<boolean> {
      const claimed = await db
        .updateTable('one_time_codes')
        .set({ resend_available_at: toDbTime(resendAt) })
        .where('id', '=', id)
        .where('consumed_at', 'is not', null)
        .where('resend_available_at', '<=', toDbTime(now))
        .executeTakeFirst();
      return Number(claimed.numUpdatedRows) === 1;
    },

    /**
     * A new code for an open challenge, in one conditional statement (its cooldown over at `now`, fewer than
     * `maxSends` sent): of two simultaneous resends only one passes.
     */
    async replaceCode(id: string, code: { codeHash: string; expiresAt: Date; resendAt: Date }, maxSends: number, now: Date): Promise<boolean> {
      const sent = await db
        .updateTable('one_time_codes')
        .set({ code_hash: code.codeHash, sends: sql<number>`sends + 1`, expires_at: toDbTime(code.expiresAt), resend_available_at: toDbTime(code.resendAt) })
        .where('id', '=', id)
        .where('consumed_at', 'is', null)
        .where('sends', '<', maxSends)
        .where('resend_available_at', '<=', toDbTime(now))
        .executeTakeFirst();
      return Number(sent.numUpdatedRows) === 1;
    },

    /**
     * Moves a person's cooldown for a purpose to `endsAt` if it is over at `now` (or was never started), in one
     * statement: of simultaneous callers one gets true, whether the row existed or not.
     */
    async claimCooldown(purpose: string, subject: string, endsAt: Date, now: Date): Promise<boolean> {
      const claimed = await db
        .insertInto('code_cooldowns')
        .values({ purpose, subject, ends_at: toDbTime(endsAt) })
        .onConflict((conflict) => conflict.columns(['purpose', 'subject']).doUpdateSet({ ends_at: toDbTime(endsAt) }).where('code_cooldowns.ends_at', '<=', toDbTime(now)))
        .returning('subject')
        .executeTakeFirst();
      return claimed !== undefined;
    },

    /** Ends a person's cooldown for a purpose at `now`. */
    async endCooldown(purpose: string, subject: string, now: Date): Promise<void> {
      await db.updateTable('code_cooldowns').set({ ends_at: toDbTime(now) }).where('purpose', '=', purpose).where('subject', '=', subject).where('ends_at', '>', toDbTime(now)).execute();
    },

    /**
     * Ends at `now` a person's cooldown for a purpose that ends after `now` and no later than `latestEnd`: the turn a
     * code whose message did not go took, not a later one.
     */
    async releaseCooldown(purpose: string, subject: string, latestEnd: Date, now: Date): Promise<void> {
      await db
        .updateTable('code_cooldowns')
        .set({ ends_at: toDbTime(now) })
        .where('purpose', '=', purpose)
        .where('subject', '=', subject)
        .where('ends_at', '>', toDbTime(now))
        .where('ends_at', '<=', toDbTime(latestEnd))
        .execute();
    },

    /** When a person's cooldown for a purpose ends, if one was ever started. */
    async cooldownEnd(purpose: string, subject: string): Promise<string | undefined> {
      return (await db.selectFrom('code_cooldowns').select('ends_at').where('purpose', '=', purpose).where('subject', '=', subject).executeTakeFirst())?.ends_at;
    },

    async block(purpose: string, keys: string[], until: Date): Promise<void> {
      const blockedUntil = toDbTime(until);
      await db
        .insertInto('code_blocks')
        .values(keys.map((subject) => ({ purpose, subject, blocked_until: blockedUntil })))
        .onConflict((conflict) => conflict.columns(['purpose', 'subject']).doUpdateSet({ blocked_until: blockedUntil }))
        .execute();
    },

    /** When the blocks of these keys for a purpose end, of those still on at `now`. */
    async blocksOn(purpose: string, keys: string[], now: Date): Promise<string[]> {
      const rows = await db.selectFrom('code_blocks').select('blocked_until').where('purpose', '=', purpose).where('subject', 'in', keys).where('blocked_until', '>', toDbTime(now)).execute();
      return rows.map((row) => row.blocked_until);
    },

    /**
     * Counts one wrong answer under each key, in one statement, in a window that (re)starts at `now` and ends at
     * `windowEnd` once the previous one is over; answers each key's count.
     */
    async countFailure(purpose: string, keys: string[], now: Date, windowEnd: Date): Promise<number[]> {
      const nowText = toDbTime(now);
      const endText = toDbTime(windowEnd);
      const rows = await db
        .insertInto('code_failures')
        .values(keys.map((subject) => ({ purpose, subject, failures: 1, window_ends_at: endText })))
        .onConflict((conflict) =>
          conflict.columns(['purpose', 'subject']).doUpdateSet({
            failures: sql<number>`case when code_failures.window_ends_at <= ${nowText} then 1 else code_failures.failures + 1 end`,
            window_ends_at: sql<string>`case when code_failures.window_ends_at <= ${nowText} then ${endText} else code_failures.window_ends_at end`,
          }),
        )
        .returning('failures')
        .execute();
      return rows.map((row) => Number(row.failures));
    },

    /**
     * `countFailure`, answering each key's count and the end of its window: one statement for all the keys, so
     * simultaneous answers each get their own number under every key.
     */
    async countFailures(purpose: string, keys: string[], now: Date, windowEnd: Date): Promise<Map<string, { failures: number; windowEndsAt: string }>> {
      const nowText = toDbTime(now);
      const endText = toDbTime(windowEnd);
      const rows = await db
        .insertInto('code_failures')
        .values(keys.map((subject) => ({ purpose, subject, failures: 1, window_ends_at: endText })))
        .onConflict((conflict) =>
          conflict.columns(['purpose', 'subject']).doUpdateSet({
            failures: sql<number>`case when code_failures.window_ends_at <= ${nowText} then 1 else code_failures.failures + 1 end`,
            window_ends_at: sql<string>`case when code_failures.window_ends_at <= ${nowText} then ${endText} else code_failures.window_ends_at end`,
          }),
        )
        .returning(['subject', 'failures', 'window_ends_at'])
        .execute();
      return new Map(rows.map((row) => [row.subject, { failures: Number(row.failures), windowEndsAt: row.window_ends_at }]));
    },

    /** Gives back one count of a key (an answer that turned out right), in one statement. */
    async takeBackFailure(purpose: string, key: string): Promise<void> {
      await db.updateTable('code_failures').set({ failures: sql<number>`failures - 1` }).where('purpose', '=', purpose).where('subject', '=', key).where('failures', '>', 0).execute();
    },

    async clearFailures(purpose: string, keys: string[]): Promise<void> {
      await db.deleteFrom('code_failures').where('purpose', '=', purpose).where('subject', 'in', keys).execute();
    },

    /** Housekeeping: challenges expired at `before` or earlier, blocks and counting windows over at `now`; how many of each went. */
    async removeOld(before: Date, now: Date): Promise<{ one_time_codes: number; code_blocks: number; code_failures: number; code_cooldowns: number }> {
      const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
      return {
        one_time_codes: count(await db.deleteFrom('one_time_codes').where('expires_at', '<=', toDbTime(before)).executeTakeFirst()),
        code_blocks: count(await db.deleteFrom('code_blocks').where('blocked_until', '<=', toDbTime(now)).executeTakeFirst()),
        code_failures: count(await db.deleteFrom('code_failures').where('window_ends_at', '<=', toDbTime(now)).executeTakeFirst()),
        code_cooldowns: count(await db.deleteFrom('code_cooldowns').where('ends_at', '<=', toDbTime(now)).executeTakeFirst()),
      };
    },
  };
}

export type OneTimeCodeRepository = ReturnType<typeof oneTimeCodeRepository>;
