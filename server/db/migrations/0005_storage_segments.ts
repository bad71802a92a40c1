// Objects stored as an ordered list of files (a completed multipart upload keeps its parts' bytes where they
// were written, never copied). server/embedded/s3/tables.ts types it.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // The same key type as storage_objects (0003_storage): byte order on both databases.
  const keyType = isPostgres(db) ? sql`varchar(1024) collate "C"` : 'varchar(1024)';

  // An object of one file has no rows here: storage_objects.file names it, as before this migration, so the
  // existing rows need no conversion. An object of several files has one row per file, in order from seq 0;
  // storage_objects.file then names the same file as seq 0. A file belongs to one object only (unique), and
  // the sweep finds the live files through that index.
  await db.schema
    .createTable('storage_object_segments')
    .addColumn('bucket', 'varchar(63)', (col) => col.notNull())
    .addColumn('object_key', keyType, (col) => col.notNull())
    .addColumn('seq', 'integer', (col) => col.notNull())
    .addColumn('file', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('storage_object_segments_pk', ['bucket', 'object_key', 'seq'])
    .addForeignKeyConstraint('storage_object_segments_object_fk', ['bucket', 'object_key'], 'storage_objects', ['bucket', 'object_key'], (fk) => fk.onDelete('cascade'))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('storage_object_segments').ifExists().execute();
}
