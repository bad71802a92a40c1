// The requests to erase a person's data (GDPR art. 17) and how each was answered. An erased application is named
// here by its pseudonym, as its audit entries are after the erasure; a refused one by its id, with the ground.
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';
import { auditLogRepository, type AuditEntry } from './auditLogRepository';

export interface ErasureRequest {
  id: string;
  applicationId: string;
  receivedOn: string;
  requestedBy: string;
  outcome: 'erased' | 'refused';
  ground: string | null;
  recordedAt: string;
}

type NewErasureRequest = Omit<ErasureRequest, 'id' | 'recordedAt'>;

async function insert(db: Kysely<Database> | Transaction<Database>, request: NewErasureRequest, now: Date): Promise<void> {
  await db
    .insertInto('erasure_requests')
    .values({
      id: randomUUID(),
      application_id: request.applicationId,
      received_on: request.receivedOn,
      requested_by: request.requestedBy,
      outcome: request.outcome,
      ground: request.ground,
      recorded_at: toDbTime(now),
    })
    .execute();
}

export function erasureRequestRepository(db: Kysely<Database>) {
  return {
    /** The record of a request that erased the application, written in the erasure's own transaction. */
    recordErased: (trx: Transaction<Database>, request: NewErasureRequest, now: Date) => insert(trx, request, now),

    /** A refused request and the audit entry that records it, in one transaction: both are kept, or neither. */
    async recordRefused(request: NewErasureRequest, entry: AuditEntry, now: Date): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await insert(trx, request, now);
        await auditLogRepository(trx).append(entry, now);
      });
    },

    async listOf(applicationId: string): Promise<ErasureRequest[]> {
      const rows = await db.selectFrom('erasure_requests').selectAll().where('application_id', '=', applicationId).orderBy('recorded_at').execute();
      return rows.map((row) => ({
        id: row.id,
        applicationId: row.application_id,
        receivedOn: row.received_on,
        requestedBy: row.requested_by,
        outcome: row.outcome as ErasureRequest['outcome'],
        ground: row.ground,
        recordedAt: row.recorded_at,
      }));
    },
  };
}
