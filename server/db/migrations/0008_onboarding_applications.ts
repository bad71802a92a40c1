import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // A sign-up not yet confirmed by its e-mail code: what /signUp sent, nothing else.
  await db.schema
    .createTable('onboarding_registrations')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('email', 'varchar(254)', (col) => col.notNull())
    .addColumn('id_type', 'varchar(16)', (col) => col.notNull())
    .addColumn('id_document', 'varchar(32)', (col) => col.notNull())
    .addColumn('answers', 'text', (col) => col.notNull())
    .addColumn('language', 'varchar(2)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();

  // One application per applicant: the answers saved so far (JSON, no secrets), the steps done, where it stands.
  await db.schema
    .createTable('onboarding_applications')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('status', 'varchar(24)', (col) => col.notNull())
    .addColumn('email', 'varchar(254)', (col) => col.notNull())
    .addColumn('id_document', 'varchar(32)', (col) => col.notNull())
    .addColumn('person_type', 'varchar(16)')
    .addColumn('answers', 'text', (col) => col.notNull())
    .addColumn('completed_steps', 'text', (col) => col.notNull())
    .addColumn('riskfactor', 'varchar(8)')
    .addColumn('language', 'varchar(2)', (col) => col.notNull())
    .addColumn('version', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('onboarding_applications_applicant').on('onboarding_applications').columns(['id_document', 'email']).execute();
  await db.schema.createIndex('onboarding_applications_email').on('onboarding_applications').column('email').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('onboarding_applications').execute();
  await db.schema.dropTable('onboarding_registrations').execute();
}
