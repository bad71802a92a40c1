import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // An ID document is reserved by the first application whose identity is verified: the key makes two at once impossible.
  await db.schema
    .createTable('id_document_holds')
    .addColumn('id_document', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('application_id', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('held_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  // The password chosen at /divilo-password, sealed (AES-256-GCM, a server key) until the sign-in user is made.
  await db.schema
    .createTable('pending_passwords')
    .addColumn('application_id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('sealed', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  // Housekeeping looks for applications left untouched for a while, by status and last change.
  await db.schema.createIndex('onboarding_applications_inactive').on('onboarding_applications').columns(['status', 'updated_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('onboarding_applications_inactive').execute();
  await db.schema.dropTable('pending_passwords').execute();
  await db.schema.dropTable('id_document_holds').execute();
}
