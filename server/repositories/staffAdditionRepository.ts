import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/** The staff members added, each once: the one `staff add` that takes a member's row is the one that adds them. */
export function staffAdditionRepository(db: Kysely<Database>) {
  return {
    /** Takes the addition of `username`, in one statement: false when another add took it first. */
    async claim(username: string, now: Date): Promise<boolean> {
      const result = await db
        .insertInto('staff_additions')
        .values({ username, added_at: toDbTime(now) })
        .onConflict((conflict) => conflict.column('username').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
  };
}
