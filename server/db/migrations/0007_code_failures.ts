import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Wrong codes per person and purpose, across challenges: a fresh challenge does not start the count again.
  // The count restarts when its window (the block time, from the first wrong code) is over.
  await db.schema
    .createTable('code_failures')
    .addColumn('purpose', 'varchar(32)', (col) => col.notNull())
    .addColumn('subject', 'varchar(128)', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('window_ends_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('code_failures_pk', ['purpose', 'subject'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('code_failures').execute();
}
