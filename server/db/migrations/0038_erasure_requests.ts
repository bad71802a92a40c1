import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Each request to erase a person's data (GDPR art. 17) and how it was answered: erased (the application then under
  // its pseudonym, as its audit entries), or refused with the legal ground that keeps the data.
  await db.schema
    .createTable('erasure_requests')
    .addColumn('id', 'varchar(36)', (col) => col.primaryKey())
    .addColumn('application_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('received_on', 'varchar(10)', (col) => col.notNull())
    .addColumn('requested_by', 'varchar(300)', (col) => col.notNull())
    .addColumn('outcome', 'varchar(16)', (col) => col.notNull())
    .addColumn('ground', 'varchar(64)')
    .addColumn('recorded_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('erasure_requests_application').on('erasure_requests').column('application_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('erasure_requests').execute();
}
