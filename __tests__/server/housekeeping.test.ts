import { expireOldRows } from '../../server/services/housekeeping';
import { toDbTime } from '../../server/db/values';
import { describeEachDialect, openTestDatabase, type TestDatabase } from './helpers';

const now = new Date('2026-11-24T12:00:00.000Z');
const ago = (hours: number) => toDbTime(new Date(now.getTime() - hours * 3600_000));
const ahead = (minutes: number) => toDbTime(new Date(now.getTime() + minutes * 60_000));

describeEachDialect('housekeeping', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it('removes expired codes, ended blocks and counts, spent budget windows, dead sessions and old outbox messages, and keeps the rest', async () => {
    const { db } = database;
    const code = (id: string, expiresAt: string) => ({
      id, purpose: 'login', subject: id, session_id: null, recipient: '+34600', code_hash: 'h', attempts: 0, sends: 1,
      created_at: ago(30), expires_at: expiresAt, resend_available_at: ago(30), consumed_at: null,
    });
    await db.insertInto('one_time_codes').values([code('old-code', ago(25)), code('recent-code', ago(1)), code('live-code', ahead(4))]).execute();
    await db.insertInto('code_blocks').values([{ purpose: 'login', subject: 'ended', blocked_until: ago(1) }, { purpose: 'login', subject: 'blocked', blocked_until: ahead(10) }]).execute();
    await db.insertInto('code_failures').values([{ purpose: 'login', subject: 'ended', failures: 3, window_ends_at: ago(1) }, { purpose: 'login', subject: 'counting', failures: 2, window_ends_at: ahead(10) }]).execute();
    await db.insertInto('message_budgets').values([{ bucket: 'sms:total', sent: 40, window_ends_at: ago(1) }, { bucket: 'email:total', sent: 3, window_ends_at: ahead(30) }]).execute();
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

    expect(await expireOldRows(db, now)).toEqual({ one_time_codes: 1, code_blocks: 1, code_failures: 1, message_budgets: 1, login_sessions: 3, outbox: 1 });
    expect((await db.selectFrom('one_time_codes').select('id').orderBy('id').execute()).map((row) => row.id)).toEqual(['live-code', 'recent-code']);
    expect((await db.selectFrom('code_blocks').select('subject').execute()).map((row) => row.subject)).toEqual(['blocked']);
    expect((await db.selectFrom('code_failures').select('subject').execute()).map((row) => row.subject)).toEqual(['counting']);
    expect((await db.selectFrom('message_budgets').select('bucket').execute()).map((row) => row.bucket)).toEqual(['email:total']);
    expect((await db.selectFrom('login_sessions').select('id_hash').execute()).map((row) => row.id_hash)).toEqual(['live']);
    expect((await db.selectFrom('outbox').select('text').execute()).map((row) => row.text)).toEqual(['recent']);
  });
});
