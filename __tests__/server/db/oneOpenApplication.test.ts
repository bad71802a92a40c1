// The migration that keeps one open application per applicant (ID document and e-mail), on both databases: it runs
// again over twins written before it (the test database is migrated already: its index is dropped first).
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/db';
import { down, up } from '../../../server/db/migrations/0032_one_open_application';
import { applicationRepository } from '../../../server/repositories/applicationRepository';
import { describeEachDialect, openTestDatabase, type TestDatabase } from '../helpers';

const at = (minute: number) => `2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`;

describeEachDialect('migration 0032: one open application per applicant', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.destroy());

  const application = (id: string, applicant: string, status: string, minute: number) => ({
    id,
    status,
    email: `${applicant}@example.com`,
    id_document: applicant === 'other-id' ? '00000001R' : '00000000T',
    person_type: null,
    answers: '{}',
    completed_steps: '[]',
    riskfactor: null,
    language: 'es',
    version: 3,
    created_at: at(minute),
    updated_at: at(minute),
  });
  const statuses = async () => Object.fromEntries((await db.selectFrom('onboarding_applications').select(['id', 'status', 'version']).execute()).map((row) => [row.id, `${row.status} v${row.version}`]));

  it('keeps the application a sign-up resumes and expires its twins; then the database refuses a second open one', async () => {
    await down(db);
    await db
      .insertInto('onboarding_applications')
      .values([
        // Three twins in progress: the newest stays.
        application('p1', 'pat', 'in-progress', 1),
        application('p2', 'pat', 'in-progress', 3),
        application('p3', 'pat', 'in-progress', 2),
        // A refused one and a newer one in progress: the refused one stays, as a sign-up comes back to its page.
        application('r1', 'rui', 'not-allowed', 1),
        application('r2', 'rui', 'in-progress', 2),
        // Closed ones are not open: they stay as they are, beside an open one.
        application('s1', 'sol', 'pending-review', 1),
        application('s2', 'sol', 'rejected', 2),
        application('s3', 'sol', 'in-progress', 3),
        // The same e-mail with another ID document is another applicant.
        application('t1', 'other-id', 'in-progress', 1),
      ])
      .execute();

    await up(db);

    expect(await statuses()).toEqual({
      p1: 'expired v4',
      p2: 'in-progress v3',
      p3: 'expired v4',
      r1: 'not-allowed v3',
      r2: 'expired v4',
      s1: 'pending-review v3',
      s2: 'rejected v3',
      s3: 'in-progress v3',
      t1: 'in-progress v3',
    });
    const applications = applicationRepository(db);
    const input = { email: 'pat@example.com', idDocument: '00000000T', answers: {}, completedSteps: [], language: 'es' as const };
    expect(await applications.createUnlessOpen(input, new Date(at(5)))).toBeUndefined();
    const refusal = await db.insertInto('onboarding_applications').values(application('p4', 'pat', 'in-progress', 5)).execute().then(() => 'inserted', (error: unknown) => String(error));
    expect(refusal).toMatch(/unique/i);
    // Once it is no longer open (sent for review), the applicant may open another.
    await db.updateTable('onboarding_applications').set({ status: 'pending-review' }).where('id', '=', 'p2').execute();
    expect(await applications.createUnlessOpen(input, new Date(at(6)))).toMatchObject({ email: 'pat@example.com', status: 'in-progress' });
  });
});
