// The migration that records when each embedded pool user's password was set (a temporary one expires), on both
// databases: it runs again over users written before it (the test database is migrated already: it is undone first).
import type { Kysely } from 'kysely';
import { down, up } from '../../../server/db/migrations/0033_temporary_passwords';
import { describeEachDialect, openTestDatabase, type TestDatabase } from '../helpers';

describeEachDialect('migration 0033: when a password was set', (dialect) => {
  let database: TestDatabase;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the pool's tables are not in the shared Database type
  let db: Kysely<any>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.destroy());

  const user = (sub: string, verifier: string | null, updatedAt: string) => ({
    pool: 'local_Staff1',
    sub,
    username: `${sub}@divilo.test`,
    attributes: '{}',
    salt: verifier && 'ab'.repeat(16),
    verifier,
    status: 'FORCE_CHANGE_PASSWORD',
    enabled: 1,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: updatedAt,
  });

  it("takes a user's last change as the time a password they had was set; one without a password has none", async () => {
    await down(db);
    await db
      .insertInto('cognito_users')
      .values([user('00000000-0000-4000-8000-000000000001', 'cd'.repeat(384), '2026-11-20T10:00:00.000Z'), user('00000000-0000-4000-8000-000000000002', null, '2026-11-21T10:00:00.000Z')])
      .execute();
    await up(db);
    const rows = await db.selectFrom('cognito_users').select(['sub', 'password_set_at']).where('pool', '=', 'local_Staff1').orderBy('sub').execute();
    expect(rows).toEqual([
      { sub: '00000000-0000-4000-8000-000000000001', password_set_at: '2026-11-20T10:00:00.000Z' },
      { sub: '00000000-0000-4000-8000-000000000002', password_set_at: null },
    ]);
  });
});
