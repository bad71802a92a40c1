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
    expect(await budgets.take([bucket], 600, at(0))).toEqual({ taken: true });
    expect(await budgets.take([bucket], 600, at(100))).toEqual({ taken: true });
    expect(await budgets.take([bucket], 600, at(599))).toEqual({ taken: false, refusedBy: bucket.key });
    // The window counts from the first message, not the last.
    expect(await budgets.read([bucket.key], at(599))).toEqual([{ key: bucket.key, sent: 2, windowEndsAt: at(600).toISOString() }]);
    expect(await budgets.read([bucket.key], at(600))).toEqual([]);
    expect(await budgets.take([bucket], 600, at(600))).toEqual({ taken: true });
    expect(await budgets.read([bucket.key], at(601))).toEqual([{ key: bucket.key, sent: 1, windowEndsAt: at(1200).toISOString() }]);
  });

  it('a refusal by one bucket charges none of the others', async () => {
    const budgets = messageBudgetRepository(database.db);
    await budgets.take([{ key: 'sms:person:full', limit: 1 }], 3600, at(0));
    const result = await budgets.take([{ key: 'sms:recipient:fresh', limit: 5 }, { key: 'sms:person:full', limit: 1 }], 3600, at(1));
    expect(result).toEqual({ taken: false, refusedBy: 'sms:person:full' });
    expect(await budgets.read(['sms:recipient:fresh'], at(2))).toEqual([]);
  });
});
