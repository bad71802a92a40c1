import { ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { expireInactiveApplications, expireOldRows, removeUnreportedUploads } from '../../server/services/housekeeping';
import { toDbTime } from '../../server/db/values';
import { BUCKET, REGION, startStorage, testBytes, type StorageHarness } from './embedded/s3/harness';
import { describeEachDialect, openTestDatabase, type TestDatabase } from './helpers';
import { startLoginServerOn } from './login/loginServer';
import { consentAndSign, readyToSign, signUpAndConfirm } from './onboarding/signing';

const now = new Date('2026-11-24T12:00:00.000Z');
const ago = (hours: number) => toDbTime(new Date(now.getTime() - hours * 3600_000));
const ahead = (minutes: number) => toDbTime(new Date(now.getTime() + minutes * 60_000));

describeEachDialect('housekeeping', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it('removes expired codes, ended blocks, cooldowns and counts, spent budget windows, dead sessions, old outbox messages, sign-ups never confirmed and webhook deliveries past their time, and keeps the rest', async () => {
    const { db } = database;
    const code = (id: string, expiresAt: string) => ({
      id, purpose: 'login', subject: id, session_id: null, recipient: '+34600', code_hash: 'h', attempts: 0, sends: 1,
      created_at: ago(30), expires_at: expiresAt, resend_available_at: ago(30), consumed_at: null,
    });
    await db.insertInto('one_time_codes').values([code('old-code', ago(25)), code('recent-code', ago(1)), code('live-code', ahead(4))]).execute();
    await db.insertInto('code_blocks').values([{ purpose: 'login', subject: 'ended', blocked_until: ago(1) }, { purpose: 'login', subject: 'blocked', blocked_until: ahead(10) }]).execute();
    await db.insertInto('code_failures').values([{ purpose: 'login', subject: 'ended', failures: 3, window_ends_at: ago(1) }, { purpose: 'login', subject: 'counting', failures: 2, window_ends_at: ahead(10) }]).execute();
    await db.insertInto('code_cooldowns').values([{ purpose: 'phone', subject: 'ended', ends_at: ago(1) }, { purpose: 'phone', subject: 'waiting', ends_at: ahead(1) }]).execute();
    await db.insertInto('message_budgets').values([{ bucket: 'sms:total', sent: 40, window_ends_at: ago(1) }, { bucket: 'email:total', sent: 3, window_ends_at: ahead(30) }]).execute();
    await db.insertInto('proven_email_addresses').values([{ address: 'proven-over-a-year-ago', proven_at: ago(366 * 24) }, { address: 'proven-this-year', proven_at: ago(364 * 24) }]).execute();
    const session = (id: string, lastSeen: string, expires: string, revoked: string | null) => ({ id_hash: id, user_sub: 's', username: 'u', created_at: ago(48), last_seen_at: lastSeen, expires_at: expires, revoked_at: revoked });
    await db.insertInto('login_sessions').values([
      session('expired-long-ago', ago(30), ago(26), null),
      session('idle-long-ago', ago(30), ahead(600), null),
      session('revoked-long-ago', ago(2), ahead(600), ago(25)),
      session('live', ago(0), ahead(600), null),
    ]).execute();
    await db.insertInto('outbox').values([
      { channel: 'sms', recipient: '+34600', purpose: 'login-code', text: 'old', created_at: ago(25) },
      { channel: 'sms', recipient: '+34600', purpose: 'login-code', text: 'recent', created_at: ago(2) },
    ]).execute();

    const registration = (id: string, expiresAt: string) => ({
      id, email: `${id}@example.com`, id_type: 'dni', id_document: '12345678Z', answers: '{}', language: 'es', created_at: ago(30), expires_at: expiresAt,
    });
    await db.insertInto('onboarding_registrations').values([registration('unconfirmed-long-ago', ago(25)), registration('unconfirmed-lately', ago(1)), registration('waiting', ahead(20))]).execute();

    await db.insertInto('identity_webhook_deliveries').values([{ signature_hash: 'a'.repeat(64), expires_at: ago(1) }, { signature_hash: 'b'.repeat(64), expires_at: ahead(5) }]).execute();

    expect(await expireOldRows(db, now)).toEqual({
      one_time_codes: 1, code_blocks: 1, code_failures: 1, code_cooldowns: 1, message_budgets: 1, proven_email_addresses: 1, login_sessions: 3, outbox: 1, onboarding_registrations: 1, identity_webhook_deliveries: 1,
    });
    expect((await db.selectFrom('identity_webhook_deliveries').select('signature_hash').execute()).map((row) => row.signature_hash)).toEqual(['b'.repeat(64)]);
    expect((await db.selectFrom('one_time_codes').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(['live-code', 'recent-code']);
    expect((await db.selectFrom('code_blocks').select('subject').execute()).map((row) => row.subject)).toEqual(['blocked']);
    expect((await db.selectFrom('code_failures').select('subject').execute()).map((row) => row.subject)).toEqual(['counting']);
    expect((await db.selectFrom('code_cooldowns').select('subject').execute()).map((row) => row.subject)).toEqual(['waiting']);
    expect((await db.selectFrom('message_budgets').select('bucket').execute()).map((row) => row.bucket)).toEqual(['email:total']);
    expect((await db.selectFrom('proven_email_addresses').select('address').execute()).map((row) => row.address)).toEqual(['proven-this-year']);
    expect((await db.selectFrom('login_sessions').select('id_hash').execute()).map((row) => row.id_hash)).toEqual(['live']);
    expect((await db.selectFrom('outbox').select('text').execute()).map((row) => row.text)).toEqual(['recent']);
    expect((await db.selectFrom('onboarding_registrations').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(['unconfirmed-lately', 'waiting']);
  });
});

describeEachDialect('the sweep of unreported uploads', (dialect) => {
  let storage: StorageHarness;
  beforeAll(async () => {
    // The client signs with the real time, the endpoint's clock is moved to when each file is stored.
    storage = await startStorage(dialect, { maxClockSkewSeconds: 30 * 86_400 });
  });
  afterAll(() => storage.close());

  it('removes files of applicants\' areas left unreported for a day, logging key and size, and keeps reported documents, recent files and the server\'s areas', async () => {
    const client = storage.client();
    const area = `private/${REGION}:5d0c6a52-3c3e-4d55-9a8e-0c2a4f1b7e01/`;
    const put = async (key: string, size: number, hoursAgo: number) => {
      // Stored at that time: the endpoint's clock stopped there.
      storage.clock.fixedMs = now.getTime() - hoursAgo * 3600_000;
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: testBytes(size) }));
    };
    await put(`${area}model036/abandoned.pdf`, 3000, 25);
    await put(`${area}junk/stored-for-later.bin`, 5000, 24);
    await put(`${area}model036/reported.pdf`, 2000, 30);
    await put(`${area}selfie/recent.jpg`, 1000, 23);
    await put('evidence/application-1/selfie.jpg', 1000, 48);
    await put('public/terms.pdf', 1000, 48);
    storage.clock.fixedMs = now.getTime();
    await storage.db
      .insertInto('onboarding_documents')
      .values({ application_id: 'application-1', kind: 'model036', object_key: `${area}model036/reported.pdf`, size: 2000, etag: '"e"', checked_at: ago(29) })
      .execute();

    const logged: unknown[] = [];
    const log = { info: (details: unknown, message: string) => logged.push({ details, message }), warn: (details: unknown) => logged.push({ warn: details }) };
    expect(await removeUnreportedUploads({ storage: { client, bucket: BUCKET }, db: storage.db, now, log })).toEqual({ removed: 2, bytes: 8000 });
    expect(logged).toEqual([
      { details: { key: `${area}junk/stored-for-later.bin`, size: 5000 }, message: 'unreported upload removed' },
      { details: { key: `${area}model036/abandoned.pdf`, size: 3000 }, message: 'unreported upload removed' },
    ]);
    const left = await client.send(new ListObjectsV2Command({ Bucket: BUCKET }));
    expect((left.Contents ?? []).map((object) => object.Key)).toEqual(['evidence/application-1/selfie.jpg', `${area}model036/reported.pdf`, `${area}selfie/recent.jpg`, 'public/terms.pdf']);
    // Nothing more to do a moment later.
    expect(await removeUnreportedUploads({ storage: { client, bucket: BUCKET }, db: storage.db, now, log })).toEqual({ removed: 0, bytes: 0 });
  });
});

describeEachDialect('housekeeping: applications left for a month', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  const days = (count: number) => count * 86_400_000;
  const removedAreas: string[] = [];
  /** The expiry's dependencies; `removeArea` in place of the storage's own (one that fails, say). */
  const expiry = (removeArea?: (prefix: string) => Promise<string[]>) => ({
    db: server.app.db,
    identity: server.app.identity,
    auditLog: server.app.auditLog,
    storage: {
      identityOf: (id: string) => server.app.documents.identityOf(id),
      forgetIdentity: (identityId: string) => server.app.documents.forgetIdentity(identityId),
      removeArea:
        removeArea ??
        (async (prefix: string) => {
          removedAreas.push(prefix);
          return server.app.documents.removeArea(prefix);
        }),
    },
  });
  const actions = async (id: string) => (await server.app.auditLog.listBySubject(`application:${id}`)).map((entry) => entry.action);
  /** The audit trail of the application erased last, under the name that replaced its own. */
  const lastErasedTrail = async () => {
    const erased = await server.app.db.selectFrom('audit_log').select('subject').where('action', '=', 'onboarding.application_erased').orderBy('id', 'desc').executeTakeFirst();
    return erased ? (await server.app.auditLog.listBySubject(erased.subject)).map((entry) => entry.action) : [];
  };
  const addDocument = (applicationId: string, at: Date) =>
    server.app.db.insertInto('onboarding_documents').values({ application_id: applicationId, kind: 'model036', object_key: `private/eu-west-1:test/${applicationId}/model036.pdf`, size: 10, etag: '"e"', checked_at: toDbTime(at) }).execute();

  it('expires an application untouched for 30 days: its answers, documents and sign-in user go, its audit entries stay, and its ID can sign up again', async () => {
    const start = new Date();
    // Verified, so it holds its ID document and has its sign-in user, but never signed.
    const stale = await readyToSign(server, '00000080B');
    await addDocument(stale.id, start);
    expect(await server.app.identity.getUser('00000080B')).toBeDefined();
    const recent = await readyToSign(server, '00000081N', { identityCheck: false });
    const touched = (await server.app.applications.find(recent.id))!;
    await server.app.applications.save(touched, { answers: { ...touched.answers, website: 'https://example.com' } }, new Date(start.getTime() + days(2)));
    const sent = await readyToSign(server, '00000082J');
    expect((await consentAndSign(server, sent.token)).status).toBe(200);

    expect(await expireInactiveApplications(expiry(), new Date(start.getTime() + days(29)))).toBe(0);
    expect(await expireInactiveApplications(expiry(), new Date(start.getTime() + days(31)))).toBe(1);

    expect(await server.app.applications.find(stale.id)).toBeUndefined();
    expect(await server.app.db.selectFrom('onboarding_documents').select('kind').where('application_id', '=', stale.id).execute()).toEqual([]);
    // Never given a storage identity: its evidence area only (the erasure suite removes real files: erasure.test.ts).
    expect(removedAreas).toEqual([`evidence/${stale.id}/`]);
    expect(await server.app.identity.getUser('00000080B')).toBeUndefined();
    expect(await server.app.db.selectFrom('id_document_holds').selectAll().where('application_id', '=', stale.id).execute()).toEqual([]);
    // Its trail stays, under another name.
    expect(await actions(stale.id)).toEqual([]);
    expect(await lastErasedTrail()).toEqual(expect.arrayContaining(['onboarding.password_set', 'onboarding.application_expired', 'onboarding.sign_in_user_removed', 'onboarding.application_erased']));
    // Changed two days later, and sent to the bank: both stay, with their sealed password or their user.
    expect((await server.app.applications.find(recent.id))!.status).toBe('in-progress');
    expect((await server.app.applications.find(sent.id))!.status).toBe('pending-review');
    expect(await server.app.db.selectFrom('pending_passwords').select('application_id').where('application_id', '=', recent.id).execute()).toHaveLength(1);
    expect(await server.app.identity.getUser('00000082J')).toBeDefined();

    const again = await signUpAndConfirm(server, `again-${dialect}@example.com`, '00000080B');
    expect(again.body).toMatchObject({ next: 'personal-info', application: { status: 'in-progress' } });
  });

  it('a removal that fails half-way is finished by the next run', async () => {
    const start = new Date();
    const stale = await readyToSign(server, '00000083Z', { identityCheck: false });
    await addDocument(stale.id, start);
    expect(await server.app.db.selectFrom('pending_passwords').select('application_id').where('application_id', '=', stale.id).execute()).toHaveLength(1);
    const later = new Date(start.getTime() + days(31));
    // Storage away when this application's files are being removed (another's, expiring in the same run, go).
    const failing = async (prefix: string) => (prefix.includes(stale.id) ? Promise.reject(new Error('storage unreachable')) : server.app.documents.removeArea(prefix));
    await expect(expireInactiveApplications(expiry(failing), later)).rejects.toThrow('storage unreachable');
    expect((await server.app.applications.find(stale.id))!.status).toBe('expired');
    expect(await expireInactiveApplications(expiry(), later)).toBe(1);
    expect(await server.app.applications.find(stale.id)).toBeUndefined();
    // Its password, sealed while its identity waited, went with it.
    expect(await server.app.db.selectFrom('pending_passwords').selectAll().where('application_id', '=', stale.id).execute()).toEqual([]);
    expect((await lastErasedTrail()).filter((action) => action === 'onboarding.application_expired')).toHaveLength(1);
  });

  it('two runs and the applicant saving at once: the application is either saved and kept or expired once, never both', async () => {
    for (const [index, idDocument] of ['00000084S', '00000085Q', '00000086V'].entries()) {
      const start = new Date();
      const created = await server.app.applications.create({ email: `race-${index}-${dialect}@example.com`, idDocument, answers: { id: idDocument }, completedSteps: ['signUp', 'reg-code'], language: 'es' }, start);
      const later = new Date(start.getTime() + days(31));
      const [first, second, saved] = await Promise.all([
        expireInactiveApplications(expiry(), later),
        expireInactiveApplications(expiry(), later),
        server.app.applications.save(created, { answers: { id: idDocument, firstName: 'Ana' } }, later),
      ]);
      const kept = await server.app.applications.find(created.id);
      const expired = (kept ? await actions(created.id) : await lastErasedTrail()).filter((action) => action === 'onboarding.application_expired');
      if (saved) {
        expect(kept).toMatchObject({ status: 'in-progress', answers: { firstName: 'Ana' } });
        expect(expired).toEqual([]);
      } else {
        expect(kept).toBeUndefined();
        expect(expired).toHaveLength(1);
      }
      expect(first + second).toBeLessThanOrEqual(saved ? 0 : 2);
    }
  });
});
