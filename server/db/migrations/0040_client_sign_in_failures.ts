// The embedded identity service's wrong passwords and codes counted per client as well as per name
// (docs/identity.md, "Lockout"): a stranger's failures lock their own client out, not the member.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // `client`: an HMAC of the client's address (its /64 for IPv6), never the address. `username` '' is the row of
  // the client's failures at every name together.
  await db.schema
    .createTable('cognito_client_failures')
    .addColumn('pool', 'varchar(55)', (col) => col.notNull())
    .addColumn('username', 'varchar(128)', (col) => col.notNull())
    .addColumn('client', 'varchar(64)', (col) => col.notNull())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('locked_until', 'varchar(32)')
    .addColumn('updated_at', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('cognito_client_failures_key', ['pool', 'username', 'client'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cognito_client_failures').execute();
}
