import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The last day of an approved customer's business relationship, as the bank records it (YYYY-MM-DD): the law's
  // periods run from it (server/services/retention.ts). Null while the relationship lasts.
  await db.schema.alterTable('onboarding_applications').addColumn('relationship_ended_on', 'varchar(10)').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('onboarding_applications').dropColumn('relationship_ended_on').execute();
}
