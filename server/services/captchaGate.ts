import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

/**
 * What a captcha success is worth: a pass bound to the browser's session id, short-lived and used once by
 * the call it protects (create-session, register, password recovery). The browser's check alone is no gate.
 */
export function captchaGate(db: Kysely<Database>, { passSeconds }: { passSeconds: number }) {
  return {
    /** A solved challenge counts once: false when it was already used. */
    async rememberSolved(signature: string, expiresAt: number): Promise<boolean> {
      const result = await db
        .insertInto('captcha_solutions')
        .values({ signature, expires_at: toDbTime(new Date(expiresAt)) })
        .onConflict((conflict) => conflict.column('signature').doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async grantPass(sessionId: string, now: Date = new Date()): Promise<void> {
      const expires = toDbTime(new Date(now.getTime() + passSeconds * 1000));
      await db
        .insertInto('captcha_passes')
        .values({ session_id: sessionId, expires_at: expires, used_at: null })
        .onConflict((conflict) => conflict.column('session_id').doUpdateSet({ expires_at: expires, used_at: null }))
        .execute();
    },

    /** Uses the session's pass: true once per pass, false when there is none, it expired or was used. */
    async consumePass(sessionId: string, now: Date = new Date()): Promise<boolean> {
      const result = await db
        .updateTable('captcha_passes')
        .set({ used_at: toDbTime(now) })
        .where('session_id', '=', sessionId)
        .where('used_at', 'is', null)
        .where('expires_at', '>', toDbTime(now))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async sweep(now: Date = new Date()): Promise<void> {
      await db.deleteFrom('captcha_solutions').where('expires_at', '<=', toDbTime(now)).execute();
      await db.deleteFrom('captcha_passes').where('expires_at', '<=', toDbTime(now)).execute();
    },
  };
}

export type CaptchaGate = ReturnType<typeof captchaGate>;
