// Bytes promised to uploads still arriving under a storage area with a quota (server/embedded/s3/quota.ts).
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  const keyType = isPostgres(db) ? sql`varchar(1024) collate "C"` : 'varchar(1024)';
  await db.schema
    .createTable('storage_reservations')
    .addColumn('id', 'varchar(36)', (col) => col.primaryKey())
    .addColumn('bucket', 'varchar(63)', (col) => col.notNull())
    .addColumn('area', keyType, (col) => col.notNull())
    .addColumn('object_key', keyType, (col) => col.notNull())
    .addColumn('bytes', 'bigint', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('storage_reservations_area').on('storage_reservations').columns(['bucket', 'area']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('storage_reservations').execute();
}
