// The signed contracts, kept in the database next to their application: written in the same transaction as
// the application's change to pending-review, one per application at a time, never changed afterwards. When the
// bank asks for more information the applicant signs again, and the earlier contract moves, whole, to the
// superseded ones.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db';
import { toDbTime } from '../db/values';

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

    /**
     * Moves the application's contract, whole, to the superseded ones: the applicant signs again (call it in the
     * transaction that reopens the application). Answers whether there was one.
     */
    async supersede(applicationId: string, now: Date): Promise<boolean> {
      const columns = ['application_id', 'sha256', 'contract_sha256', 'pdf', 'signed_at', 'request_id', 'template_version'] as const;
      const moved = await db
        .insertInto('onboarding_contracts_superseded')
        .columns([...columns, 'superseded_at'])
        .expression(db.selectFrom('onboarding_contracts').select([...columns, sql.lit(toDbTime(now)).as('superseded_at')]).where('application_id', '=', applicationId))
        .executeTakeFirst();
      await db.deleteFrom('onboarding_contracts').where('application_id', '=', applicationId).execute();
      return Number(moved.numInsertedOrUpdatedRows ?? 0) > 0;
    },

    /** The contracts the applicant signed before the bank asked for more, oldest first, without their bytes. */
    async superseded(applicationId: string): Promise<(Omit<SignedContract, 'requestId'> & { supersededAt: string })[]> {
      const rows = await db
        .selectFrom('onboarding_contracts_superseded')
        .select(['application_id', 'sha256', 'contract_sha256', 'signed_at', 'template_version', 'superseded_at'])
        .where('application_id', '=', applicationId)
        .orderBy('signed_at')
        .execute();
      return rows.map((row) => ({
        applicationId: row.application_id,
        sha256: row.sha256,
        contractSha256: row.contract_sha256,
        signedAt: row.signed_at,
        supersededAt: row.superseded_at,
        ...(row.template_version ? { templateVersion: row.template_version } : {}),
      }));
    },

    /** The sealed PDF of a contract the applicant signed before the bank asked for more (by its SHA-256). */
    async supersededPdf(applicationId: string, sha256: string): Promise<Buffer | undefined> {
      const row = await db.selectFrom('onboarding_contracts_superseded').select('pdf').where('application_id', '=', applicationId).where('sha256', '=', sha256).executeTakeFirst();
      return row && Buffer.from(row.pdf);
    },

    /** The sealed PDF of an application's contract. */
    async pdf(applicationId: string): Promise<Buffer | undefined> {
      const row = await db.selectFrom('onboarding_contracts').select('pdf').where('application_id', '=', applicationId).executeTakeFirst();
      return row && Buffer.from(row.pdf);
    },
  };
}

export type ContractRepository = ReturnType<typeof contractRepository>;
