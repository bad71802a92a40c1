import { hashToken, oneTimeCodes } from '../../server/services/oneTimeCodes';
import { describeEachDialect, openTestDatabase } from './helpers';

const settings = { hmacKey: Buffer.alloc(32, 1), ttlSeconds: 300, resendSeconds: 30, maxAttempts: 5, lockSeconds: 900, maxSends: 3 };
const start = new Date('2026-11-22T10:00:00.000Z');
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describeEachDialect('one-time codes', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it('a code expires after its time to live, even when right', async () => {
    const codes = oneTimeCodes(database.db, settings);
    const { token, code } = await codes.issue({ purpose: 'login', subject: 'expiring', recipient: '+34600' }, start);
    expect(await codes.check(hashToken(token), code, at(301))).toEqual({ outcome: 'expired' });
  });

  it('a right code within its time works once', async () => {
    const codes = oneTimeCodes(database.db, settings);
    const { token, code } = await codes.issue({ purpose: 'login', subject: 'once', recipient: '+34600' }, start);
    expect(await codes.check(hashToken(token), code, at(299))).toMatchObject({ outcome: 'valid', subject: 'once' });
    expect(await codes.check(hashToken(token), code, at(299))).toEqual({ outcome: 'expired' });
  });

  it('the code is stored only as an HMAC', async () => {
    const codes = oneTimeCodes(database.db, settings);
    const { token, code } = await codes.issue({ purpose: 'recovery', subject: 'stored', recipient: '+34600' }, start);
    const row = await database.db.selectFrom('one_time_codes').selectAll().where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('a new challenge replaces the open one, and sends are limited', async () => {
    const codes = oneTimeCodes(database.db, settings);
    const first = await codes.issue({ purpose: 'login', subject: 'again', recipient: '+34600' }, start);
    const second = await codes.issue({ purpose: 'login', subject: 'again', recipient: '+34600' }, at(1));
    expect(await codes.check(hashToken(first.token), first.code, at(2))).toEqual({ outcome: 'expired' });
    expect(await codes.resend(hashToken(second.token), at(31))).toMatchObject({ outcome: 'sent' });
    expect(await codes.resend(hashToken(second.token), at(62))).toMatchObject({ outcome: 'sent' });
    expect(await codes.resend(hashToken(second.token), at(93))).toEqual({ outcome: 'blocked' });
  });

  it('a block lasts its time, then the person may try again', async () => {
    const codes = oneTimeCodes(database.db, settings);
    const { token, code } = await codes.issue({ purpose: 'login', subject: 'blocked', recipient: '+34600' }, start);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) expect((await codes.check(hashToken(token), wrong, at(i))).outcome).toBe('wrong');
    expect(await codes.check(hashToken(token), wrong, at(5))).toEqual({ outcome: 'blocked' });
    expect(await codes.isBlocked('login', 'blocked', at(904))).toBe(true);
    expect(await codes.isBlocked('login', 'blocked', at(906))).toBe(false);
  });
});
