import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

export interface AuditEntry {
  actor: string;
  action: string;
  subject: string;
  requestId?: string;
  /** Facts about the change, never secrets (no codes, passwords or tokens). */
  details?: Record<string, unknown>;
}

export interface AuditRecord extends AuditEntry {
  id: number;
  occurredAt: string;
}

/** The append-only audit log: rows are added, never changed or removed. */
export function auditLogRepository(db: Kysely<Database>) {
  return {
    async append(entry: AuditEntry, now: Date): Promise<void> {
      await db
        .insertInto('audit_log')
        .values({
          occurred_at: toDbTime(now),
          actor: entry.actor,
          action: entry.action,
          subject: entry.subject,
          request_id: entry.requestId ?? null,
          details: entry.details ? JSON.stringify(entry.details) : null,
        })
        .execute();
    },

    async listBySubject(subject: string): Promise<AuditRecord[]> {
      const rows = await db.selectFrom('audit_log').selectAll().where('subject', '=', subject).orderBy('id').execute();
      return rows.map((row) => ({
        id: Number(row.id),
        occurredAt: row.occurred_at,
        actor: row.actor,
        action: row.action,
        subject: row.subject,
        requestId: row.request_id ?? undefined,
        details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : undefined,
      }));
    },
  };
}

export type AuditLogRepository = ReturnType<typeof auditLogRepository>;
