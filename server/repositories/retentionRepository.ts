// What the law's retention periods are counted from: an approved customer's end of relationship, recorded on the
// application, and a refusal's date, read from the audit entry that recorded it (the decision's own `now`, the same
// the evidence was locked from).
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { auditLogRepository, type AuditEntry } from './auditLogRepository';

/** A decided application as the retention periods see it. */
export interface RetainedApplication {
  id: string;
  status: 'approved' | 'rejected';
  /** YYYY-MM-DD, for a customer whose relationship ended. */
  relationshipEndedOn: string | null;
  /** When the refusal was recorded (ISO), for a rejected application. */
  rejectedAt: string | null;
}

/** The audit actions decisions are recorded with (reviews.ts: a refusal by a reviewer, or by the identity's review on a signed application). */
const REJECTED = 'onboarding.review_rejected';
const APPROVED = 'onboarding.review_approved';

export function retentionRepository(db: Kysely<Database>) {
  return {
    /**
     * Records the end of an approved customer's relationship with its audit entry, in one transaction, by one
     * conditional update: of two requests at the same time, one records and the other finds it recorded. Answers
     * whether this call recorded it.
     */
    async recordRelationshipEnd(id: string, endedOn: string, audit: AuditEntry, now: Date): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable('onboarding_applications')
          .set({ relationship_ended_on: endedOn })
          .where('id', '=', id)
          .where('status', '=', 'approved')
          .where('relationship_ended_on', 'is', null)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return false;
        await auditLogRepository(trx).append(audit, now);
        return true;
      });
    },

    /**
     * The application's status, recorded end of relationship and whether a request to erase it was refused, or
     * undefined if there is no such application.
     */
    async statusOf(id: string): Promise<{ status: string; relationshipEndedOn: string | null; erasureRefused: boolean } | undefined> {
      const row = await db
        .selectFrom('onboarding_applications')
        .select((eb) => [
          'status',
          'relationship_ended_on',
          eb
            .exists(eb.selectFrom('erasure_requests').select('erasure_requests.id').whereRef('erasure_requests.application_id', '=', 'onboarding_applications.id').where('erasure_requests.outcome', '=', 'refused'))
            .as('erasure_refused'),
        ])
        .where('id', '=', id)
        .executeTakeFirst();
      return row && { status: row.status, relationshipEndedOn: row.relationship_ended_on, erasureRefused: Boolean(Number(row.erasure_refused)) };
    },

    /** When the application's approval was recorded (ISO), from its audit entry. */
    async approvedAt(id: string): Promise<string | undefined> {
      const row = await db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.max('occurred_at').as('at'))
        .where('action', '=', APPROVED)
        .where('subject', '=', `application:${id}`)
        .executeTakeFirst();
      return row?.at ? String(row.at) : undefined;
    },

    /** Every customer whose relationship ended and every rejected application: what the periods apply to. */
    listDecided,
  };

  async function listDecided(): Promise<RetainedApplication[]> {
    const rows = await db
      .selectFrom('onboarding_applications')
      .select(['id', 'status', 'relationship_ended_on'])
      .where((where) =>
        where.or([where.and([where('status', '=', 'approved'), where('relationship_ended_on', 'is not', null)]), where('status', '=', 'rejected')]),
      )
      .orderBy('id')
      .execute();
    const rejected = rows.filter((row) => row.status === 'rejected').map((row) => `application:${row.id}`);
    const refusals = new Map<string, string>();
    for (let at = 0; at < rejected.length; at += 500) {
      const entries = await db
        .selectFrom('audit_log')
        .select(['subject', (eb) => eb.fn.max('occurred_at').as('at')])
        .where('action', '=', REJECTED)
        .where('subject', 'in', rejected.slice(at, at + 500))
        .groupBy('subject')
        .execute();
      for (const entry of entries) refusals.set(entry.subject.slice('application:'.length), String(entry.at));
    }
    return rows.map((row) => ({
      id: row.id,
      status: row.status as RetainedApplication['status'],
      relationshipEndedOn: row.relationship_ended_on,
      rejectedAt: refusals.get(row.id) ?? null,
    }));
  }
}

export type RetentionRepository = ReturnType<typeof retentionRepository>;
