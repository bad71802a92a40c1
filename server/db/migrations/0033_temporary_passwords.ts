// Temporary passwords expire (docs/identity.md): the embedded pool keeps when each user's password was set.
import type { Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cognito_users').addColumn('password_set_at', 'varchar(32)').execute();
  // A password set before: its user's last change is the nearest time known.
  await db
    .updateTable('cognito_users')
    .set((eb) => ({ password_set_at: eb.ref('updated_at') }))
    .where('verifier', 'is not', null)
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('cognito_users').dropColumn('password_set_at').execute();
}
