import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { buildApp, type AppOptions } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../server/db';

export { freePort } from '../../scripts/freePort';

export type Dialect = 'sqlite' | 'postgres';

const postgresUrl = process.env.DATABASE_URL;

/**
 * Says once per Jest run (not once per test file: each file has its own module registry, so the marker is a
 * file named after the run's main process) that the PostgreSQL variants are skipped.
 */
function noticePostgresSkipped(): void {
  const runner = process.env.JEST_WORKER_ID ? process.ppid : process.pid;
  try {
    writeFileSync(path.join(tmpdir(), `divilo-pg-skip-notice-${runner}`), '', { flag: 'wx' });
  } catch {
    return;
  }
  process.stderr.write('DATABASE_URL is not set: the PostgreSQL variants of the database tests are skipped.\n');
}

/** A PostgreSQL URL whose connections work in `schema` (a server process of its own on a test's schema). */
export function postgresUrlInSchema(url: string, schema: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/**
 * The databases repository tests run on: always SQLite; PostgreSQL too when DATABASE_URL is set. The
 * PostgreSQL cases are reported as skipped (never as passed) when it is not.
 */
export function dialects(): { dialect: Dialect; skip: boolean }[] {
  if (!postgresUrl) noticePostgresSkipped();
  return [
    { dialect: 'sqlite', skip: false },
    { dialect: 'postgres', skip: !postgresUrl },
  ];
}

/** One `describe` per dialect, named after it; `describe.skip` for PostgreSQL without DATABASE_URL. */
export function describeEachDialect(name: string, body: (dialect: Dialect) => void): void {
  for (const { dialect, skip } of dialects()) {
    (skip ? describe.skip : describe)(`${name} (${dialect})`, () => body(dialect));
  }
}

/** `databaseUrl`: on PostgreSQL, the URL a process of its own connects to the test's schema with. */
export type TestDatabase = DatabaseHandle & { dataDir: string; databaseUrl?: string };

/** A connection to DATABASE_URL's database for `work`, closed after it. */
export async function onPostgres<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh, migrated database: a temp SQLite file, or a schema of its own in PostgreSQL (so parallel Jest
 * workers never see each other's rows). `destroy()` removes it all.
 */
export async function openTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-test-'));
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    const handle = createDatabase({ dataDir });
    const destroy = () => handle.destroy().finally(removeDataDir);
    await migrateToLatest(handle.db).catch(async (error: unknown) => {
      await destroy();
      throw error;
    });
    return { ...handle, dataDir, destroy };
  }
  if (!postgresUrl) throw new Error('openTestDatabase("postgres") needs DATABASE_URL');
  const schema = `test_${process.pid}_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  await onPostgres((client) => client.query(`CREATE SCHEMA "${schema}"`));
  const handle = createDatabase({ dataDir, databaseUrl: postgresUrl, postgresSchema: schema });
  const destroy = async () => {
    await handle.destroy();
    await onPostgres((client) => client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    removeDataDir();
  };
  try {
    await migrateToLatest(handle.db);
  } catch (error) {
    await destroy();
    throw error;
  }
  return { ...handle, dataDir, destroy, databaseUrl: postgresUrlInSchema(postgresUrl, schema) };
}

/** Collects what the server logs, to check what never appears there. */
export function logCollector() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join(''), entries: () => lines.join('').split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) };
}

export interface TestApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  config: Config;
  database: TestDatabase | DatabaseHandle;
  /** Closes the app, then the database and its temp directory (unless the test handed its own database in). */
  close(): Promise<void>;
}

/**
 * The whole app on a fresh database (SQLite unless `dialect` says otherwise) in a temp DATA_DIR, with configuration overrides given as
 * environment variables. Logs are silent unless LOG_LEVEL is set (in `overrides` or in the environment).
 */
export async function buildTestApp(overrides: Record<string, string | undefined> = {}, options: AppOptions & { dialect?: Dialect } = {}): Promise<TestApp> {
  const { dialect = 'sqlite', ...appOptions } = options;
  options = appOptions;
  const database = options.database ?? (await openTestDatabase(dialect));
  // A database handed in without a directory still needs a DATA_DIR of the test's own (the server secret lives there).
  const ownDataDir = 'dataDir' in database ? undefined : mkdtempSync(path.join(tmpdir(), 'divilo-test-'));
  const dataDir = ownDataDir ?? (database as TestDatabase).dataDir;
  const config = loadConfig({ LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', DATA_DIR: dataDir, ...overrides });
  const app = await buildApp(config, { ...options, database });
  return {
    app,
    config,
    database,
    close: async () => {
      await app.close();
      if (!options.database) await database.destroy();
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs `meanwhile` once, right after the next call of `target[method]` has answered and before its caller goes on
 * (another request's change landing between a route's reading and its save). Answers a function that undoes it
 * if that call never came.
 */
export function afterNextCall<T extends object, K extends keyof T>(target: T, method: K, meanwhile: () => Promise<void>): () => void {
  const original = target[method] as unknown as (...args: unknown[]) => Promise<unknown>;
  const restore = () => {
    (target as Record<K, unknown>)[method] = original;
  };
  (target as Record<K, unknown>)[method] = async (...args: unknown[]) => {
    const answer = await original.apply(target, args);
    restore();
    await meanwhile();
    return answer;
  };
  return restore;
}
