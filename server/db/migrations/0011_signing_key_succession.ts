import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Each signing key names the key it succeeds ('' for the first one), once: server processes that start or
  // rotate at the same moment make one key between them, not one each. Keys made before stay null (both
  // databases let a unique index hold several nulls).
  await db.schema.alterTable('cognito_signing_keys').addColumn('replaces', 'varchar(64)').execute();
  await db.schema.createIndex('cognito_signing_keys_replaces').unique().on('cognito_signing_keys').column('replaces').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('cognito_signing_keys_replaces').execute();
  await db.schema.alterTable('cognito_signing_keys').dropColumn('replaces').execute();
}
