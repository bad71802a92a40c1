// The signed contracts, kept in the database next to their application: written in the same transaction as
// the application's change to pending-review, one per application, never changed afterwards.
import type { Kysely } from 'kysely';
import type { Database } from '../db';

interface SignedContract {
  applicationId: string;
  /** SHA-256 (hex) of the sealed PDF as stored. */
  sha256: string;
  /** SHA-256 (hex) of the contract as shown and signed (named on its signature record). */
  contractSha256: string;
  signedAt: string;
  requestId: string;
  /** The version of the template's text the contract was made with (undefined: signed before versions were kept). */
  templateVersion?: string;
}

export function contractRepository(db: Kysely<Database>) {
  return {
    /** Keeps the signed contract of an application; a second one for the same application is refused (its key). */
    async store(contract: SignedContract & { pdf: Uint8Array }): Promise<void> {
      await db
        .insertInto('onboarding_contracts')
        .values({
          application_id: contract.applicationId,
          sha256: contract.sha256,
          contract_sha256: contract.contractSha256,
          pdf: Buffer.from(contract.pdf),
          signed_at: contract.signedAt,
          request_id: contract.requestId,
          template_version: contract.templateVersion ?? null,
        })
        .execute();
    },

    /** What is known of an application's signed contract, without its bytes. */
    async find(applicationId: string): Promise<SignedContract | undefined> {
      const row = await db
        .selectFrom('onboarding_contracts')
        .select(['application_id', 'sha256', 'contract_sha256', 'signed_at', 'request_id', 'template_version'])
        .where('application_id', '=', applicationId)
        .executeTakeFirst();
      return (
        row && {
          applicationId: row.application_id,
          sha256: row.sha256,
          contractSha256: row.contract_sha256,
          signedAt: row.signed_at,
          requestId: row.request_id,
          ...(row.template_version ? { templateVersion: row.template_version } : {}),
        }
      );
    },

    /** The sealed PDF of an application's contract. */
    async pdf(applicationId: string): Promise<Buffer | undefined> {
      const row = await db.selectFrom('onboarding_contracts').select('pdf').where('application_id', '=', applicationId).executeTakeFirst();
      return row && Buffer.from(row.pdf);
    },
  };
}

export type ContractRepository = ReturnType<typeof contractRepository>;
