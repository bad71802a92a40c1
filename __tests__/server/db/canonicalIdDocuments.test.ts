// The migration that rewrites stored ID document numbers to their canonical form, on both databases: it runs
// again over rows written the old way (the test database is migrated already, and the migration is idempotent).
import type { Kysely } from 'kysely';
import type { Database } from '../../../server/db';
import { up } from '../../../server/db/migrations/0025_canonical_id_documents';
import { describeEachDialect, openTestDatabase, type TestDatabase } from '../helpers';

const NOW = '2026-11-20T10:00:00.000Z';

describeEachDialect('migration 0025: canonical ID document numbers', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<Database>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.destroy());

  const application = (id: string, idDocument: string, answers: object) => ({
    id,
    status: 'in-progress',
    email: `${id}@example.com`,
    id_document: idDocument,
    person_type: null,
    answers: JSON.stringify(answers),
    completed_steps: '[]',
    riskfactor: null,
    language: 'es',
    version: 1,
    created_at: NOW,
    updated_at: NOW,
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the embedded pool's table is typed next to the pool
  const users = () => (db as Kysely<any>).selectFrom('cognito_users').select(['sub', 'username']).orderBy('sub').execute();
  const user = (sub: string, username: string) => ({ sub, username, attributes: '{}', salt: null, verifier: null, status: 'CONFIRMED', enabled: 1, created_at: NOW, updated_at: NOW });

  it('rewrites applications, sign-ups, the audit trail, sessions and the embedded users; leaves the rest', async () => {
    await db
      .insertInto('onboarding_applications')
      .values([
        application('a1', 'X02600637G', { id: 'X02600637G', idType: 'nif', selfEmployedId: 'X02600637G', firstName: 'X0 stays' }),
        application('a2', '12345678Z', { id: '12345678Z', idType: 'nif', owners: [{ identificationDocument: 'X01082303S', firstName: 'Lara' }, { identificationDocument: '00000000T' }] }),
        application('a3', 'X12345678Z', { id: 'X12345678Z', idType: 'nif' }),
        application('a4', 'X01082303S', { id: 'X01082303S', idType: 'passport' }),
        application('a5', 'X01082303A', { id: 'X01082303A', idType: 'nif' }),
      ])
      .execute();
    await db.insertInto('onboarding_registrations').values([
      { id: 'r1', email: 'r1@example.com', id_type: 'nif', id_document: 'X01082303S', answers: '{}', language: 'es', created_at: NOW, expires_at: NOW },
      { id: 'r2', email: 'r2@example.com', id_type: 'passport', id_document: 'X01082303S', answers: '{}', language: 'es', created_at: NOW, expires_at: NOW },
    ]).execute();
    await db.insertInto('audit_log').values([
      { occurred_at: NOW, actor: 'user:X02600637G', action: 'login.code_sent', subject: 'user:X02600637G', request_id: null, details: null },
      { occurred_at: NOW, actor: 'reviewer:X0', action: 'onboarding.review_approved', subject: 'application:a1', request_id: null, details: null },
    ] as never).execute();
    await db.insertInto('login_sessions').values({ id_hash: 'h1', user_sub: 's1', username: 'X02600637G', created_at: NOW, last_seen_at: NOW, expires_at: NOW, revoked_at: null }).execute();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see users()
    await (db as Kysely<any>).insertInto('cognito_users').values([user('s1', 'X02600637G'), user('s2', 'X01082303S'), user('s3', 'X1082303S')]).execute();

    await up(db);

    const stored = Object.fromEntries(
      (await db.selectFrom('onboarding_applications').select(['id', 'id_document', 'answers']).execute()).map((row) => [row.id, { idDocument: row.id_document, answers: JSON.parse(row.answers) as Record<string, unknown> }]),
    );
    expect(stored.a1).toEqual({ idDocument: 'X2600637G', answers: { id: 'X2600637G', idType: 'nif', selfEmployedId: 'X2600637G', firstName: 'X0 stays' } });
    expect(stored.a2.answers.owners).toEqual([{ identificationDocument: 'X1082303S', firstName: 'Lara' }, { identificationDocument: '00000000T' }]);
    // An old 8-digit X NIE is no padding; an invalid number and a passport stay as they are.
    expect(stored.a3.idDocument).toBe('X12345678Z');
    expect(stored.a4).toEqual({ idDocument: 'X01082303S', answers: { id: 'X01082303S', idType: 'passport' } });
    expect(stored.a5.idDocument).toBe('X01082303A');

    const registrations = await db.selectFrom('onboarding_registrations').select(['id', 'id_document']).orderBy('id').execute();
    expect(registrations).toEqual([{ id: 'r1', id_document: 'X1082303S' }, { id: 'r2', id_document: 'X01082303S' }]);
    const audit = await db.selectFrom('audit_log').select(['actor', 'subject']).orderBy('id').execute();
    expect(audit).toEqual([{ actor: 'user:X2600637G', subject: 'user:X2600637G' }, { actor: 'reviewer:X0', subject: 'application:a1' }]);
    expect((await db.selectFrom('login_sessions').select('username').where('id_hash', '=', 'h1').executeTakeFirstOrThrow()).username).toBe('X2600637G');
    // s2's canonical name belongs to s3 already: both stay, for support to settle.
    expect(await users()).toEqual([
      { sub: 's1', username: 'X2600637G' },
      { sub: 's2', username: 'X01082303S' },
      { sub: 's3', username: 'X1082303S' },
    ]);
  });
});
