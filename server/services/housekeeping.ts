// Rows that have served their purpose: expired codes and their counts, ended blocks, dead customer sessions,
// message budgets whose window is over and old outbox messages; and applications abandoned for a month, with
// what they hold. Removed on a schedule (services plugin), like the captcha sweep and the storage sweep.
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';
import type { AuditLogRepository } from '../repositories/auditLogRepository';
import type { IdentityService } from './identity';
import { removeSignInUser } from './signInUsers';

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

/** How long an application nobody touches (no step saved) is kept before it expires. */
export const APPLICATION_INACTIVE_DAYS = 30;

export interface ApplicationExpiryDependencies {
  db: Kysely<Database>;
  identity: Pick<IdentityService, 'getUser' | 'deleteUser'>;
  auditLog: AuditLogRepository;
  /** Removes a stored document (missing is fine). */
  removeDocument: (key: string) => Promise<void>;
}

/**
 * Expires the applications not sent to the bank (in progress, or closed as not allowed) whose last change is
 * `inactiveDays` old: each is marked `expired` by one conditional update (an applicant saving at that moment
 * either comes first, and the application stays, or finds it closed), then its sign-in user, its checked
 * documents (rows and stored files) and the application itself are removed; its audit entries stay. A removal
 * that fails half-way is finished by the next run (the row stays `expired` until then). Answers how many ended.
 */
export async function expireInactiveApplications(
  deps: ApplicationExpiryDependencies,
  now: Date,
  { inactiveDays = APPLICATION_INACTIVE_DAYS, batch = 100 }: { inactiveDays?: number; batch?: number } = {},
): Promise<number> {
  const { db } = deps;
  const cutoff = toDbTime(new Date(now.getTime() - inactiveDays * 86_400_000));
  const rows = await db
    .selectFrom('onboarding_applications')
    .select(['id', 'status', 'version', 'updated_at'])
    .where((where) => where.or([where.and([where('status', 'in', ['in-progress', 'not-allowed']), where('updated_at', '<=', cutoff)]), where('status', '=', 'expired')]))
    .orderBy('updated_at')
    .limit(batch)
    .execute();
  let ended = 0;
  for (const row of rows) {
    if (row.status !== 'expired') {
      const marked = await db
        .updateTable('onboarding_applications')
        .set({ status: 'expired', version: Number(row.version) + 1 })
        .where('id', '=', row.id)
        .where('version', '=', row.version)
        .executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) continue;
      await deps.auditLog.append({ actor: 'housekeeping', action: 'onboarding.application_expired', subject: `application:${row.id}`, details: { lastChangeAt: row.updated_at, inactiveDays } }, now);
    }
    await removeExpired(deps, row.id, now);
    ended += 1;
  }
  return ended;
}

/** Everything an expired application holds but its audit trail: the sign-in user first, then its files, its sealed password, its hold on the ID document, and the row last (it is what a later run retries from). */
async function removeExpired(deps: ApplicationExpiryDependencies, id: string, now: Date): Promise<void> {
  const { db } = deps;
  const row = await db.selectFrom('onboarding_applications').select(['id_document', 'answers']).where('id', '=', id).where('status', '=', 'expired').executeTakeFirst();
  if (!row) return;
  if (await removeSignInUser(deps.identity, { idDocument: row.id_document, answers: JSON.parse(row.answers) as Record<string, unknown> })) {
    await deps.auditLog.append({ actor: 'housekeeping', action: 'onboarding.sign_in_user_removed', subject: `application:${id}`, details: { why: 'expired' } }, now);
  }
  const documents = await db.selectFrom('onboarding_documents').select('object_key').where('application_id', '=', id).execute();
  for (const document of documents) await deps.removeDocument(document.object_key);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('onboarding_documents').where('application_id', '=', id).execute();
    await trx.deleteFrom('pending_passwords').where('application_id', '=', id).execute();
    await trx.deleteFrom('id_document_holds').where('application_id', '=', id).execute();
    await trx.deleteFrom('onboarding_applications').where('id', '=', id).where('status', '=', 'expired').execute();
  });
}
