// The storage endpoint's tables, typed here so the shared Database interface stays untouched
// (`db.withTables<StorageTables>()`). Created by server/db/migrations/0003_storage.ts and 0005_storage_segments.ts.

/** ISO 8601 text in UTC with milliseconds, as every table keeps times (server/db/values.ts). */
export type DbTimestamp = string;
/** A bigint column: SQLite answers a number, PostgreSQL a string. */
export type DbBigint = number | string;

export type StorageObjectTable = {
  bucket: string;
  object_key: string;
  size: DbBigint;
  /** Quoted, as S3 sends it: `"<md5 hex>"` or `"<md5 of the part md5s>-<parts>"`. */
  etag: string;
  content_type: string;
  /** JSON object of the response headers given at upload (content-disposition, x-amz-meta-*, ...). */
  headers: string;
  /**
   * The object's bytes, relative to `<dataDir>/objects`; never derived from the key. For an object of several
   * files (a completed multipart upload), the first of them; storage_object_segments lists them all.
   */
  file: string;
  /** Identity that wrote it; null for the server's own credentials. */
  owner_identity: string | null;
  last_modified: DbTimestamp;
  /** Object Lock (migration 0035): GOVERNANCE or COMPLIANCE, and the date before which it cannot go. */
  lock_mode?: string | null;
  retain_until?: DbTimestamp | null;
};

export type StorageUploadTable = {
  upload_id: string;
  bucket: string;
  object_key: string;
  /** Only this identity may use the upload id; null: only the server. */
  owner_identity: string | null;
  content_type: string;
  headers: string;
  created_at: DbTimestamp;
};

export type StoragePartTable = {
  upload_id: string;
  part_number: number;
  size: DbBigint;
  etag: string;
  /** Relative to `<dataDir>/uploads/<upload_id>`. */
  file: string;
  last_modified: DbTimestamp;
};

/** One file of an object stored as several, in order; none for an object of one file. */
export type StorageObjectSegmentTable = {
  bucket: string;
  object_key: string;
  /** 0, 1, 2, ... in the order the bytes are read. */
  seq: number;
  /** Relative to `<dataDir>/objects`, like storage_objects.file. */
  file: string;
  size: DbBigint;
};

/** Bytes an upload still arriving under a quota area may take (migration 0024): counted with the area's objects. */
export type StorageReservationTable = {
  id: string;
  bucket: string;
  /** The area's key prefix, ending in `/`. */
  area: string;
  /** The key being written: a multipart upload's parts in flight count toward its object's size. */
  object_key: string;
  bytes: DbBigint;
  created_at: DbTimestamp;
};

export type StorageTables = {
  storage_objects: StorageObjectTable;
  storage_uploads: StorageUploadTable;
  storage_parts: StoragePartTable;
  storage_object_segments: StorageObjectSegmentTable;
  storage_reservations: StorageReservationTable;
};
