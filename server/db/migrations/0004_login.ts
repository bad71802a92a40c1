import type { Kysely } from 'kysely';
import { serialIdType } from '../dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // Captcha: solved challenges (each counts once) and passes bound to a browser session id (single use).
  await db.schema
    .createTable('captcha_solutions')
    .addColumn('signature', 'varchar(128)', (col) => col.primaryKey())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema
    .createTable('captcha_passes')
    .addColumn('session_id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('used_at', 'varchar(32)')
    .execute();

  // One-time codes sent by SMS or e-mail. Only an HMAC of the code is stored.
  await db.schema
    .createTable('one_time_codes')
    .addColumn('id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('purpose', 'varchar(32)', (col) => col.notNull())
    .addColumn('subject', 'varchar(128)', (col) => col.notNull())
    .addColumn('session_id', 'varchar(64)')
    .addColumn('recipient', 'varchar(128)', (col) => col.notNull())
    .addColumn('code_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull())
    .addColumn('sends', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('resend_available_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('consumed_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('one_time_codes_subject').on('one_time_codes').columns(['purpose', 'subject']).execute();

  // After too many wrong codes, a person's sign-in or recovery is blocked for a while.
  await db.schema
    .createTable('code_blocks')
    .addColumn('purpose', 'varchar(32)', (col) => col.notNull())
    .addColumn('subject', 'varchar(128)', (col) => col.notNull())
    .addColumn('blocked_until', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('code_blocks_pk', ['purpose', 'subject'])
    .execute();

  // Messages the embedded outbox "sent" (outside production only).
  await db.schema
    .createTable('outbox')
    .addColumn('id', serialIdType(db), (col) => col.primaryKey())
    .addColumn('channel', 'varchar(8)', (col) => col.notNull())
    .addColumn('recipient', 'varchar(128)', (col) => col.notNull())
    .addColumn('purpose', 'varchar(32)', (col) => col.notNull())
    .addColumn('text', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();

  // RSA keys the browser seals recovery data with; the private half is stored sealed with the server key.
  await db.schema
    .createTable('sealing_keys')
    .addColumn('key_id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('public_key', 'text', (col) => col.notNull())
    .addColumn('private_key_sealed', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['sealing_keys', 'outbox', 'code_blocks', 'one_time_codes', 'captcha_passes', 'captcha_solutions']) {
    await db.schema.dropTable(table).execute();
  }
}
