import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

export interface OnboardingDocument {
  kind: string;
  key: string;
  size: number;
  etag: string;
  checkedAt: string;
  /** Once frozen: the evidence copy in the server's own area, the SHA-256 of its bytes, and when it was made. */
  evidenceKey?: string;
  sha256?: string;
  frozenAt?: string;
}

/** What freezing records of one document: the version checked (its key and ETag) and its copy. */
export interface FrozenDocument {
  kind: string;
  key: string;
  etag: string;
  evidenceKey: string;
  sha256: string;
}

/** The checked documents of each application: uploading a kind again replaces the previous one. */
export function onboardingDocumentRepository(db: Kysely<Database>) {
  return {
    /** Records a checked document; a new one of a kind forgets the evidence of the one before (a rejected check's). */
    async save(applicationId: string, document: Omit<OnboardingDocument, 'checkedAt' | 'evidenceKey' | 'sha256' | 'frozenAt'>, now: Date): Promise<void> {
      const values = { object_key: document.key, size: document.size, etag: document.etag, checked_at: toDbTime(now), evidence_key: null, sha256: null, frozen_at: null };
      await db
        .insertInto('onboarding_documents')
        .values({ application_id: applicationId, kind: document.kind, ...values })
        .onConflict((conflict) => conflict.columns(['application_id', 'kind']).doUpdateSet(values))
        .execute();
    },

    /** Records the evidence of each document, only on the very version that was copied: how many were. */
    async freeze(applicationId: string, documents: FrozenDocument[], now: Date): Promise<number> {
      let frozen = 0;
      for (const document of documents) {
        const result = await db
          .updateTable('onboarding_documents')
          .set({ evidence_key: document.evidenceKey, sha256: document.sha256, frozen_at: toDbTime(now) })
          .where('application_id', '=', applicationId)
          .where('kind', '=', document.kind)
          .where('object_key', '=', document.key)
          .where('etag', '=', document.etag)
          .executeTakeFirst();
        frozen += Number(result.numUpdatedRows);
      }
      return frozen;
    },

    async list(applicationId: string): Promise<OnboardingDocument[]> {
      const rows = await db.selectFrom('onboarding_documents').selectAll().where('application_id', '=', applicationId).orderBy('kind').execute();
      return rows.map((row) => ({
        kind: row.kind,
        key: row.object_key,
        size: Number(row.size),
        etag: row.etag,
        checkedAt: row.checked_at,
        ...(row.evidence_key && row.sha256 && row.frozen_at ? { evidenceKey: row.evidence_key, sha256: row.sha256, frozenAt: row.frozen_at } : {}),
      }));
    },

    /** Which of these storage keys some application reported as a document. */
    async reportedAmong(keys: string[]): Promise<Set<string>> {
      const rows = await db.selectFrom('onboarding_documents').select('object_key').where('object_key', 'in', keys).execute();
      return new Set(rows.map((row) => row.object_key));
    },
  };
}

export type OnboardingDocumentRepository = ReturnType<typeof onboardingDocumentRepository>;
