import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

export type ReviewEffectName = 'evidence-retention' | 'user-pool-status' | 'sign-in-release' | 'notice-email' | 'more-info-email';

export interface ReviewEffect {
  applicationId: string;
  effect: ReviewEffectName;
  /** `more-info`: the bank asked the applicant for more information (not a decision, but effects all the same). */
  decision: 'approved' | 'rejected' | 'more-info';
  attempts: number;
  /** When the decision was recorded: what the evidence's retention counts from. */
  createdAt: string;
  claimedUntil: string | null;
  lastError: string | null;
  doneAt: string | null;
}

type ReviewEffectRow = Database['review_effects'];

const toEffect = (row: ReviewEffectRow): ReviewEffect => ({
  applicationId: row.application_id,
  effect: row.effect as ReviewEffectName,
  decision: row.decision as ReviewEffect['decision'],
  attempts: Number(row.attempts),
  createdAt: row.created_at,
  claimedUntil: row.claimed_until,
  lastError: row.last_error,
  doneAt: row.done_at,
});

/** The effects of review decisions still to carry out, and who is carrying them out. */
export function reviewEffectRepository(db: Kysely<Database>) {
  return {
    /** Records what a decision must do, in the order given (call it in the decision's transaction). */
    async record(applicationId: string, decision: ReviewEffect['decision'], effects: ReviewEffectName[], now: Date): Promise<void> {
      if (effects.length === 0) return;
      await db
        .insertInto('review_effects')
        .values(
          effects.map((effect, position) => ({
            application_id: applicationId,
            effect,
            decision,
            position,
            created_at: toDbTime(now),
            claimed_until: null,
            attempts: 0,
            last_error: null,
            done_at: null,
          })),
        )
        .execute();
    },

    /** Forgets the application's effects that are done (a new request for more information records its own). */
    async forgetDone(applicationId: string): Promise<void> {
      await db.deleteFrom('review_effects').where('application_id', '=', applicationId).where('done_at', 'is not', null).execute();
    },

    /** The application's effects, in the order they run. */
    async list(applicationId: string): Promise<ReviewEffect[]> {
      const rows = await db.selectFrom('review_effects').selectAll().where('application_id', '=', applicationId).orderBy('position').execute();
      return rows.map(toEffect);
    },

    /** How many applications have an effect not done, held by a run or not (what housekeeping reports). */
    async countPendingApplications(): Promise<number> {
      const row = await db
        .selectFrom('review_effects')
        .select((eb) => eb.fn.count<number | string | bigint>('application_id').distinct().as('applications'))
        .where('done_at', 'is', null)
        .executeTakeFirst();
      return Number(row?.applications ?? 0);
    },

    /** Applications with an effect not done and not held by a run at `now`, oldest decision first. */
    async applicationsWithPendingEffects(now: Date, limit: number): Promise<string[]> {
      const rows = await db
        .selectFrom('review_effects')
        .select('application_id')
        .where('done_at', 'is', null)
        .where((where) => where.or([where('claimed_until', 'is', null), where('claimed_until', '<=', toDbTime(now))]))
        .groupBy('application_id')
        .orderBy((eb) => eb.fn.min('created_at'))
        .limit(limit)
        .execute();
      return rows.map((row) => row.application_id);
    },

    /**
     * Takes an effect not done and not held by another run, until `until`: one conditional update, so of two runs
     * only one gets it. Answers whether this run got it.
     */
    async claim(applicationId: string, effect: ReviewEffectName, now: Date, until: Date): Promise<boolean> {
      const result = await db
        .updateTable('review_effects')
        .set((eb) => ({ claimed_until: toDbTime(until), attempts: eb('attempts', '+', 1) }))
        .where('application_id', '=', applicationId)
        .where('effect', '=', effect)
        .where('done_at', 'is', null)
        .where((where) => where.or([where('claimed_until', 'is', null), where('claimed_until', '<=', toDbTime(now))]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    async markDone(applicationId: string, effect: ReviewEffectName, now: Date): Promise<void> {
      await db
        .updateTable('review_effects')
        .set({ done_at: toDbTime(now), claimed_until: null, last_error: null })
        .where('application_id', '=', applicationId)
        .where('effect', '=', effect)
        .execute();
    },

    /** Lets a failed effect go, with why, for the next run. */
    async release(applicationId: string, effect: ReviewEffectName, error: string): Promise<void> {
      await db
        .updateTable('review_effects')
        .set({ claimed_until: null, last_error: error.slice(0, 200) })
        .where('application_id', '=', applicationId)
        .where('effect', '=', effect)
        .where('done_at', 'is', null)
        .execute();
    },
  };
}
