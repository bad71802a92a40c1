// Starts the API server for the browser tests on a throw-away data directory, serving dist/: on SQLite, or
// on a fresh PostgreSQL schema when E2E_DATABASE_URL is set (CI runs the journeys on the production database).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-e2e-'));
const postgresUrl = process.env.E2E_DATABASE_URL;
const schema = `e2e_${process.pid}_${Date.now().toString(36)}`;

async function onPostgres(sql) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let databaseUrl = '';
if (postgresUrl) {
  await onPostgres(`CREATE SCHEMA "${schema}"`);
  const url = new URL(postgresUrl);
  // Every pooled connection starts in the schema of this run.
  url.searchParams.set('options', `-c search_path=${schema}`);
  databaseUrl = url.toString();
  process.stdout.write(`browser tests on PostgreSQL, schema ${schema}\n`);
}

// Where the tests find this server's data, to run `npm run admin` against it as the bank's staff would.
const stateFile = path.join(tmpdir(), `divilo-e2e-server-${process.env.PORT ?? '8080'}.json`);
writeFileSync(stateFile, JSON.stringify({ dataDir, databaseUrl }));

const server = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
  stdio: 'inherit',
  env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl },
});
const stop = (signal) => server.kill(signal);
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
server.on('exit', async (code) => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(stateFile, { force: true });
  if (postgresUrl) await onPostgres(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
  process.exit(code ?? 0);
});
