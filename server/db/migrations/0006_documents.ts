import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The documents an applicant uploaded and the server checked: one per application and kind (the latest wins).
  await db.schema
    .createTable('onboarding_documents')
    .addColumn('application_id', 'varchar(128)', (col) => col.notNull())
    .addColumn('kind', 'varchar(32)', (col) => col.notNull())
    .addColumn('object_key', 'varchar(1024)', (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('etag', 'varchar(80)', (col) => col.notNull())
    .addColumn('checked_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('onboarding_documents_pk', ['application_id', 'kind'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('onboarding_documents').execute();
}
