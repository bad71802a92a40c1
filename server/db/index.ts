import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import { Pool } from 'pg';
import { guardedPool } from './availability';
import { SearchPathPostgresDialect } from './introspector';
import type { Database } from './schema';

export type { Database } from './schema';
export { migrateToLatest, migrationNames } from './migrate';
export { DatabaseUnavailable, isDatabaseUnavailable, unavailabilityReason } from './availability';

interface DatabaseOptions {
  /** Where the SQLite file lives (`<dataDir>/divilo.sqlite`); created when missing. */
  dataDir: string;
  /** `postgres://…`: PostgreSQL instead of SQLite. */
  databaseUrl?: string;
  /** PostgreSQL schema to work in (tests use one each); default the server's search_path. */
  postgresSchema?: string;
  /** Told about a PostgreSQL connection that failed, idle or in use (the pool replaces it). */
  onConnectionError?: (error: Error) => void;
}

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: 'sqlite' | 'postgres';
  destroy(): Promise<void>;
}

const SQLITE_FILE = 'divilo.sqlite';

/** SQLite in `<dataDir>/divilo.sqlite` by default; PostgreSQL when a database URL is given. */
export function createDatabase(options: DatabaseOptions): DatabaseHandle {
  if (options.databaseUrl) return createPostgres(options.databaseUrl, options);

  mkdirSync(options.dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(options.dataDir, SQLITE_FILE));
  // WAL lets readers work while one writer commits; the busy timeout waits for that writer instead of failing.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}

const NOTHING_TO_ROLL_BACK: SqliteStatement = { reader: false, all: () => [], run: () => ({ changes: 0, lastInsertRowid: 0 }), iterate: () => [][Symbol.iterator]() };

/** How many prepared statements a SQLite connection keeps (the app has far fewer distinct queries). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query again; SQLite parses and plans it each time. This keeps the prepared statement of
 * each SQL text (least recently used dropped beyond the limit) and only binds new parameters. Statements are
 * used one at a time (Kysely holds its one SQLite connection per query); a streamed query gets a statement of
 * its own, since an unfinished iterator keeps its statement busy.
 */
export function withStatementCache(sqlite: SQLite.Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(sqlText: string): SqliteStatement {
      // SQLite ends a transaction itself on some failures (SQLITE_FULL: the disk is full). Kysely's rollback then
      // finds none, and its "no transaction is active" would replace the error that says what happened.
      if (sqlText === 'rollback' && !sqlite.inTransaction) return NOTHING_TO_ROLL_BACK;
      let statement = statements.get(sqlText);
      if (statement) {
        statements.delete(sqlText);
      } else {
        const prepared = sqlite.prepare(sqlText);
        statement = {
          reader: prepared.reader,
          all: (parameters) => prepared.all(parameters),
          run: (parameters) => prepared.run(parameters),
          iterate: (parameters) => sqlite.prepare(sqlText).iterate(parameters),
        };
        if (statements.size >= size) statements.delete(statements.keys().next().value!);
      }
      statements.set(sqlText, statement);
      return statement;
    },
  };
}

function createPostgres(connectionString: string, options: DatabaseOptions): DatabaseHandle {
  const schema = options.postgresSchema;
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`postgresSchema must be a lower-case identifier (got ${JSON.stringify(schema)})`);
  }
  const pool = new Pool({
    connectionString,
    max: 10,
    // Without it a request (and /health) would wait forever for an unreachable server.
    connectionTimeoutMillis: 5000,
    // A server that vanished without closing the connection (a failover's old primary) is noticed by TCP.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Set at connection start-up, so every pooled connection works in the schema before its first query.
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  // A connection the server drops (restart, failover, crash) emits 'error' whether it is idle in the pool or
  // checked out between two queries of a transaction: unheard, that event would end the process. The pool
  // itself re-emits an idle connection's error, heard here by the connection's own listener already.
  pool.on('connect', (client) => client.on('error', (error) => options.onConnectionError?.(error)));
  pool.on('error', () => undefined);
  // Its introspection (the migrator's) reads the search_path's schemas only: introspector.ts.
  const db = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool: guardedPool(pool) }) });
  return { db, dialect: 'postgres', destroy: () => db.destroy() };
}
