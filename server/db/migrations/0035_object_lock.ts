import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // An object's Object Lock retention, as S3 keeps it per version (the embedded endpoint keeps one version): its mode
  // (GOVERNANCE or COMPLIANCE) and the date before which it can be neither deleted nor replaced.
  await db.schema.alterTable('storage_objects').addColumn('lock_mode', 'varchar(16)').execute();
  await db.schema.alterTable('storage_objects').addColumn('retain_until', 'varchar(32)').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('storage_objects').dropColumn('retain_until').execute();
  await db.schema.alterTable('storage_objects').dropColumn('lock_mode').execute();
}
