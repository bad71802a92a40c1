import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Housekeeping looks for applications left untouched for a while, by status and last change.
  await db.schema.createIndex('onboarding_applications_inactive').on('onboarding_applications').columns(['status', 'updated_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('onboarding_applications_inactive').execute();
}
