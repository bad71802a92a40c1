import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The evidence copy of a checked document, made when the identity check starts (photos) or at signature
  // (the other documents): its key in the server's own area of the bucket, its SHA-256 (hex), and when.
  // Empty until then, and again once the applicant replaces the document after a rejected check.
  await db.schema.alterTable('onboarding_documents').addColumn('evidence_key', 'varchar(1100)').execute();
  await db.schema.alterTable('onboarding_documents').addColumn('sha256', 'varchar(64)').execute();
  await db.schema.alterTable('onboarding_documents').addColumn('frozen_at', 'varchar(32)').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('onboarding_documents').dropColumn('frozen_at').execute();
  await db.schema.alterTable('onboarding_documents').dropColumn('sha256').execute();
  await db.schema.alterTable('onboarding_documents').dropColumn('evidence_key').execute();
}
