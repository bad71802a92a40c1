// More than one user pool on the embedded identity service (docs/identity.md, "Staff pool"): users and their
// sign-in failures are keyed by pool, and the staff pool's groups and authenticator apps get their tables.
import type { Kysely } from 'kysely';

/**
 * SQLite cannot drop the inline UNIQUE(username) of 0002: both tables are rebuilt with the pool in their key.
 * Existing rows belong to the service's main pool, whose key is '' (so a renamed main pool keeps its users).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
async function rebuildWithPool(db: Kysely<any>, withPool: boolean): Promise<void> {
  // The builder types only the columns it added unconditionally: the pool column is added in $call.
  const key = (withPool ? ['pool', 'username'] : ['username']) as ['username'];
  await db.schema
    .createTable('cognito_users_next')
    .$call((table) => (withPool ? table.addColumn('pool', 'varchar(55)', (col) => col.notNull().defaultTo('')) : table))
    .addColumn('sub', 'varchar(36)', (col) => col.primaryKey())
    .addColumn('username', 'varchar(128)', (col) => col.notNull())
    .addColumn('attributes', 'text', (col) => col.notNull())
    .addColumn('salt', 'varchar(64)')
    .addColumn('verifier', 'text')
    .addColumn('status', 'varchar(32)', (col) => col.notNull())
    .addColumn('enabled', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .addUniqueConstraint(withPool ? 'cognito_users_pool_username' : 'cognito_users_username', key)
    .execute();
  const userColumns = ['sub', 'username', 'attributes', 'salt', 'verifier', 'status', 'enabled', 'created_at', 'updated_at'] as const;
  await db.insertInto('cognito_users_next').columns(userColumns).expression(db.selectFrom('cognito_users').select(userColumns)).execute();
  await db.schema.dropTable('cognito_users').execute();
  await db.schema.alterTable('cognito_users_next').renameTo('cognito_users').execute();

  await db.schema
    .createTable('cognito_sign_in_failures_next')
    .$call((table) => (withPool ? table.addColumn('pool', 'varchar(55)', (col) => col.notNull().defaultTo('')) : table))
    .addColumn('username', 'varchar(128)', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint(withPool ? 'cognito_sign_in_failures_pool_key' : 'cognito_sign_in_failures_key', key)
    .execute();
  const failureColumns = ['username', 'failures', 'locked_until', 'updated_at'] as const;
  await db
    .insertInto('cognito_sign_in_failures_next')
    .columns(failureColumns)
    .expression(db.selectFrom('cognito_sign_in_failures').select(failureColumns))
    .execute();
  await db.schema.dropTable('cognito_sign_in_failures').execute();
  await db.schema.alterTable('cognito_sign_in_failures_next').renameTo('cognito_sign_in_failures').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see rebuildWithPool()
export async function up(db: Kysely<any>): Promise<void> {
  await rebuildWithPool(db, true);
  await db.schema
    .createTable('cognito_group_members')
    .addColumn('user_sub', 'varchar(36)', (col) => col.notNull())
    .addColumn('group_name', 'varchar(128)', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('cognito_group_members_key', ['user_sub', 'group_name'])
    .execute();
  await db.schema
    .createTable('cognito_software_tokens')
    .addColumn('user_sub', 'varchar(36)', (col) => col.primaryKey())
    .addColumn('sealed_secret', 'text')
    .addColumn('sealed_pending_secret', 'text')
    .addColumn('last_used_step', 'bigint')
    .addColumn('enabled', 'integer', (col) => col.notNull())
    .addColumn('preferred', 'integer', (col) => col.notNull())
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see rebuildWithPool()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cognito_software_tokens').execute();
  await db.schema.dropTable('cognito_group_members').execute();
  // Only the main pool's users fit the old key: the other pools' users go with the pools.
  await db.deleteFrom('cognito_sign_in_failures').where('pool', '!=', '').execute();
  await db.deleteFrom('cognito_users').where('pool', '!=', '').execute();
  await rebuildWithPool(db, false);
}
