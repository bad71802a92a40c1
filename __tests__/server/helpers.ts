import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Client } from 'pg';
import { buildApp, type AppOptions } from '../../server/app';
import { loadConfig, type Config } from '../../server/config';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../../server/db';

export type Dialect = 'sqlite' | 'postgres';

const postgresUrl = process.env.DATABASE_URL;
let warned = false;

/**
 * The databases repository tests run on: always SQLite; PostgreSQL too when DATABASE_URL is set. The
 * PostgreSQL cases are reported as skipped (never as passed) when it is not.
 */
export function dialects(): { dialect: Dialect; skip: boolean }[] {
  if (!postgresUrl && !warned) {
    warned = true;
    console.warn('DATABASE_URL is not set: the PostgreSQL variants of the database tests are skipped.');
  }
  return [
    { dialect: 'sqlite', skip: false },
    { dialect: 'postgres', skip: !postgresUrl },
  ];
}

export function describeEachDialect(name: string, body: (dialect: Dialect) => void): void {
  for (const { dialect, skip } of dialects()) {
    (skip ? describe.skip : describe)(`${name} (${dialect})`, () => body(dialect));
  }
}

/** A fresh, migrated database: a temp SQLite file, or a schema of its own in PostgreSQL. */
export async function openTestDatabase(dialect: Dialect): Promise<DatabaseHandle & { dataDir: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-test-'));
  if (dialect === 'sqlite') {
    const handle = createDatabase({ dataDir });
    await migrateToLatest(handle.db);
    return {
      ...handle,
      dataDir,
      destroy: async () => {
        await handle.destroy();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const schema = `test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  await admin.end();
  const handle = createDatabase({ dataDir, databaseUrl: postgresUrl, postgresSchema: schema });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    dataDir,
    destroy: async () => {
      await handle.destroy();
      const cleanup = new Client({ connectionString: postgresUrl });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA "${schema}" CASCADE`);
      await cleanup.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
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
  return { stream, text: () => lines.join('') };
}

/** The app on a temp SQLite database, with configuration overrides as environment variables. */
export async function buildTestApp(env: Record<string, string> = {}, options: AppOptions = {}) {
  const database = options.database ?? (await openTestDatabase('sqlite'));
  const config: Config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: (database as { dataDir?: string }).dataDir ?? tmpdir(), ...env });
  const app = await buildApp(config, { ...options, database });
  return {
    app,
    config,
    database,
    close: async () => {
      await app.close();
      if (!options.database) await database.destroy();
    },
  };
}
