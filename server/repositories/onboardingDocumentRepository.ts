import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

export interface OnboardingDocument {
  kind: string;
  key: string;
  size: number;
  etag: string;
  checkedAt: string;
}

/** The checked documents of each application: uploading a kind again replaces the previous one. */
export function onboardingDocumentRepository(db: Kysely<Database>) {
  return {
    async save(applicationId: string, document: Omit<OnboardingDocument, 'checkedAt'>, now: Date = new Date()): Promise<void> {
      const values = { object_key: document.key, size: document.size, etag: document.etag, checked_at: toDbTime(now) };
      await db
        .insertInto('onboarding_documents')
        .values({ application_id: applicationId, kind: document.kind, ...values })
        .onConflict((conflict) => conflict.columns(['application_id', 'kind']).doUpdateSet(values))
        .execute();
    },

    async list(applicationId: string): Promise<OnboardingDocument[]> {
      const rows = await db.selectFrom('onboarding_documents').selectAll().where('application_id', '=', applicationId).orderBy('kind').execute();
      return rows.map((row) => ({ kind: row.kind, key: row.object_key, size: Number(row.size), etag: row.etag, checkedAt: row.checked_at }));
    },
  };
}

export type OnboardingDocumentRepository = ReturnType<typeof onboardingDocumentRepository>;
