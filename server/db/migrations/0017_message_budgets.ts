import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // How many SMS or e-mails a bucket (one recipient, one person, one client address, everyone) has had in its
  // current window. The window starts with the bucket's first message and restarts once it is over. Recipients
  // and client addresses are keyed by an HMAC, so the table is no list of phone numbers or e-mail addresses.
  await db.schema
    .createTable('message_budgets')
    .addColumn('bucket', 'varchar(128)', (col) => col.primaryKey())
    .addColumn('sent', 'integer', (col) => col.notNull())
    .addColumn('window_ends_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  // Housekeeping removes the buckets whose window is over.
  await db.schema.createIndex('message_budgets_window_ends_at').on('message_budgets').column('window_ends_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('message_budgets').execute();
}
