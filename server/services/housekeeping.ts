// Rows that have served their purpose: expired codes and their counts, ended blocks, dead customer sessions,
// message budgets whose window is over and old outbox messages. Removed on a schedule (services plugin), like the captcha sweep and the storage sweep.
// On the same schedule, review decisions whose effects an interrupted run left pending are finished
// (`finishPendingDecisions` in reviews.ts: it needs the identity service and the e-mail provider, not only rows).
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

export interface HousekeepingSettings {
  /** How long a used or expired code stays (its resend cooldown and audit no longer need it). */
  codeRetentionSeconds: number;
  /** How long an ended, revoked or idle session stays. */
  sessionRetentionSeconds: number;
  /** How long a message stays in the outbox (a developer reading /dev/outbox needs the last hours). */
  outboxRetentionSeconds: number;
}

export const HOUSEKEEPING_DEFAULTS: HousekeepingSettings = { codeRetentionSeconds: 86_400, sessionRetentionSeconds: 86_400, outboxRetentionSeconds: 86_400 };

/** Deletes what is past keeping at `now`; answers how many rows of each table went. */
export async function expireOldRows(db: Kysely<Database>, now: Date, settings: HousekeepingSettings = HOUSEKEEPING_DEFAULTS): Promise<Record<string, number>> {
  const before = (seconds: number) => toDbTime(new Date(now.getTime() - seconds * 1000));
  const nowText = toDbTime(now);
  const count = (result: { numDeletedRows: bigint }) => Number(result.numDeletedRows);
  return {
    one_time_codes: count(await db.deleteFrom('one_time_codes').where('expires_at', '<=', before(settings.codeRetentionSeconds)).executeTakeFirst()),
    code_blocks: count(await db.deleteFrom('code_blocks').where('blocked_until', '<=', nowText).executeTakeFirst()),
    code_failures: count(await db.deleteFrom('code_failures').where('window_ends_at', '<=', nowText).executeTakeFirst()),
    message_budgets: count(await db.deleteFrom('message_budgets').where('window_ends_at', '<=', nowText).executeTakeFirst()),
    login_sessions: count(
      await db
        .deleteFrom('login_sessions')
        .where((where) =>
          where.or([
            where('expires_at', '<=', before(settings.sessionRetentionSeconds)),
            where('last_seen_at', '<=', before(settings.sessionRetentionSeconds)),
            where('revoked_at', '<=', before(settings.sessionRetentionSeconds)),
          ]),
        )
        .executeTakeFirst(),
    ),
    outbox: count(await db.deleteFrom('outbox').where('created_at', '<=', before(settings.outboxRetentionSeconds)).executeTakeFirst()),
  };
}
