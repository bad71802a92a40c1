import { applicationRepository } from '../../server/repositories/applicationRepository';
import { auditLogRepository } from '../../server/repositories/auditLogRepository';
import { loginSessionRepository } from '../../server/repositories/loginSessionRepository';
import { sql } from 'kysely';
import { migrateToLatest, migrationNames } from '../../server/db';
import * as idDocumentHolds from '../../server/db/migrations/0023_id_document_holds';
import { describeEachDialect, openTestDatabase } from './helpers';

describeEachDialect('repositories', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it('migrations can run again without changing anything', async () => {
    await auditLogRepository(database.db).append({ actor: 'system', action: 'kept', subject: 'migration-check' }, new Date());
    await expect(migrateToLatest(database.db)).resolves.toEqual([]);
    await expect(migrateToLatest(database.db)).resolves.toEqual([]);
    const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db);
    expect(applied.rows.map((row) => row.name)).toEqual(migrationNames());
    expect(await auditLogRepository(database.db).listBySubject('migration-check')).toHaveLength(1);
  });

  it('migrates a second database next to a migrated one (another PostgreSQL schema) on its own', async () => {
    const second = await openTestDatabase(dialect);
    try {
      const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(second.db);
      expect(applied.rows.map((row) => row.name)).toEqual(migrationNames());
      await auditLogRepository(second.db).append({ actor: 'system', action: 'elsewhere', subject: 'migration-check' }, new Date());
      expect(await auditLogRepository(database.db).listBySubject('migration-check')).toHaveLength(1);
    } finally {
      await second.destroy();
    }
  });

  it('the ID document holds start with the applications verified before them: the customer first, then the earliest', async () => {
    const fresh = await openTestDatabase(dialect);
    try {
      await idDocumentHolds.down(fresh.db);
      const application = (id: string, idDocument: string, status: string, check: string | undefined, updatedAt: string) => ({
        id, status, email: `${id}@example.com`, id_document: idDocument, person_type: null, completed_steps: '[]', riskfactor: null, language: 'es', version: 1,
        answers: JSON.stringify(check ? { identityCheck: { status: check, provider: 'manual', startedAt: updatedAt, decidedAt: updatedAt } } : {}),
        created_at: updatedAt, updated_at: updatedAt,
      });
      await fresh.db.insertInto('onboarding_applications').values([
        application('early-verified', '00000090A', 'in-progress', 'approved', '2026-01-01T00:00:00.000Z'),
        application('customer', '00000090A', 'approved', 'approved', '2026-02-01T00:00:00.000Z'),
        application('waiting', '00000091B', 'in-progress', 'needs-review', '2026-01-01T00:00:00.000Z'),
        application('first', '00000092C', 'in-progress', 'approved', '2026-01-01T00:00:00.000Z'),
        application('second', '00000092C', 'in-progress', 'approved', '2026-01-02T00:00:00.000Z'),
        application('rejected', '00000093D', 'rejected', 'approved', '2026-01-01T00:00:00.000Z'),
      ]).execute();
      await idDocumentHolds.up(fresh.db);
      const holds = await fresh.db.selectFrom('id_document_holds').select(['id_document', 'application_id']).orderBy('id_document').execute();
      expect(holds).toEqual([
        { id_document: '00000090A', application_id: 'customer' },
        { id_document: '00000092C', application_id: 'first' },
      ]);
    } finally {
      await fresh.destroy();
    }
  });

  it('the audit log keeps entries in the order they were written', async () => {
    const audit = auditLogRepository(database.db);
    await audit.append({ actor: 'applicant:1', action: 'step.saved', subject: 'application:1', requestId: 'r-1', details: { step: 'personal-info' } }, new Date());
    await audit.append({ actor: 'system', action: 'code.sent', subject: 'application:1' }, new Date());
    await audit.append({ actor: 'applicant:2', action: 'step.saved', subject: 'application:2' }, new Date());
    const entries = await audit.listBySubject('application:1');
    expect(entries.map((entry) => entry.action)).toEqual(['step.saved', 'code.sent']);
    expect(entries[0]).toMatchObject({ actor: 'applicant:1', requestId: 'r-1', details: { step: 'personal-info' } });
    expect(entries[1].id).toBeGreaterThan(entries[0].id);
  });

  it('saves an application and the audit entries recording it together, or neither', async () => {
    const applications = applicationRepository(database.db);
    const audit = auditLogRepository(database.db);
    const now = new Date('2026-11-28T10:00:00.000Z');
    const created = await applications.create({ email: `audited-${dialect}@example.com`, idDocument: '00000094K', answers: {}, completedSteps: [], language: 'es' }, now);
    const subject = `application:${created.id}`;
    const entry = { actor: subject, action: 'onboarding.step_saved', subject };

    // Writing the second entry fails after the answers were saved a statement before: they go with it.
    const unwritable = { ...entry, details: { toJSON: () => { throw new Error('this entry cannot be written'); } } };
    const refused = await applications.saveAudited(created, { answers: { firstName: 'Ana' } }, [entry, unwritable], now).then(
      (saved) => ({ saved }),
      (error: unknown) => ({ error: String(error) }),
    );
    expect(refused).toEqual({ error: 'Error: this entry cannot be written' });
    expect(await applications.find(created.id)).toMatchObject({ version: created.version, answers: {} });
    expect(await audit.listBySubject(subject)).toEqual([]);

    const saved = await applications.saveAudited(created, { answers: { firstName: 'Ana' } }, [entry], now);
    expect(saved).toMatchObject({ version: created.version + 1, answers: { firstName: 'Ana' } });
    expect(await applications.find(created.id)).toMatchObject({ version: created.version + 1 });
    expect((await audit.listBySubject(subject)).map((kept) => kept.action)).toEqual(['onboarding.step_saved']);
    // A stale version saves nothing and records nothing.
    expect(await applications.saveAudited(created, { answers: { firstName: 'Eva' } }, [entry], now)).toBeUndefined();
    expect(await audit.listBySubject(subject)).toHaveLength(1);
  });

  describe('login sessions', () => {
    const start = new Date('2026-11-22T10:00:00.000Z');
    const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

    it('are live until left idle longer than the limit', async () => {
      const sessions = loginSessionRepository(database.db);
      await sessions.create({ idHash: 'idle', userSub: 'u1', username: 'name-u1', expiresAt: at(3600) }, start);
      expect(await sessions.findLive('idle', 300, at(299))).toMatchObject({ userSub: 'u1' });
      expect(await sessions.findLive('idle', 300, at(301))).toBeUndefined();
    });

    it('using a session keeps it alive', async () => {
      const sessions = loginSessionRepository(database.db);
      await sessions.create({ idHash: 'used', userSub: 'u1', username: 'name-u1', expiresAt: at(3600) }, start);
      await sessions.touch('used', at(200));
      expect(await sessions.findLive('used', 300, at(450))).toBeDefined();
    });

    it('end at their absolute expiry, and when revoked', async () => {
      const sessions = loginSessionRepository(database.db);
      await sessions.create({ idHash: 'short', userSub: 'u2', username: 'name-u2', expiresAt: at(60) }, start);
      expect(await sessions.findLive('short', 300, at(61))).toBeUndefined();
      await sessions.create({ idHash: 'revoked', userSub: 'u2', username: 'name-u2', expiresAt: at(3600) }, start);
      expect(await sessions.findLive('revoked', 300, at(5))).toBeDefined();
      await sessions.revoke('revoked', at(10));
      expect(await sessions.findLive('revoked', 300, at(11))).toBeUndefined();
      // Activity on a revoked session does not bring it back.
      await sessions.touch('revoked', at(12));
      expect(await sessions.findLive('revoked', 300, at(13))).toBeUndefined();
    });

    it('can all be revoked for one user', async () => {
      const sessions = loginSessionRepository(database.db);
      await sessions.create({ idHash: 'a', userSub: 'u3', username: 'name-u3', expiresAt: at(3600) }, start);
      await sessions.create({ idHash: 'b', userSub: 'u3', username: 'name-u3', expiresAt: at(3600) }, start);
      await sessions.create({ idHash: 'c', userSub: 'u4', username: 'name-u4', expiresAt: at(3600) }, start);
      expect(await sessions.revokeAllForUser('u3', at(5))).toBe(2);
      expect(await sessions.findLive('a', 300, at(6))).toBeUndefined();
      expect(await sessions.findLive('c', 300, at(6))).toBeDefined();
    });
  });
});
