// The embedded Cognito pool's tables (server/embedded/cognito/tables.ts types them).
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run against the schema as it was
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('cognito_users')
    .addColumn('sub', 'varchar(36)', (col) => col.primaryKey())
    .addColumn('username', 'varchar(128)', (col) => col.notNull().unique())
    .addColumn('attributes', 'text', (col) => col.notNull())
    .addColumn('salt', 'varchar(64)')
    .addColumn('verifier', 'text')
    .addColumn('status', 'varchar(32)', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('cognito_sign_in_failures')
    .addColumn('username', 'varchar(128)', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();

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

  await db.schema
    .createTable('cognito_refresh_tokens')
    .addColumn('token_hash', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('user_sub', 'varchar(36)', (col) => col.notNull())
    .addColumn('client_id', 'varchar(128)', (col) => col.notNull())
    .addColumn('origin_jti', 'varchar(36)', (col) => col.notNull().unique())
    .addColumn('auth_time', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('revoked', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('cognito_refresh_tokens_user_sub').on('cognito_refresh_tokens').column('user_sub').execute();
  await db.schema.createIndex('cognito_refresh_tokens_expires_at').on('cognito_refresh_tokens').column('expires_at').execute();

  await db.schema
    .createTable('cognito_signing_keys')
    .addColumn('kid', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('public_jwk', 'text', (col) => col.notNull())
    .addColumn('sealed_private_key', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('retired_at', 'varchar(32)')
    .execute();

  await db.schema
    .createTable('cognito_identities')
    .addColumn('identity_id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('identity_pool_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('provider', 'varchar(512)', (col) => col.notNull())
    .addColumn('sub', 'varchar(36)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addUniqueConstraint('cognito_identities_login', ['identity_pool_id', 'provider', 'sub'])
    .execute();

  await db.schema
    .createTable('cognito_credentials')
    .addColumn('access_key_id', 'varchar(32)', (col) => col.primaryKey())
    .addColumn('sealed_secret', 'text', (col) => col.notNull())
    .addColumn('session_token_hash', 'varchar(64)', (col) => col.notNull())
    .addColumn('identity_id', 'varchar(64)', (col) => col.notNull())
    .addColumn('expires_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('cognito_credentials_expires_at').on('cognito_credentials').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'cognito_credentials',
    'cognito_identities',
    'cognito_signing_keys',
    'cognito_refresh_tokens',
    'cognito_auth_sessions',
    'cognito_sign_in_failures',
    'cognito_users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
