import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/** A sealed password as stored, with when it was chosen. */
interface StoredPassword {
  sealed: string;
  created_at: string;
}

/** Each application's chosen password, sealed (signInUsers.ts seals and opens it), until its sign-in user is made. */
export function pendingPasswordRepository(db: Kysely<Database>) {
  return {
    /** Keeps the sealed password, replacing one chosen before. */
    async keep(applicationId: string, sealed: string, now: Date): Promise<void> {
      await db
        .insertInto('pending_passwords')
        .values({ application_id: applicationId, sealed, created_at: toDbTime(now) })
        .onConflict((conflict) => conflict.column('application_id').doUpdateSet({ sealed, created_at: toDbTime(now) }))
        .execute();
    },

    /** Takes the password out in one delete: of two callers at once, one gets it. */
    async take(applicationId: string): Promise<StoredPassword | undefined> {
      return db.deleteFrom('pending_passwords').where('application_id', '=', applicationId).returning(['sealed', 'created_at']).executeTakeFirst();
    },

    /** Puts a taken password back, unless one was chosen meanwhile (that one is newer and stays). */
    async putBack(applicationId: string, stored: StoredPassword): Promise<void> {
      await db.insertInto('pending_passwords').values({ application_id: applicationId, ...stored }).onConflict((conflict) => conflict.column('application_id').doNothing()).execute();
    },

    async remove(applicationId: string): Promise<void> {
      await db.deleteFrom('pending_passwords').where('application_id', '=', applicationId).execute();
    },
  };
}

export type PendingPasswordRepository = ReturnType<typeof pendingPasswordRepository>;
