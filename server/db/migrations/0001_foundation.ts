import type { Kysely } from 'kysely';
import { serialIdType } from '../dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_log')
    .addColumn('id', serialIdType(db), (col) => col.primaryKey())
    .addColumn('occurred_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('actor', 'varchar(128)', (col) => col.notNull())
    .addColumn('action', 'varchar(64)', (col) => col.notNull())
    .addColumn('subject', 'varchar(128)', (col) => col.notNull())
    .addColumn('request_id', 'varchar(64)')
    .addColumn('details', 'text')
    .execute();
  await db.schema.createIndex('audit_log_subject').on('audit_log').columns(['subject', 'id']).execute();

  await db.schema
    .createTable('login_sessions')
    .addColumn('id_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_sub', 'varchar(64)', (col) => col.notNull())
    .addColumn('username', 'varchar(128)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('revoked_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('login_sessions_user').on('login_sessions').column('user_sub').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_sessions').execute();
  await db.schema.dropTable('audit_log').execute();
}
