// The message budgets' counters: one atomic statement per bucket, all buckets or none, on both databases.
import { messageBudgetRepository } from '../../server/repositories/messageBudgetRepository';
import { describeEachDialect, openTestDatabase } from './helpers';

describeEachDialect('message budget repository', (dialect) => {
  let database: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    database = await openTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  const start = new Date('2026-11-22T10:00:00.000Z');
  const at = (seconds: number) => new Date(start.getTime() + seconds * 1000);

  it('of 40 simultaneous messages to one bucket of 7, exactly 7 pass, and the count stops at 7', async () => {
    const budgets = messageBudgetRepository(database.db);
    const results = await Promise.all(Array.from({ length: 40 }, () => budgets.take([{ key: 'sms:recipient:race', limit: 7 }], 3600, at(1))));
    expect(results.filter((result) => result.taken)).toHaveLength(7);
    expect(results.filter((result) => !result.taken)).toEqual(Array.from({ length: 33 }, () => ({ taken: false, refusedBy: 'sms:recipient:race' })));
    expect(await budgets.read(['sms:recipient:race'], at(2))).toEqual([{ key: 'sms:recipient:race', sent: 7, windowEndsAt: at(3601).toISOString() }]);
  });

  it('simultaneous messages sharing a total but not a recipient: exactly the total passes, and no recipient is charged for a refused one', async () => {
    const budgets = messageBudgetRepository(database.db);
    const total = { key: 'sms:total:shared', limit: 5 };
    // A bucket charged before the total (handed back when the total refuses) and one after it (never reached).
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => budgets.take([{ key: `sms:a-recipient:${index}`, limit: 3 }, total, { key: `sms:z-client:${index}`, limit: 3 }], 3600, at(1))),
    );
    expect(results.filter((result) => result.taken)).toHaveLength(5);
    const recipients = await budgets.read(Array.from({ length: 20 }, (_, index) => `sms:a-recipient:${index}`), at(2));
    const clients = await budgets.read(Array.from({ length: 20 }, (_, index) => `sms:z-client:${index}`), at(2));
    expect(recipients.map((bucket) => bucket.sent)).toEqual([1, 1, 1, 1, 1]);
    expect(clients.map((bucket) => bucket.sent)).toEqual([1, 1, 1, 1, 1]);
  });

  it('a full bucket refuses until its window is over, then starts a new window', async () => {
    const budgets = messageBudgetRepository(database.db);
    const bucket = { key: 'email:recipient:window', limit: 2 };
    expect(await budgets.take([bucket], 600, at(0))).toEqual({ taken: true, charged: [{ key: bucket.key, windowEndsAt: at(600).toISOString(), sent: 1 }] });
    expect(await budgets.take([bucket], 600, at(100))).toEqual({ taken: true, charged: [{ key: bucket.key, windowEndsAt: at(600).toISOString(), sent: 2 }] });
    expect(await budgets.take([bucket], 600, at(599))).toEqual({ taken: false, refusedBy: bucket.key });
    // The window counts from the first message, not the last.
    expect(await budgets.read([bucket.key], at(599))).toEqual([{ key: bucket.key, sent: 2, windowEndsAt: at(600).toISOString() }]);
    expect(await budgets.read([bucket.key], at(600))).toEqual([]);
    expect(await budgets.take([bucket], 600, at(600))).toEqual({ taken: true, charged: [{ key: bucket.key, windowEndsAt: at(1200).toISOString(), sent: 1 }] });
    expect(await budgets.read([bucket.key], at(601))).toEqual([{ key: bucket.key, sent: 1, windowEndsAt: at(1200).toISOString() }]);
  });

  it('a refusal by one bucket charges none of the others', async () => {
    const budgets = messageBudgetRepository(database.db);
    await budgets.take([{ key: 'sms:person:full', limit: 1 }], 3600, at(0));
    const result = await budgets.take([{ key: 'sms:recipient:fresh', limit: 5 }, { key: 'sms:person:full', limit: 1 }], 3600, at(1));
    expect(result).toEqual({ taken: false, refusedBy: 'sms:person:full' });
    expect(await budgets.read(['sms:recipient:fresh'], at(2))).toEqual([]);
  });

  it('a refund hands back one message in each of its buckets, in the window it was counted in, never below zero', async () => {
    const budgets = messageBudgetRepository(database.db);
    const buckets = [
      { key: 'sms:recipient:refund', limit: 3 },
      { key: 'sms:total:refund', limit: 10 },
    ];
    const first = await budgets.take(buckets, 600, at(0));
    const second = await budgets.take(buckets, 600, at(1));
    if (!first.taken || !second.taken) throw new Error('not charged');
    await budgets.refund(second.charged);
    expect(await budgets.read(['sms:recipient:refund', 'sms:total:refund'], at(2))).toEqual([
      { key: 'sms:recipient:refund', sent: 1, windowEndsAt: at(600).toISOString() },
      { key: 'sms:total:refund', sent: 1, windowEndsAt: at(600).toISOString() },
    ]);
    // A charge of a window that is over is not taken out of the next one.
    const next = await budgets.take(buckets, 600, at(600));
    expect(next.taken).toBe(true);
    await budgets.refund(first.charged);
    expect((await budgets.read(['sms:recipient:refund'], at(601))).map((bucket) => bucket.sent)).toEqual([1]);
    // Refunded twice over: the count stops at zero.
    if (!next.taken) throw new Error('not charged');
    await budgets.refund(next.charged);
    await budgets.refund(next.charged);
    expect(await budgets.read(['sms:recipient:refund'], at(602))).toEqual([]);
    expect(await database.db.selectFrom('message_budgets').select('sent').where('bucket', '=', 'sms:recipient:refund').executeTakeFirstOrThrow()).toEqual({ sent: 0 });
  });

  it('30 refunds and 30 new messages at once on a bucket of 30: none is lost, and the bucket never holds more than its limit', async () => {
    const budgets = messageBudgetRepository(database.db);
    const total = { key: 'sms:total:refund-race', limit: 30 };
    const charges = await Promise.all(Array.from({ length: 30 }, (_, index) => budgets.take([{ key: `sms:recipient:race-${index}`, limit: 5 }, total], 3600, at(1))));
    expect(charges.every((charge) => charge.taken)).toBe(true);
    // The bucket is full: the new messages pass only as refunds make room, and every refund counts.
    const [, taken] = await Promise.all([
      Promise.all(charges.map((charge) => (charge.taken ? budgets.refund(charge.charged) : undefined))),
      Promise.all(Array.from({ length: 30 }, (_, index) => budgets.take([{ key: `sms:recipient:new-${index}`, limit: 5 }, total], 3600, at(2)))),
    ]);
    const passed = taken.filter((result) => result.taken).length;
    const [state] = await budgets.read([total.key], at(3));
    expect(state?.sent ?? 0).toBe(passed);
    expect(passed).toBeLessThanOrEqual(30);
    // Every refunded recipient is back at zero; every new one that passed holds its message.
    const refunded = await budgets.read(Array.from({ length: 30 }, (_, index) => `sms:recipient:race-${index}`), at(3));
    expect(refunded).toEqual([]);
    expect(await budgets.read(Array.from({ length: 30 }, (_, index) => `sms:recipient:new-${index}`), at(3))).toHaveLength(passed);
    // With the refunds all in, the bucket has room for exactly what it lacks.
    const more = await Promise.all(Array.from({ length: 40 }, (_, index) => budgets.take([{ key: `sms:recipient:more-${index}`, limit: 5 }, total], 3600, at(4))));
    expect(more.filter((result) => result.taken)).toHaveLength(30 - passed);
  });

  it('a bucket with a window of its own ends it on its own: a range of ten minutes beside an hour-long total', async () => {
    const budgets = messageBudgetRepository(database.db);
    const range = { key: 'sms:range:own-window', limit: 1, windowSeconds: 600 };
    const total = { key: 'sms:total:own-window', limit: 10 };
    expect(await budgets.take([range, total], 3600, at(0))).toEqual({
      taken: true,
      charged: [
        { key: range.key, windowEndsAt: at(600).toISOString(), sent: 1 },
        { key: total.key, windowEndsAt: at(3600).toISOString(), sent: 1 },
      ],
    });
    expect(await budgets.take([range, total], 3600, at(599))).toEqual({ taken: false, refusedBy: range.key });
    expect(await budgets.take([range, total], 3600, at(600))).toMatchObject({ taken: true, charged: [{ sent: 1 }, { sent: 2, windowEndsAt: at(3600).toISOString() }] });
  });

  it('an address proven once stays proven; another is not', async () => {
    const budgets = messageBudgetRepository(database.db);
    expect(await budgets.isProven('address-a')).toBe(false);
    await budgets.markProven('address-a', at(0));
    await Promise.all([budgets.markProven('address-a', at(1)), budgets.markProven('address-a', at(1))]);
    expect(await budgets.isProven('address-a')).toBe(true);
    expect(await budgets.isProven('address-b')).toBe(false);
    expect(await database.db.selectFrom('proven_email_addresses').select('proven_at').where('address', '=', 'address-a').execute()).toEqual([{ proven_at: at(0).toISOString() }]);
  });
});
