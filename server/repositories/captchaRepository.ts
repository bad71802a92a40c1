import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/** Captcha solutions already counted, and the passes a solved captcha grants a browser session. */
export function captchaRepository(db: Kysely<Database>) {
  return {
    /** Records a solution in one statement: false when it was recorded already. */
    async rememberSolution(signature: string, expiresAt: Date): Promise<boolean> {
      const result = await db
        .insertInto('captcha_solutions')
        .values({ signature, expires_at: toDbTime(expiresAt) })
        .onConflict((conflict) => conflict.column('signature').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    /** The session's pass, new or renewed, unused until `expiresAt`. */
    async grantPass(sessionId: string, expiresAt: Date): Promise<void> {
      const expires = toDbTime(expiresAt);
      await db
        .insertInto('captcha_passes')
        .values({ session_id: sessionId, expires_at: expires, used_at: null })
        .onConflict((conflict) => conflict.column('session_id').doUpdateSet({ expires_at: expires, used_at: null }))
        .execute();
    },

    /** Uses the session's live pass in one conditional statement: true for one caller only. */
    async usePass(sessionId: string, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('captcha_passes')
        .set({ used_at: toDbTime(now) })
        .where('session_id', '=', sessionId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', toDbTime(now))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async removeExpired(now: Date): Promise<void> {
      await db.deleteFrom('captcha_solutions').where('expires_at', '<=', toDbTime(now)).execute();
      await db.deleteFrom('captcha_passes').where('expires_at', '<=', toDbTime(now)).execute();
    },
  };
}

export type CaptchaRepository = ReturnType<typeof captchaRepository>;
