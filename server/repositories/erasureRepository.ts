// Everything the database holds about one application and its applicant, removed in one transaction, and its audit
// entries kept without anything that names them. The audit log is otherwise append-only: this is the one change
// made to its rows, what data protection asks once the application's data has no ground to be kept.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db';
import type { AuditEntry } from './auditLogRepository';
import { auditLogRepository } from './auditLogRepository';

/** How the tables name an application and the applicant behind it. */
export interface ErasureTarget {
  applicationId: string;
  /** The applicant's storage identity, when one was given out. */
  identityId?: string;
  /** The sign-ups that opened or resumed the application. */
  registrationIds: string[];
}

/**
 * What an audit entry of an erased application keeps of its details: what the funnel and the bank's statistics
 * count (the step, where it led, the kind of check and its outcome, sizes) and nothing that names or reaches a
 * person (notes, storage keys, hashes, addresses).
 */
const KEPT_DETAILS = new Set(['step', 'next', 'provider', 'reason', 'riskfactor', 'resend', 'channel', 'purpose', 'refusedBy', 'counts', 'why', 'inactiveDays', 'kind', 'size', 'steps', 'decision']);

const keptDetails = (text: string | null): string | null => {
  if (!text) return null;
  const kept = Object.entries(JSON.parse(text) as Record<string, unknown>).filter(([name]) => KEPT_DETAILS.has(name));
  return kept.length ? JSON.stringify(Object.fromEntries(kept)) : null;
};

/** The names audit entries file the application's doings under, each with the pseudonym that replaces it. */
function pseudonymsOf(target: ErasureTarget): Map<string, string> {
  const erased = () => `erased-${randomUUID()}`;
  const application = erased();
  const names = new Map<string, string>([
    [`application:${target.applicationId}`, `application:${application}`],
    [`storage:evidence/${target.applicationId}`, `storage:evidence/${application}`],
  ]);
  for (const id of target.registrationIds) names.set(`registration:${id}`, `registration:${erased()}`);
  if (target.identityId) {
    const identity = erased();
    names.set(`storage:private/${target.identityId}`, `storage:private/${identity}`);
    names.set(`storage-identity:${target.identityId}`, `storage-identity:${identity}`);
  }
  return names;
}

export function erasureRepository(db: Kysely<Database>) {
  /** The audit entries of `names`, as subject or as actor, renamed and stripped of what could name anyone. */
  async function pseudonymise(trx: Transaction<Database>, names: Map<string, string>): Promise<number> {
    const rows = await trx
      .selectFrom('audit_log')
      .select(['id', 'actor', 'subject', 'details'])
      .where((eb) => eb.or([eb('subject', 'in', [...names.keys()]), eb('actor', 'in', [...names.keys()])]))
      .execute();
    for (const row of rows) {
      await trx
        .updateTable('audit_log')
        .set({ actor: names.get(row.actor) ?? row.actor, subject: names.get(row.subject) ?? row.subject, details: keptDetails(row.details), request_id: null })
        .where('id', '=', row.id)
        .execute();
    }
    return rows.length;
  }

  return {
    /** The sign-ups whose e-mail code opened or resumed the application (their audit entries say so). */
    async registrationsOf(applicationId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('audit_log')
        .select('actor')
        .where('subject', '=', `application:${applicationId}`)
        .where('action', 'in', ['onboarding.application_created', 'onboarding.application_resumed'])
        .where('actor', 'like', 'registration:%')
        .execute();
      return [...new Set(rows.map((row) => row.actor.slice('registration:'.length)))];
    },

    /**
     * Removes, in one transaction, every row naming the application or its applicant (its documents' records,
     * sealed password, hold on the ID document, contracts, decision effects, codes and their counts, sign-ups)
     * and the application itself if it is still `status`; renames its audit entries and appends
     * `entry` under its new name. Answers how many rows each table lost, or undefined when the application was no
     * longer there or no longer `status` (nothing changed).
     */
    async erase(
      target: ErasureTarget,
      status: string,
      entry: Omit<AuditEntry, 'subject'>,
      now: Date,
      /** Written in the same transaction, with the application's new name: the record of a request that asked for it. */
      record?: (trx: Transaction<Database>, erasedAs: string) => Promise<void>,
    ): Promise<Record<string, number> | undefined> {
      const names = pseudonymsOf(target);
      const id = target.applicationId;
      return db.transaction().execute(async (trx) => {
        const removed = await trx.deleteFrom('onboarding_applications').where('id', '=', id).where('status', '=', status).executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) return undefined;
        const counts: Record<string, number> = { onboarding_applications: 1 };
        const count = async (table: string, query: { executeTakeFirst(): Promise<{ numDeletedRows: bigint }> }) => {
          counts[table] = (counts[table] ?? 0) + Number((await query.executeTakeFirst()).numDeletedRows);
        };
        await count('onboarding_documents', trx.deleteFrom('onboarding_documents').where('application_id', '=', id));
        await count('pending_passwords', trx.deleteFrom('pending_passwords').where('application_id', '=', id));
        await count('id_document_holds', trx.deleteFrom('id_document_holds').where('application_id', '=', id));
        await count('onboarding_contracts', trx.deleteFrom('onboarding_contracts').where('application_id', '=', id));
        await count('onboarding_contracts_superseded', trx.deleteFrom('onboarding_contracts_superseded').where('application_id', '=', id));
        await count('review_effects', trx.deleteFrom('review_effects').where('application_id', '=', id));
        // Codes, their cooldowns and wrong attempts of the application and its sign-ups. Those kept per e-mail address
        // and ID document end within hours on their own (housekeeping), and may belong to a sign-up of today.
        const subjects = [id, ...target.registrationIds];
        await count('one_time_codes', trx.deleteFrom('one_time_codes').where('subject', 'in', subjects));
        await count('code_cooldowns', trx.deleteFrom('code_cooldowns').where('subject', 'in', subjects));
        await count('code_failures', trx.deleteFrom('code_failures').where('subject', 'in', subjects));
        await count('code_blocks', trx.deleteFrom('code_blocks').where('subject', 'in', subjects));
        if (target.registrationIds.length) await count('onboarding_registrations', trx.deleteFrom('onboarding_registrations').where('id', 'in', target.registrationIds));
        counts.audit_log = await pseudonymise(trx, names);
        await auditLogRepository(trx).append({ ...entry, subject: names.get(`application:${id}`)! }, now);
        if (record) await record(trx, names.get(`application:${id}`)!.slice('application:'.length));
        return counts;
      });
    },
  };
}

export type ErasureRepository = ReturnType<typeof erasureRepository>;
