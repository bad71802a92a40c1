import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

export interface OneTimeCodeSettings {
  /** Keys the stored HMAC of each code. */
  hmacKey: Buffer;
  ttlSeconds: number;
  resendSeconds: number;
  /** Wrong answers allowed; the last one blocks (PSD2: 5). */
  maxAttempts: number;
  /** How long a person is blocked after too many wrong codes. */
  lockSeconds: number;
  /** Codes sent for one challenge, the first included. */
  maxSends: number;
}

export type CheckResult =
  | { outcome: 'valid'; subject: string; recipient: string }
  | { outcome: 'wrong'; attemptsLeft: number }
  | { outcome: 'blocked' }
  | { outcome: 'expired' };

export type Purpose = 'login' | 'recovery';

/** A six-digit code, uniformly drawn, leading zeros kept. */
export const newCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/**
 * One-time codes: single use, expiring, with a resend cooldown, a limited number of wrong answers after
 * which the person is blocked for a while, and only an HMAC of each code stored.
 */
export function oneTimeCodes(db: Kysely<Database>, settings: OneTimeCodeSettings) {
  const hash = (code: string) => createHmac('sha256', settings.hmacKey).update(code).digest('hex');
  const later = (now: Date, seconds: number) => toDbTime(new Date(now.getTime() + seconds * 1000));

  async function block(purpose: Purpose, subject: string, now: Date) {
    const until = later(now, settings.lockSeconds);
    await db
      .insertInto('code_blocks')
      .values({ purpose, subject, blocked_until: until })
      .onConflict((conflict) => conflict.columns(['purpose', 'subject']).doUpdateSet({ blocked_until: until }))
      .execute();
  }

  return {
    settings,

    async isBlocked(purpose: Purpose, subject: string, now: Date = new Date()): Promise<boolean> {
      const row = await db
        .selectFrom('code_blocks')
        .select('blocked_until')
        .where('purpose', '=', purpose)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return row !== undefined && row.blocked_until > toDbTime(now);
    },

    /**
     * A new challenge: answers the code (to send) and the token that names the challenge (to give the
     * browser). Earlier open challenges of the same person and purpose stop counting.
     */
    async issue(
      input: { purpose: Purpose; subject: string; recipient: string; sessionId?: string },
      now: Date = new Date(),
    ): Promise<{ token: string; code: string; resendAfterSeconds: number }> {
      const token = randomBytes(32).toString('base64url');
      const code = newCode();
      await db
        .updateTable('one_time_codes')
        .set({ consumed_at: toDbTime(now) })
        .where('purpose', '=', input.purpose)
        .where('subject', '=', input.subject)
        .where('consumed_at', 'is', null)
        .execute();
      await db
        .insertInto('one_time_codes')
        .values({
          id: hashToken(token),
          purpose: input.purpose,
          subject: input.subject,
          session_id: input.sessionId ?? null,
          recipient: input.recipient,
          code_hash: hash(code),
          attempts: 0,
          sends: 1,
          created_at: toDbTime(now),
          expires_at: later(now, settings.ttlSeconds),
          resend_available_at: later(now, settings.resendSeconds),
          consumed_at: null,
        })
        .execute();
      return { token, code, resendAfterSeconds: settings.resendSeconds };
    },

    /** The open challenge a token names (and, when given, the browser session it was issued to). */
    async findByToken(token: string, sessionId?: string) {
      let query = db.selectFrom('one_time_codes').selectAll().where('id', '=', hashToken(token)).where('consumed_at', 'is', null);
      if (sessionId !== undefined) query = query.where('session_id', '=', sessionId);
      return query.executeTakeFirst();
    },

    /** The newest open challenge of a person for a purpose. */
    async findLatest(purpose: Purpose, subject: string) {
      return db
        .selectFrom('one_time_codes')
        .selectAll()
        .where('purpose', '=', purpose)
        .where('subject', '=', subject)
        .where('consumed_at', 'is', null)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
    },

    /** Checks an answer; a right one uses the challenge up. */
    async check(id: string, code: string, now: Date = new Date()): Promise<CheckResult> {
      const row = await db.selectFrom('one_time_codes').selectAll().where('id', '=', id).where('consumed_at', 'is', null).executeTakeFirst();
      if (!row) return { outcome: 'expired' };
      if (await this.isBlocked(row.purpose as Purpose, row.subject, now)) return { outcome: 'blocked' };
      if (row.expires_at <= toDbTime(now)) return { outcome: 'expired' };
      const given = Buffer.from(hash(code.trim()), 'hex');
      if (/^\d{6}$/.test(code.trim()) && timingSafeEqual(given, Buffer.from(row.code_hash, 'hex'))) {
        // Only the first of two simultaneous right answers consumes the challenge.
        const used = await db
          .updateTable('one_time_codes')
          .set({ consumed_at: toDbTime(now) })
          .where('id', '=', id)
          .where('consumed_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) !== 1) return { outcome: 'expired' };
        return { outcome: 'valid', subject: row.subject, recipient: row.recipient };
      }
      const attempts = row.attempts + 1;
      await db.updateTable('one_time_codes').set({ attempts }).where('id', '=', id).execute();
      if (attempts >= settings.maxAttempts) {
        await db.updateTable('one_time_codes').set({ consumed_at: toDbTime(now) }).where('id', '=', id).execute();
        await block(row.purpose as Purpose, row.subject, now);
        return { outcome: 'blocked' };
      }
      return { outcome: 'wrong', attemptsLeft: settings.maxAttempts - attempts };
    },

    /** A new code for an open challenge, once the cooldown is over; wrong answers so far still count. */
    async resend(
      id: string,
      now: Date = new Date(),
    ): Promise<{ outcome: 'sent'; code: string; recipient: string; resendAfterSeconds: number } | { outcome: 'too-soon'; retryAfterSeconds: number } | { outcome: 'blocked' | 'expired' }> {
      const row = await db.selectFrom('one_time_codes').selectAll().where('id', '=', id).where('consumed_at', 'is', null).executeTakeFirst();
      if (!row) return { outcome: 'expired' };
      if (await this.isBlocked(row.purpose as Purpose, row.subject, now)) return { outcome: 'blocked' };
      if (row.resend_available_at > toDbTime(now)) {
        return { outcome: 'too-soon', retryAfterSeconds: Math.ceil((Date.parse(row.resend_available_at) - now.getTime()) / 1000) };
      }
      if (row.sends >= settings.maxSends) return { outcome: 'blocked' };
      const code = newCode();
      await db
        .updateTable('one_time_codes')
        .set({
          code_hash: hash(code),
          sends: row.sends + 1,
          expires_at: later(now, settings.ttlSeconds),
          resend_available_at: later(now, settings.resendSeconds),
        })
        .where('id', '=', id)
        .execute();
      return { outcome: 'sent', code, recipient: row.recipient, resendAfterSeconds: settings.resendSeconds };
    },
  };
}

export type OneTimeCodes = ReturnType<typeof oneTimeCodes>;
