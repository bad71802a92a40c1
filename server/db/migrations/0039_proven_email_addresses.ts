import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The e-mail addresses that have entered a code the bank sent them: only those get more than one e-mail an hour,
  // and only those count against the e-mail total. Keyed by the message budgets' HMAC: no list of addresses.
  await db.schema
    .createTable('proven_email_addresses')
    .addColumn('address', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('proven_at', 'varchar(32)', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('proven_email_addresses').execute();
}
