import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The InitiateAuth state now travels sealed in the Session itself (docs/identity.md): the database keeps only
  // which sessions have been answered, until they expire. Sign-ins halfway through the upgrade start again.
  await db.schema.dropTable('cognito_auth_sessions').execute();
  await db.schema
    .createTable('cognito_answered_auth_sessions')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('cognito_answered_auth_sessions_expires_at').on('cognito_answered_auth_sessions').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cognito_answered_auth_sessions').execute();
  await db.schema
    .createTable('cognito_auth_sessions')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('username', 'varchar(128)', (col) => col.notNull())
    .addColumn('user_sub', 'varchar(36)')
    .addColumn('srp_a', 'text', (col) => col.notNull())
    .addColumn('srp_b', 'text', (col) => col.notNull())
    .addColumn('sealed_b', 'text', (col) => col.notNull())
    .addColumn('secret_block', 'text', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('used', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('cognito_auth_sessions_expires_at').on('cognito_auth_sessions').column('expires_at').execute();
}
