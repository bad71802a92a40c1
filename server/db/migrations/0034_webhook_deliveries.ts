import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The identity provider's signed deliveries already taken, by the SHA-256 of their signature, until they could no
  // longer be taken anyway (their signing time is too old): a delivery sent again, by anyone, is refused.
  await db.schema
    .createTable('identity_webhook_deliveries')
    .addColumn('signature_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('identity_webhook_deliveries_expiry').on('identity_webhook_deliveries').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('identity_webhook_deliveries').execute();
}
