import { PostgresAdapter, type Kysely } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * An auto-numbered primary key: the one column type the two databases spell differently (SQLite's
 * INTEGER PRIMARY KEY is the row id; PostgreSQL needs an identity column).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function serialIdType(db: Kysely<any>): 'integer' | 'serial' {
  return isPostgres(db) ? 'serial' : 'integer';
}

/** Bytes stored as they are: SQLite's BLOB, PostgreSQL's BYTEA (both read back as a Buffer). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function binaryType(db: Kysely<any>): 'blob' | 'bytea' {
  return isPostgres(db) ? 'bytea' : 'blob';
}
