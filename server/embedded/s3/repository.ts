// The storage metadata in the database: objects, unfinished uploads and their parts. Each change that makes
// bytes visible is one transaction, run only after those bytes are safely on disk.
import type { Kysely } from 'kysely';
import { fromDbTime, toDbTime } from '../../db/values';
import type { DbBigint, StorageObjectTable, StoragePartTable, StorageTables, StorageUploadTable } from './tables';

/** One file of an object's bytes, relative to `<dataDir>/objects`. */
export interface Segment {
  file: string;
  size: number;
}

export interface ObjectRecord {
  bucket: string;
  key: string;
  size: number;
  etag: string;
  contentType: string;
  headers: Record<string, string>;
  /** The files whose bytes, in this order, are the object: one for a single put, one per part for a multipart one. */
  segments: Segment[];
  ownerIdentity: string | null;
  lastModified: Date;
  /** Object Lock: set by PutObjectRetention, never by a write. */
  retention?: Retention;
}

export type LockMode = 'GOVERNANCE' | 'COMPLIANCE';

export interface Retention {
  mode: LockMode;
  retainUntil: Date;
}

/** Whether `retention` still holds at `now`. */
export const lockedAt = (retention: Retention | undefined, now: Date) => retention !== undefined && retention.retainUntil.getTime() > now.getTime();

/** A delete or a replacement of an object whose Object Lock retention holds: nothing changed. */
export class ObjectLocked extends Error {
  constructor() {
    super('the object is under Object Lock retention');
    this.name = 'ObjectLocked';
  }
}

export interface UploadRecord {
  uploadId: string;
  bucket: string;
  key: string;
  ownerIdentity: string | null;
  contentType: string;
  headers: Record<string, string>;
  createdAt: Date;
}

interface PartRecord {
  uploadId: string;
  partNumber: number;
  size: number;
  etag: string;
  file: string;
  lastModified: Date;
}

export interface ListedObject {
  key: string;
  size: number;
  etag: string;
  lastModified: Date;
}

type ObjectRowWithSegment = StorageObjectTable & { segment_file: string | null; segment_size: DbBigint | null };

/** The object's row joined with its segment rows (in order; one row with null segment columns for a single file). */
const toObject = (rows: ObjectRowWithSegment[]): ObjectRecord => {
  const [row] = rows;
  const segments =
    row.segment_file === null
      ? [{ file: row.file, size: Number(row.size) }]
      : rows.map((segment) => ({ file: segment.segment_file!, size: Number(segment.segment_size) }));
  return {
    bucket: row.bucket,
    key: row.object_key,
    size: Number(row.size),
    etag: row.etag,
    contentType: row.content_type,
    headers: JSON.parse(row.headers) as Record<string, string>,
    segments,
    ownerIdentity: row.owner_identity,
    lastModified: fromDbTime(row.last_modified),
    ...(row.lock_mode && row.retain_until ? { retention: { mode: row.lock_mode as LockMode, retainUntil: fromDbTime(row.retain_until) } } : {}),
  };
};

const fromObject = (record: ObjectRecord): StorageObjectTable => ({
  bucket: record.bucket,
  object_key: record.key,
  size: record.size,
  etag: record.etag,
  content_type: record.contentType,
  headers: JSON.stringify(record.headers),
  file: record.segments[0].file,
  owner_identity: record.ownerIdentity,
  last_modified: toDbTime(record.lastModified),
});

/** Rows per INSERT of segments: well under SQLite's limit of bound values whatever the number of parts. */
const SEGMENT_INSERT_BATCH = 500;

const toUpload = (row: StorageUploadTable): UploadRecord => ({
  uploadId: row.upload_id,
  bucket: row.bucket,
  key: row.object_key,
  ownerIdentity: row.owner_identity,
  contentType: row.content_type,
  headers: JSON.parse(row.headers) as Record<string, string>,
  createdAt: fromDbTime(row.created_at),
});

const toPart = (row: StoragePartTable): PartRecord => ({
  uploadId: row.upload_id,
  partNumber: Number(row.part_number),
  size: Number(row.size),
  etag: row.etag,
  file: row.file,
  lastModified: fromDbTime(row.last_modified),
});

/**
 * A write that may only create its object (`If-None-Match: *`), and whether the key held one when the request
 * began: gone by the time the write commits, a delete ran meanwhile.
 */
export interface CreateOnly {
  existedAtStart: boolean;
}

/**
 * Why a create-only write changed nothing: the key holds an object (S3's 412), or held one when the request began
 * and was deleted since (S3's 409 ConditionalRequestConflict).
 */
export type CreateRefusal = 'precondition-failed' | 'conflict';

/** Thrown inside the transaction so that it rolls back; answered as its reason. */
class CreateRefused extends Error {
  constructor(readonly reason: CreateRefusal) {
    super(reason);
  }
}

/** `work` in one transaction; a create-only write's refusal rolls it back and is answered. */
async function inTransaction<T>(db: Kysely<StorageTables>, work: (trx: Kysely<StorageTables>) => Promise<T>): Promise<T | CreateRefusal> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (error instanceof CreateRefused) return error.reason;
    throw error;
  }
}

/**
 * Writes the object's row and its segment rows, replacing any earlier version (or, `createOnly`, only where the key
 * holds none: decided by the insert itself, so of concurrent creates one wins); answers the files the earlier
 * version used (to be removed once the transaction has committed).
 */
async function putObjectRow(trx: Kysely<StorageTables>, record: ObjectRecord, createOnly?: CreateOnly): Promise<string[]> {
  if (record.segments.length === 0) throw new Error('an object has at least one file');
  const previous = await trx
    .selectFrom('storage_objects')
    .select(['file', 'retain_until'])
    .where('bucket', '=', record.bucket)
    .where('object_key', '=', record.key)
    .executeTakeFirst();
  // S3 would keep the locked version beside the new one; with one version kept here, a locked object stays as it is.
  if (!createOnly && previous?.retain_until && previous.retain_until > toDbTime(record.lastModified)) throw new ObjectLocked();
  const row = fromObject(record);
  if (createOnly) {
    // On PostgreSQL the insert waits for a concurrent writer of the key, then does nothing if it committed one.
    const created = await trx
      .insertInto('storage_objects')
      .values(row)
      .onConflict((conflict) => conflict.columns(['bucket', 'object_key']).doNothing())
      .returning('object_key')
      .executeTakeFirst();
    if (!created) throw new CreateRefused('precondition-failed');
    if (createOnly.existedAtStart) throw new CreateRefused('conflict');
  } else {
    await trx
      .insertInto('storage_objects')
      .values(row)
      .onConflict((conflict) =>
        conflict.columns(['bucket', 'object_key']).doUpdateSet({
          size: row.size,
          etag: row.etag,
          content_type: row.content_type,
          headers: row.headers,
          file: row.file,
          owner_identity: row.owner_identity,
          last_modified: row.last_modified,
        }),
      )
      .execute();
  }
  // After the upsert, which on PostgreSQL waits for a concurrent writer of the same key: its segment rows, now
  // committed, are seen and replaced too.
  const dropped = await trx
    .deleteFrom('storage_object_segments')
    .where('bucket', '=', record.bucket)
    .where('object_key', '=', record.key)
    .returning('file')
    .execute();
  if (record.segments.length > 1) {
    const rows = record.segments.map((segment, seq) => ({ bucket: record.bucket, object_key: record.key, seq, file: segment.file, size: segment.size }));
    for (let i = 0; i < rows.length; i += SEGMENT_INSERT_BATCH) {
      await trx
        .insertInto('storage_object_segments')
        .values(rows.slice(i, i + SEGMENT_INSERT_BATCH))
        .execute();
    }
  }
  const kept = new Set(record.segments.map((segment) => segment.file));
  const replaced = new Set([...(previous ? [previous.file] : []), ...dropped.map((row) => row.file)]);
  return [...replaced].filter((file) => !kept.has(file));
}

export type StorageRepository = ReturnType<typeof createStorageRepository>;

export function createStorageRepository(db: Kysely<StorageTables>) {
  const uploadExists = async (trx: Kysely<StorageTables>, uploadId: string) =>
    (await trx.selectFrom('storage_uploads').select('upload_id').where('upload_id', '=', uploadId).executeTakeFirst()) !== undefined;

  return {
    objects: {
      /** The object with its files, read in one statement: the row and its segments are of the same version. */
      async find(bucket: string, key: string): Promise<ObjectRecord | undefined> {
        const rows = await db
          .selectFrom('storage_objects as o')
          .leftJoin('storage_object_segments as s', (join) => join.onRef('s.bucket', '=', 'o.bucket').onRef('s.object_key', '=', 'o.object_key'))
          .selectAll('o')
          .select(['s.file as segment_file', 's.size as segment_size'])
          .where('o.bucket', '=', bucket)
          .where('o.object_key', '=', key)
          .orderBy('s.seq')
          .execute();
        return rows.length > 0 ? toObject(rows) : undefined;
      },

      /** Whether the key holds an object now. */
      async exists(bucket: string, key: string): Promise<boolean> {
        return (await db.selectFrom('storage_objects').select('object_key').where('bucket', '=', bucket).where('object_key', '=', key).executeTakeFirst()) !== undefined;
      },

      /** Makes `record` the object at its key; answers the files of the version it replaced, or why a create-only write did nothing. */
      put(record: ObjectRecord, createOnly?: CreateOnly): Promise<string[] | CreateRefusal> {
        return inTransaction(db, (trx) => putObjectRow(trx, record, createOnly));
      },

      /**
       * Answers the removed version's files (none if there was no such object); ObjectLocked, and nothing removed,
       * while its retention holds at `now` (the one statement that deletes the row decides it).
       */
      async remove(bucket: string, key: string, now: Date): Promise<string[]> {
        return db.transaction().execute(async (trx) => {
          const segments = await trx.deleteFrom('storage_object_segments').where('bucket', '=', bucket).where('object_key', '=', key).returning('file').execute();
          const row = await trx
            .deleteFrom('storage_objects')
            .where('bucket', '=', bucket)
            .where('object_key', '=', key)
            .where((eb) => eb.or([eb('retain_until', 'is', null), eb('retain_until', '<=', toDbTime(now))]))
            .returning('file')
            .executeTakeFirst();
          // Locked: thrown inside the transaction, so its segment rows come back with it.
          if (!row && (await trx.selectFrom('storage_objects').select('object_key').where('bucket', '=', bucket).where('object_key', '=', key).executeTakeFirst())) {
            throw new ObjectLocked();
          }
          return [...new Set([...(row ? [row.file] : []), ...segments.map((segment) => segment.file)])];
        });
      },

      /**
       * Sets the object's retention, as S3's PutObjectRetention: a COMPLIANCE retention that still holds is only ever
       * moved later (one conditional statement). Answers what happened.
       */
      async setRetention(bucket: string, key: string, retention: Retention, now: Date): Promise<'set' | 'no-such-key' | 'would-shorten'> {
        const until = toDbTime(retention.retainUntil);
        const updated = await db
          .updateTable('storage_objects')
          .set({ lock_mode: retention.mode, retain_until: until })
          .where('bucket', '=', bucket)
          .where('object_key', '=', key)
          .where((eb) =>
            eb.or([eb('lock_mode', 'is', null), eb('lock_mode', '!=', 'COMPLIANCE'), eb('retain_until', '<=', toDbTime(now)), eb.and([eb('retain_until', '<=', until), eb('lock_mode', '=', retention.mode)])]),
          )
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 1) return 'set';
        const exists = await db.selectFrom('storage_objects').select('object_key').where('bucket', '=', bucket).where('object_key', '=', key).executeTakeFirst();
        return exists ? 'would-shorten' : 'no-such-key';
      },

      /** Keys from `from` on (inclusive), after `after` (exclusive), in byte order. */
      async list(bucket: string, options: { from: string; after?: string; limit: number }): Promise<ListedObject[]> {
        let query = db
          .selectFrom('storage_objects')
          .select(['object_key', 'size', 'etag', 'last_modified'])
          .where('bucket', '=', bucket)
          .where('object_key', '>=', options.from);
        if (options.after !== undefined) query = query.where('object_key', '>', options.after);
        const rows = await query.orderBy('object_key').limit(options.limit).execute();
        return rows.map((row) => ({ key: row.object_key, size: Number(row.size), etag: row.etag, lastModified: fromDbTime(row.last_modified) }));
      },

      /** Which of `files` an object uses, as its single file or as one of its segments. */
      async referencedFiles(files: string[]): Promise<Set<string>> {
        if (files.length === 0) return new Set();
        const rows = await db
          .selectFrom('storage_objects')
          .select('file')
          .where('file', 'in', files)
          .union(db.selectFrom('storage_object_segments').select('file').where('file', 'in', files))
          .execute();
        return new Set(rows.map((row) => row.file));
      },
    },

    uploads: {
      async create(record: UploadRecord): Promise<void> {
        await db
          .insertInto('storage_uploads')
          .values({
            upload_id: record.uploadId,
            bucket: record.bucket,
            object_key: record.key,
            owner_identity: record.ownerIdentity,
            content_type: record.contentType,
            headers: JSON.stringify(record.headers),
            created_at: toDbTime(record.createdAt),
          })
          .execute();
      },

      async find(uploadId: string): Promise<UploadRecord | undefined> {
        const row = await db.selectFrom('storage_uploads').selectAll().where('upload_id', '=', uploadId).executeTakeFirst();
        return row && toUpload(row);
      },

      async parts(uploadId: string, options: { after?: number; limit?: number } = {}): Promise<PartRecord[]> {
        let query = db.selectFrom('storage_parts').selectAll().where('upload_id', '=', uploadId);
        if (options.after !== undefined) query = query.where('part_number', '>', options.after);
        if (options.limit !== undefined) query = query.limit(options.limit);
        const rows = await query.orderBy('part_number').execute();
        return rows.map(toPart);
      },

      /**
       * Records a part whose file is already written; answers the file of the part it replaced, or
       * 'no-upload' when the upload was completed or aborted meanwhile (the caller removes the new file).
       */
      async recordPart(part: PartRecord): Promise<{ replacedFile?: string } | 'no-upload'> {
        try {
          return await db.transaction().execute(async (trx) => {
            if (!(await uploadExists(trx, part.uploadId))) return 'no-upload' as const;
            const previous = await trx
              .selectFrom('storage_parts')
              .select('file')
              .where('upload_id', '=', part.uploadId)
              .where('part_number', '=', part.partNumber)
              .executeTakeFirst();
            const row = {
              upload_id: part.uploadId,
              part_number: part.partNumber,
              size: part.size,
              etag: part.etag,
              file: part.file,
              last_modified: toDbTime(part.lastModified),
            };
            await trx
              .insertInto('storage_parts')
              .values(row)
              .onConflict((conflict) =>
                conflict.columns(['upload_id', 'part_number']).doUpdateSet({ size: row.size, etag: row.etag, file: row.file, last_modified: row.last_modified }),
              )
              .execute();
            return { replacedFile: previous?.file };
          });
        } catch (error) {
          // An abort committed between our check and our insert: the foreign key refused the part.
          if (!(await uploadExists(db, part.uploadId))) return 'no-upload';
          throw error;
        }
      },

      /** In one step: the object appears with its files, the upload and its parts' rows go (nothing changes if a create-only write is refused). */
      async complete(uploadId: string, record: ObjectRecord, createOnly?: CreateOnly): Promise<{ replacedFiles: string[] } | 'no-upload' | CreateRefusal> {
        return inTransaction(db, async (trx) => {
          if (!(await uploadExists(trx, uploadId))) return 'no-upload' as const;
          const replacedFiles = await putObjectRow(trx, record, createOnly);
          // Rows of parts go with their upload (on delete cascade); deleted here too so no dialect relies on it.
          await trx.deleteFrom('storage_parts').where('upload_id', '=', uploadId).execute();
          await trx.deleteFrom('storage_uploads').where('upload_id', '=', uploadId).execute();
          return { replacedFiles };
        });
      },

      /** Answers whether there was such an upload. */
      async remove(uploadId: string): Promise<boolean> {
        return db.transaction().execute(async (trx) => {
          await trx.deleteFrom('storage_parts').where('upload_id', '=', uploadId).execute();
          const result = await trx.deleteFrom('storage_uploads').where('upload_id', '=', uploadId).executeTakeFirst();
          return Number(result.numDeletedRows) > 0;
        });
      },

      async createdBefore(time: Date): Promise<string[]> {
        const rows = await db.selectFrom('storage_uploads').select('upload_id').where('created_at', '<', toDbTime(time)).execute();
        return rows.map((row) => row.upload_id);
      },

      async existing(uploadIds: string[]): Promise<Set<string>> {
        if (uploadIds.length === 0) return new Set();
        const rows = await db.selectFrom('storage_uploads').select('upload_id').where('upload_id', 'in', uploadIds).execute();
        return new Set(rows.map((row) => row.upload_id));
      },

      async partFiles(uploadId: string): Promise<Set<string>> {
        const rows = await db.selectFrom('storage_parts').select('file').where('upload_id', '=', uploadId).execute();
        return new Set(rows.map((row) => row.file));
      },
    },
  };
}
