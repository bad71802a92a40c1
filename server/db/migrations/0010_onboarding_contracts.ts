import type { Kysely } from 'kysely';
import { binaryType } from '../dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The signed contract of an application, sealed: one per application (the key makes a second one impossible).
  await db.schema
    .createTable('onboarding_contracts')
    .addColumn('application_id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('contract_sha256', 'varchar(64)', (col) => col.notNull())
    .addColumn('pdf', binaryType(db), (col) => col.notNull())
    .addColumn('signed_at', 'varchar(32)', (col) => col.notNull())
    .addColumn('request_id', 'varchar(64)', (col) => col.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('onboarding_contracts').execute();
}
