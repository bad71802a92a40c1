// `npm run bench:wizard`: the time the server takes to save each wizard step, 50 applicants at once, on SQLite
// and (when DATABASE_URL is set) on a fresh PostgreSQL schema. Prints the median and p99 per step; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';
import { createDatabase, migrateToLatest, type DatabaseHandle } from '../server/db';

const APPLICANTS = Number(process.env.BENCH_APPLICANTS ?? 50);
const STEPS: [string, Record<string, unknown>][] = [
  ['personal-info', { firstName: 'Lucía', firstSurname: 'Pérez', secondSurname: '', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' }],
  ['person-type', { personType: 'freelance' }],
  ['legalperson/freelance', { selfEmployedId: '00000000T', selfEmployedActivity: '1.673.2', selfEmployedDate: '01/02/2024', selfEmployedAtaCode: '', promotionalCode: '' }],
  ['legalperson/freelance/postal-address', { selfEmployedFiscalAddress: 'Calle Mayor 1', selfEmployedFiscalAdditionalAddress: '', selfEmployedFiscalPostalCode: '28013', selfEmployedFiscalCity: 'Madrid', selfEmployedFiscalCountry: 'ES' }],
];

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

async function run(label: string, database: DatabaseHandle, dataDir: string) {
  const app = await buildApp(loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', RATE_LIMIT_MAX: '1000000', RATE_LIMIT_SENSITIVE_MAX: '1000000' }), { database });
  await app.ready();
  const tokens: string[] = [];
  for (let i = 0; i < APPLICANTS; i += 1) {
    const created = await app.applications.create(
      { email: `bench${i}@example.com`, idDocument: `B${i}`, answers: {}, completedSteps: ['signUp', 'reg-code'], language: 'es' },
      new Date(),
    );
    tokens.push(await app.onboardingTokens.issue(created.id));
  }
  console.log(`\n${label}: ${APPLICANTS} applicants saving each step at once`);
  for (const [step, body] of STEPS) {
    const times = await Promise.all(
      tokens.map(async (token) => {
        const started = process.hrtime.bigint();
        const response = await app.inject({ method: 'POST', url: `/api/onboarding-management-private/${step}`, headers: { authorization: `Bearer ${token}` }, payload: body });
        if (response.statusCode !== 200) throw new Error(`${step}: ${response.statusCode} ${response.body}`);
        return Number(process.hrtime.bigint() - started) / 1e6;
      }),
    );
    console.log(`  ${step.padEnd(40)} median ${percentile(times, 50).toFixed(1)} ms   p99 ${percentile(times, 99).toFixed(1)} ms`);
    // The phone steps are not part of this run: marked done so that the path goes on.
    if (step === 'personal-info') {
      await app.db.updateTable('onboarding_applications').set({ completed_steps: JSON.stringify(['signUp', 'reg-code', 'personal-info', 'contact-phone', 'confirm-telephone']) }).execute();
    }
  }
  await app.close();
}

async function main() {
  const sqliteDir = mkdtempSync(path.join(tmpdir(), 'divilo-bench-'));
  const sqlite = createDatabase({ dataDir: sqliteDir });
  await migrateToLatest(sqlite.db);
  await run('SQLite', sqlite, sqliteDir);
  await sqlite.destroy();
  rmSync(sqliteDir, { recursive: true, force: true });

  const url = process.env.DATABASE_URL;
  if (!url) {
    console.log('\nPostgreSQL: skipped (DATABASE_URL is not set)');
    return;
  }
  const schema = `bench_${process.pid}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${schema}"`);
  const pgDir = mkdtempSync(path.join(tmpdir(), 'divilo-bench-'));
  const postgres = createDatabase({ dataDir: pgDir, databaseUrl: url, postgresSchema: schema });
  try {
    await migrateToLatest(postgres.db);
    await run('PostgreSQL', postgres, pgDir);
  } finally {
    await postgres.destroy();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
    rmSync(pgDir, { recursive: true, force: true });
  }
}

void main();
