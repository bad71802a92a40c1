// /metrics as an operator's scraper reads it: on a listener of its own, bound to the loopback address, never on
// the public one; the counters and gauges moved by the requests, messages and housekeeping runs that happen.
import pino from 'pino';
import { applicationRepository } from '../../../server/repositories/applicationRepository';
import { reviewEffectRepository } from '../../../server/repositories/reviewEffectRepository';
import { housekeeping } from '../../../server/services/housekeepingRun';
import { loadHighRiskCountries } from '../../../server/services/risk';
import { LOG_SIGNALS } from '../../../server/telemetry/logSignals';
import { serverMetrics } from '../../../server/telemetry/metrics';
import { buildTestApp, describeEachDialect, freePort, logCollector, openTestDatabase, type TestApp } from '../helpers';

jest.setTimeout(60_000);

/** The value of one sample of the Prometheus text whose labels include `labels` (undefined when there is none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const present = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]));
    if (Object.entries(labels).every(([key, value]) => present[key] === value)) return Number(match[3]);
  }
  return undefined;
}

const HOURS = 3_600_000;

async function listening(server: TestApp) {
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = server.app.server.address() as { port: number };
  const metrics = server.app.metricsAddress()!;
  return { base: `http://127.0.0.1:${port}`, scrape: async () => (await fetch(`http://${metrics.host}:${metrics.port}/metrics`)).text() };
}

describeEachDialect('the metrics', (dialect) => {
  let server: TestApp;
  let base: string;
  let scrape: () => Promise<string>;
  const logs = logCollector();
  let closedPort: number;

  beforeAll(async () => {
    closedPort = await freePort();
    server = await buildTestApp(
      {
        METRICS_PORT: String(await freePort()),
        LOG_LEVEL: 'info',
        // E-mails go to an SMTP server that is not there: each one fails, as a provider's outage would.
        SMTP_URL: `smtp://127.0.0.1:${closedPort}`,
        MAIL_FROM: 'no-reply@divilo.test',
        SMS_BUDGET_PER_RECIPIENT: '1',
        // The addresses here never entered a code: their total is the one reached.
        EMAIL_BUDGET_UNPROVEN_TOTAL: '1',
      },
      { dialect, logStream: logs.stream },
    );
    ({ base, scrape } = await listening(server));
  });
  afterAll(() => server.close());

  it('counts each answer by route, method and status class, and /metrics shows the new count', async () => {
    const health = { http_route: '/health', http_request_method: 'GET', http_response_status_class: '2xx' };
    const unmatched = { http_route: 'unmatched', http_response_status_class: '4xx' };
    const before = await scrape();
    expect((await fetch(`${base}/health`)).status).toBe(200);
    expect((await fetch(`${base}/no/such/page`, { headers: { accept: 'application/json' } })).status).toBe(404);
    const after = await scrape();
    expect(sample(after, 'http_server_request_duration_count', health)).toBe((sample(before, 'http_server_request_duration_count', health) ?? 0) + 1);
    expect(sample(after, 'http_server_request_duration_count', unmatched)).toBe((sample(before, 'http_server_request_duration_count', unmatched) ?? 0) + 1);
    expect(sample(after, 'http_server_request_duration_bucket', { ...health, le: '+Inf' })).toBe(sample(after, 'http_server_request_duration_count', health));
    // An address is never a label: the route's pattern is.
    expect(after).not.toContain('/no/such/page');
  });

  it('serves /metrics on its own loopback listener only: the public listener and the app itself answer 404', async () => {
    expect(server.app.metricsAddress()!.host).toBe('127.0.0.1');
    const publicAnswer = await fetch(`${base}/metrics`, { headers: { accept: 'text/plain' } });
    expect(publicAnswer.status).toBe(404);
    expect(await publicAnswer.text()).not.toContain('http_server_request_duration');
    expect((await server.app.inject('/metrics')).statusCode).toBe(404);
    // And the metrics listener serves nothing else.
    const { host, port } = server.app.metricsAddress()!;
    expect((await fetch(`http://${host}:${port}/health`)).status).toBe(404);
  });

  it('counts the messages sent and failed by channel, and those a budget refused by its kind', async () => {
    const before = await scrape();
    const count = (text: string, name: string, labels: Record<string, string>) => sample(text, name, labels) ?? 0;
    const requester = { person: `application:metrics-${dialect}`, clientAddress: '192.0.2.10' };
    const sms = await server.app.messages.charge({ channel: 'sms', to: '+34600000001', purpose: 'phone-code' }, requester);
    await server.app.messages.send(sms, { text: 'Your code is 123456' });
    await expect(server.app.messages.charge({ channel: 'sms', to: '+34600000001', purpose: 'phone-code' }, requester)).rejects.toMatchObject({ code: 'MESSAGE_BUDGET_EXCEEDED' });
    const email = await server.app.messages.charge({ channel: 'email', to: 'ana@example.com', purpose: 'email-code' }, requester);
    await expect(server.app.messages.send(email, { text: 'Your code is 654321', subject: 'Code' })).rejects.toMatchObject({ code: 'MESSAGE_NOT_SENT' });
    // Not sent, so refunded: the channel's total of one is spent by the next message, and the one after is refused,
    // the line the alarm on AWS counts (deploy/lib/alarms.ts).
    await server.app.messages.charge({ channel: 'email', to: 'eva@example.com', purpose: 'email-code' }, { clientAddress: '192.0.2.12' });
    await expect(server.app.messages.charge({ channel: 'email', to: 'luis@example.com', purpose: 'email-code' }, { clientAddress: '192.0.2.11' })).rejects.toMatchObject({ code: 'MESSAGE_BUDGET_EXCEEDED' });
    expect(logs.entries().filter((entry) => entry.msg === LOG_SIGNALS.messageBudgetSpent).map(({ level, channel, refusedBy }) => ({ level, channel, refusedBy }))).toEqual(
      expect.arrayContaining([
        { level: 40, channel: 'sms', refusedBy: 'recipient' },
        { level: 40, channel: 'email', refusedBy: 'total' },
      ]),
    );
    const after = await scrape();
    expect(count(after, 'divilo_messages_sent_total', { channel: 'sms' })).toBe(count(before, 'divilo_messages_sent_total', { channel: 'sms' }) + 1);
    expect(count(after, 'divilo_messages_failed_total', { channel: 'email' })).toBe(count(before, 'divilo_messages_failed_total', { channel: 'email' }) + 1);
    expect(count(after, 'divilo_messages_sent_total', { channel: 'email' })).toBe(count(before, 'divilo_messages_sent_total', { channel: 'email' }));
    expect(count(after, 'divilo_message_budget_refused_total', { channel: 'sms', bucket: 'recipient' })).toBe(count(before, 'divilo_message_budget_refused_total', { channel: 'sms', bucket: 'recipient' }) + 1);
    expect(count(after, 'divilo_message_budget_refused_total', { channel: 'email', bucket: 'total' })).toBe(count(before, 'divilo_message_budget_refused_total', { channel: 'email', bucket: 'total' }) + 1);
    // The total's use as of its last message: eva's spent the unproven addresses' total of one.
    expect(sample(after, 'divilo_message_budget_used_percent', { channel: 'email', total: 'unproven' })).toBe(100);
    // Nothing about the person or the number reaches a label.
    expect(after).not.toMatch(/600000001|ana@example|luis@example|eva@example|192\.0\.2\.1/);
  });

  it('logs the review queue against REVIEW_TARGET_HOURS and the decisions left pending at each housekeeping run, and /metrics shows them', async () => {
    const now = new Date();
    const signedLongAgo = new Date(now.getTime() - 50 * HOURS);
    const waiting = await server.app.applications.create({ email: `waiting-${dialect}@example.com`, idDocument: '00000090C', answers: {}, completedSteps: [], language: 'es' }, signedLongAgo);
    expect(await server.app.applications.save(waiting, { status: 'pending-review' }, signedLongAgo)).toBeDefined();
    const decided = await server.app.applications.create({ email: `decided-${dialect}@example.com`, idDocument: '00000091K', answers: {}, completedSteps: [], language: 'es' }, now);
    await reviewEffectRepository(server.app.db).record(decided.id, 'approved', ['user-pool-status', 'notice-email'], now);

    const summary = await server.app.housekeeping.run(now);

    expect(summary).toMatchObject({ failed: 0, failedTasks: [] });
    const line = logs.entries().find((entry) => entry.msg === LOG_SIGNALS.housekeepingRun);
    expect(line).toMatchObject({
      level: 30,
      housekeeping: {
        failed: 0,
        reviewQueue: { waiting: 1, overTarget: 1, targetHours: 48, oldestWaitHours: 50, oldestWaitSeconds: 50 * 3600 },
        decisionEffectsPending: 1,
      },
    });
    const text = await scrape();
    expect(sample(text, 'divilo_review_queue_waiting')).toBe(1);
    expect(sample(text, 'divilo_review_queue_over_target')).toBe(1);
    expect(sample(text, 'divilo_review_queue_oldest_wait_seconds')).toBe(50 * 3600);
    expect(sample(text, 'divilo_review_queue_target_seconds')).toBe(48 * 3600);
    expect(sample(text, 'divilo_review_effects_pending')).toBe(1);
    for (const task of ['captcha-sweep', 'expire-rows', 'review-effects', 'expire-applications', 'end-retention', 'review-watch']) {
      expect(sample(text, 'divilo_housekeeping_runs_total', { task })).toBeGreaterThanOrEqual(1);
    }
  });
});

describeEachDialect('the metrics when the database is gone', (dialect) => {
  it('counts the answers 503 DATABASE_UNAVAILABLE by route', async () => {
    const database = await openTestDatabase(dialect);
    const server = await buildTestApp({ METRICS_PORT: String(await freePort()) }, { database });
    try {
      const { base, scrape } = await listening(server);
      expect(sample(await scrape(), 'divilo_database_unavailable_total', { http_route: '/health' })).toBeUndefined();
      await database.destroy();
      expect((await fetch(`${base}/health`)).status).toBe(503);
      const text = await scrape();
      expect(sample(text, 'divilo_database_unavailable_total', { http_route: '/health' })).toBe(1);
      expect(sample(text, 'divilo_http_server_errors_total', { http_route: '/health' })).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('a housekeeping run', () => {
  it('logs each failed task with its name, counts it, and still reports the review in its line', async () => {
    const database = await openTestDatabase('sqlite');
    const logs = logCollector();
    const metrics = serverMetrics({ otlp: false });
    try {
      const run = housekeeping(
        {
          'expire-rows': { run: () => Promise.reject(new Error('the database did not answer')), failure: 'housekeeping failed' },
          'captcha-sweep': { run: async () => 3, failure: 'captcha sweep failed' },
        },
        { db: database.db, applications: applicationRepository(database.db), highRiskCountries: loadHighRiskCountries(), targetHours: 48 },
        { log: pino({ level: 'info' }, logs.stream), metrics },
      );
      expect(await run.run(new Date())).toMatchObject({ tasks: 3, failed: 1, failedTasks: ['expire-rows'] });
      expect(logs.entries()).toEqual([
        expect.objectContaining({ level: 40, msg: 'housekeeping failed', housekeepingTask: 'expire-rows', err: expect.objectContaining({ message: 'the database did not answer' }) }),
        expect.objectContaining({ level: 30, msg: 'housekeeping run', housekeeping: expect.objectContaining({ failed: 1, failedTasks: ['expire-rows'], reviewQueue: expect.objectContaining({ waiting: 0 }) }) }),
      ]);
      const text = await metrics.text();
      expect(sample(text, 'divilo_housekeeping_failures_total', { task: 'expire-rows' })).toBe(1);
      expect(sample(text, 'divilo_housekeeping_failures_total', { task: 'captcha-sweep' })).toBeUndefined();
      expect(sample(text, 'divilo_housekeeping_runs_total', { task: 'captcha-sweep' })).toBe(1);
    } finally {
      await metrics.shutdown();
      await database.destroy();
    }
  });
});
