import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The version of the contract template's text each contract was signed on; empty for contracts signed before
  // versions were kept (the sample text of then).
  await db.schema.alterTable('onboarding_contracts').addColumn('template_version', 'varchar(40)').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('onboarding_contracts').dropColumn('template_version').execute();
}
