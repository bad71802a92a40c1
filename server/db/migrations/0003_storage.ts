// The embedded storage endpoint's metadata (server/embedded/s3/tables.ts types it). The bytes live in files.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../dialect';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a migration runs against the schema as it was then
export async function up(db: Kysely<any>): Promise<void> {
  // S3 lists keys in byte order. SQLite's default collation compares bytes; PostgreSQL's follows the locale
  // unless told "C". 1024 is S3's key limit in bytes, so in characters it always fits.
  const keyType = isPostgres(db) ? sql`varchar(1024) collate "C"` : 'varchar(1024)';

  await db.schema
    .createTable('storage_objects')
    .addColumn('bucket', 'varchar(63)', (col) => col.notNull())
    .addColumn('object_key', keyType, (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('etag', 'varchar(80)', (col) => col.notNull())
    .addColumn('content_type', 'varchar(1024)', (col) => col.notNull())
    .addColumn('headers', 'text', (col) => col.notNull())
    .addColumn('file', 'varchar(64)', (col) => col.notNull().unique())
    .addColumn('owner_identity', 'varchar(128)')
    .addColumn('last_modified', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('storage_objects_pk', ['bucket', 'object_key'])
    .execute();

  await db.schema
    .createTable('storage_uploads')
    .addColumn('upload_id', 'varchar(64)', (col) => col.primaryKey())
    .addColumn('bucket', 'varchar(63)', (col) => col.notNull())
    .addColumn('object_key', keyType, (col) => col.notNull())
    .addColumn('owner_identity', 'varchar(128)')
    .addColumn('content_type', 'varchar(1024)', (col) => col.notNull())
    .addColumn('headers', 'text', (col) => col.notNull())
    .addColumn('created_at', 'varchar(32)', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('storage_uploads_created_at').on('storage_uploads').column('created_at').execute();

  // A part can only be recorded while its upload exists: an abort racing an upload of a part wins cleanly.
  await db.schema
    .createTable('storage_parts')
    .addColumn('upload_id', 'varchar(64)', (col) => col.notNull().references('storage_uploads.upload_id').onDelete('cascade'))
    .addColumn('part_number', 'integer', (col) => col.notNull())
    .addColumn('size', 'bigint', (col) => col.notNull())
    .addColumn('etag', 'varchar(80)', (col) => col.notNull())
    .addColumn('file', 'varchar(64)', (col) => col.notNull())
    .addColumn('last_modified', 'varchar(32)', (col) => col.notNull())
    .addPrimaryKeyConstraint('storage_parts_pk', ['upload_id', 'part_number'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['storage_parts', 'storage_uploads', 'storage_objects']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
