import { sql } from 'kysely';
import { oneTimeCodeRepository } from '../../server/repositories/oneTimeCodeRepository';
import { hashToken, oneTimeCodes } from '../../server/services/oneTimeCodes';
import { describeEachDialect, openTestDatabase } from './helpers';

const start = new Date('2026-11-22T10:00:00.000Z');
const settings = { hmacKey: Buffer.alloc(32, 1), ttlSeconds: 300, resendSeconds: 30, maxAttempts: 5, lockSeconds: 900, clientMaxAttempts: 20, personMaxAttempts: 20, maxSends: 3, clock: () => start };
const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

describeEachDialect('one-time codes', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it("finds a person's open code through the index of open codes, not by reading every code they were sent", async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    for (let i = 0; i < 20; i += 1) await codes.issue({ purpose: 'login', subject: 'often', recipient: '+34600' }, at(i));
    const lookup = sql`SELECT id FROM one_time_codes WHERE purpose = ${'login'} AND subject = ${'often'} AND consumed_at IS NULL`;
    const plan = await database.db.transaction().execute(async (trx) => {
      if (dialect === 'sqlite') return (await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${lookup}`.execute(trx)).rows.map((row) => row.detail);
      // A table this small would be read whole; the question is whether the index can serve the lookup.
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      return (await sql<{ 'QUERY PLAN': string }>`EXPLAIN ${lookup}`.execute(trx)).rows.map((row) => row['QUERY PLAN']);
    });
    expect(plan.join('\n')).toContain('one_time_codes_open');
    // One of the twenty is open: the newest.
    expect(await codes.findLatest('login', 'often')).toMatchObject({ created_at: expect.stringContaining('10:00:19') });
  });

  it('a code expires after its time to live, even when right', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const { token, code } = await codes.issue({ purpose: 'login', subject: 'expiring', recipient: '+34600' }, start);
    expect(await codes.check(hashToken(token), code, at(301))).toEqual({ outcome: 'expired' });
  });

  it('a right code within its time works once', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const { token, code } = await codes.issue({ purpose: 'login', subject: 'once', recipient: '+34600' }, start);
    expect(await codes.check(hashToken(token), code, at(299))).toMatchObject({ outcome: 'valid', subject: 'once' });
    expect(await codes.check(hashToken(token), code, at(299))).toEqual({ outcome: 'expired' });
  });

  it('the code is stored only as an HMAC', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const { token, code } = await codes.issue({ purpose: 'recovery', subject: 'stored', recipient: '+34600' }, start);
    const row = await database.db.selectFrom('one_time_codes').selectAll().where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(code);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('a new challenge replaces the open one, and sends are limited', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const first = await codes.issue({ purpose: 'login', subject: 'again', recipient: '+34600' }, start);
    const second = await codes.issue({ purpose: 'login', subject: 'again', recipient: '+34600' }, at(1));
    expect(await codes.check(hashToken(first.token), first.code, at(2))).toEqual({ outcome: 'expired' });
    expect(await codes.resend(hashToken(second.token), at(31))).toMatchObject({ outcome: 'sent' });
    expect(await codes.resend(hashToken(second.token), at(62))).toMatchObject({ outcome: 'sent' });
    expect(await codes.resend(hashToken(second.token), at(93))).toEqual({ outcome: 'blocked' });
  });

  it('a block lasts its time, then the person may try again', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const { token, code } = await codes.issue({ purpose: 'login', subject: 'blocked', recipient: '+34600' }, start);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i += 1) expect((await codes.check(hashToken(token), wrong, at(i))).outcome).toBe('wrong');
    expect(await codes.check(hashToken(token), wrong, at(5))).toEqual({ outcome: 'blocked', retryAfterSeconds: 900 });
    expect(await codes.isBlocked('login', 'blocked', at(904))).toBe(true);
    // How long is left, for the screen to say until when.
    expect(await codes.blockedFor('login', 'blocked', at(605))).toBe(300);
    expect(await codes.isBlocked('login', 'blocked', at(906))).toBe(false);
  });
});

describeEachDialect('one-time codes: wrong answers per person', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000');

  it('50 simultaneous wrong answers: at most 5 are judged, the rest are refused as blocked, and the right code after them too', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const { token, code } = await codes.issue({ purpose: 'login', subject: 'crowd', recipient: '+34600' }, start);
    const results = await Promise.all(Array.from({ length: 50 }, () => codes.check(hashToken(token), wrongFor(code), at(10))));
    const judged = results.filter((result) => result.outcome === 'wrong');
    expect(judged.map((result) => (result as { attemptsLeft: number }).attemptsLeft).sort()).toEqual([1, 2, 3, 4]);
    expect(results.filter((result) => result.outcome === 'blocked')).toHaveLength(46);
    expect(await codes.check(hashToken(token), code, at(11))).toEqual({ outcome: 'blocked', retryAfterSeconds: 899 });
    expect(await codes.isBlocked('login', 'crowd', at(11))).toBe(true);
  });

  it('wrong answers add up across challenges: a fresh challenge does not start the count again', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const first = await codes.issue({ purpose: 'login', subject: 'persistent', recipient: '+34600' }, start);
    for (const left of [4, 3, 2]) expect(await codes.check(hashToken(first.token), wrongFor(first.code), at(1))).toEqual({ outcome: 'wrong', attemptsLeft: left });
    const second = await codes.issue({ purpose: 'login', subject: 'persistent', recipient: '+34600' }, at(2));
    expect(await codes.check(hashToken(second.token), wrongFor(second.code), at(3))).toEqual({ outcome: 'wrong', attemptsLeft: 1 });
    expect(await codes.check(hashToken(second.token), wrongFor(second.code), at(4))).toEqual({ outcome: 'blocked', retryAfterSeconds: 900 });
    // Another purpose of the same person has its own count.
    const recovery = await codes.issue({ purpose: 'recovery', subject: 'persistent', recipient: '+34600' }, at(5));
    expect(await codes.check(hashToken(recovery.token), wrongFor(recovery.code), at(6))).toEqual({ outcome: 'wrong', attemptsLeft: 4 });
  });

  it('the count restarts once its window is over, and a right answer clears it', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const first = await codes.issue({ purpose: 'login', subject: 'window', recipient: '+34600' }, start);
    for (const left of [4, 3]) expect(await codes.check(hashToken(first.token), wrongFor(first.code), at(1))).toEqual({ outcome: 'wrong', attemptsLeft: left });
    const later = await codes.issue({ purpose: 'login', subject: 'window', recipient: '+34600' }, at(901));
    expect(await codes.check(hashToken(later.token), wrongFor(later.code), at(902))).toEqual({ outcome: 'wrong', attemptsLeft: 4 });
    expect(await codes.check(hashToken(later.token), later.code, at(903))).toMatchObject({ outcome: 'valid' });
    const next = await codes.issue({ purpose: 'login', subject: 'window', recipient: '+34600' }, at(904));
    expect(await codes.check(hashToken(next.token), wrongFor(next.code), at(905))).toEqual({ outcome: 'wrong', attemptsLeft: 4 });
  });

  it('checkLatest answers a person without a challenge exactly as a person with one who gives a wrong code', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const real = await codes.issue({ purpose: 'recovery', subject: 'known', recipient: '+34600' }, start);
    const sequence = async (subject: string, code: string) => {
      const answers = [];
      for (let i = 0; i < 6; i += 1) answers.push(await codes.checkLatest('recovery', subject, code, at(10 + i)));
      return answers;
    };
    const known = await sequence('known', wrongFor(real.code));
    const unknown = await sequence('nobody', '123456');
    expect(unknown).toEqual(known);
    expect(known.map((answer) => answer.outcome)).toEqual(['wrong', 'wrong', 'wrong', 'wrong', 'blocked', 'blocked']);
    // An expired code answers as a wrong one too: its age tells nothing either.
    const stale = await codes.issue({ purpose: 'recovery', subject: 'stale', recipient: '+34600' }, start);
    expect(await codes.checkLatest('recovery', 'stale', stale.code, at(301))).toEqual({ outcome: 'wrong', attemptsLeft: 4 });
  });

  it('two simultaneous resends send one new code', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const { token } = await codes.issue({ purpose: 'login', subject: 'resender', recipient: '+34600' }, start);
    const results = await Promise.all(Array.from({ length: 10 }, () => codes.resend(hashToken(token), at(31))));
    expect(results.filter((result) => result.outcome === 'sent')).toHaveLength(1);
    const row = await database.db.selectFrom('one_time_codes').select('sends').where('id', '=', hashToken(token)).executeTakeFirstOrThrow();
    expect(Number(row.sends)).toBe(2);
  });

  it("ten asks at once for a person's first code: one gets the turn, the others the cooldown's seconds", async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    const waits = await Promise.all(Array.from({ length: 10 }, () => codes.claimTurn('phone', 'first-burst', start)));
    expect(waits.filter((wait) => wait === 0)).toHaveLength(1);
    expect(waits.filter((wait) => wait > 0)).toEqual(Array(9).fill(settings.resendSeconds));
    // The turn comes back when the cooldown is over, once.
    expect(await codes.claimTurn('phone', 'first-burst', at(settings.resendSeconds - 1))).toBe(1);
    const later = await Promise.all(Array.from({ length: 10 }, () => codes.claimTurn('phone', 'first-burst', at(settings.resendSeconds))));
    expect(later.filter((wait) => wait === 0)).toHaveLength(1);
  });

  it('a resend and a new code at once: one turn, whichever asks', async () => {
    const codes = oneTimeCodes(oneTimeCodeRepository(database.db), settings);
    expect(await codes.claimTurn('contract', 'both', start)).toBe(0);
    const { token } = await codes.issue({ purpose: 'contract', subject: 'both', recipient: '+34600' }, start);
    const moment = at(settings.resendSeconds);
    const [resent, ...turns] = await Promise.all([codes.resend(hashToken(token), moment), ...Array.from({ length: 5 }, () => codes.claimTurn('contract', 'both', moment))]);
    expect([resent.outcome === 'sent', ...turns.map((wait) => wait === 0)].filter(Boolean)).toHaveLength(1);
  });
});
