// The server's counters and gauges, one set read two ways: scraped as Prometheus text from the private /metrics
// listener, and pushed to the OTLP endpoint when one is configured. Labels are bounded sets (a route's pattern, a
// channel, a bucket kind, a task's name): never an id, an address or anything a person typed.
import type { Attributes } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import { serviceResource } from './resource';

/** Seconds: OpenTelemetry's advice for HTTP server durations. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export type Channel = 'sms' | 'email';
/** The kinds of budget a message is charged to (docs/server.md, "Message budgets"). */
export type BudgetKind = 'recipient' | 'person' | 'client' | 'range' | 'country' | 'unproven' | 'total';
/** The bank-wide totals: applicants' and customers' SMS; e-mails to addresses proven and not. */
export type BudgetTotal = 'applicants' | 'customers' | 'proven' | 'unproven';

/** How the review queue stood at a housekeeping run. */
export interface ReviewQueueState {
  waiting: number;
  /** How long the application waiting longest has waited (0 with none). */
  oldestWaitSeconds: number;
  /** How many have waited REVIEW_TARGET_HOURS or more. */
  overTarget: number;
  targetSeconds: number;
}

export interface ServerMetrics {
  /** One answered request: its route's pattern (`unmatched` for none), method, status and duration. */
  request(details: { method: string; route: string | undefined; status: number; seconds: number }): void;
  /** An answer `503 DATABASE_UNAVAILABLE`. */
  databaseUnavailable(route: string | undefined): void;
  messageSent(channel: Channel): void;
  messageFailed(channel: Channel): void;
  /** A message refused because a budget of this kind was spent. */
  budgetRefused(channel: Channel, bucket: BudgetKind): void;
  /** A total's use after a message was charged to it, in percent of its limit. */
  budgetUse(channel: Channel, total: BudgetTotal, usedPercent: number): void;
  housekeepingRun(task: string, failed: boolean): void;
  reviewQueue(state: ReviewQueueState): void;
  /** Applications whose decision has effects not done yet. */
  decisionEffectsPending(count: number): void;
  redisReachable(reachable: boolean): void;
  /** Every metric as it stands, in Prometheus' text format (what /metrics answers). */
  text(): Promise<string>;
  /** Exports what is left (OTLP) and stops. */
  shutdown(): Promise<void>;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

/** The meters, with their Prometheus reader and, when `otlp`, a reader that pushes them every OTEL_METRIC_EXPORT_INTERVAL ms. */
export function serverMetrics({ otlp, exportIntervalMs = 60_000 }: { otlp: boolean; exportIntervalMs?: number }): ServerMetrics {
  // A reader only: /metrics is served by the server's own listener (plugins/telemetry.ts).
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const serializer = new PrometheusSerializer();
  const readers: IMetricReader[] = [prometheus];
  if (otlp) readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: exportIntervalMs }));
  const provider = new MeterProvider({ resource: serviceResource(), readers });
  const meter = provider.getMeter('divilo-onboarding');

  const duration = meter.createHistogram('http.server.request.duration', {
    unit: 's',
    description: 'Time to answer a request, by method, route and status class',
    advice: { explicitBucketBoundaries: DURATION_BUCKETS },
  });
  const serverErrors = meter.createCounter('divilo.http.server.errors', { description: 'Answers 500 to 599, by method and route' });
  const databaseUnavailable = meter.createCounter('divilo.database.unavailable', { description: 'Answers 503 DATABASE_UNAVAILABLE' });
  const sent = meter.createCounter('divilo.messages.sent', { description: 'SMS and e-mails handed to their provider' });
  const failed = meter.createCounter('divilo.messages.failed', { description: 'SMS and e-mails their provider did not take' });
  const refused = meter.createCounter('divilo.message_budget.refused', { description: 'Messages refused because a budget was spent, by its kind' });
  const used = meter.createGauge('divilo.message_budget.used_percent', { unit: '%', description: "A total message budget's use in its window, as of its last message" });
  const runs = meter.createCounter('divilo.housekeeping.runs', { description: 'Housekeeping tasks run' });
  const failures = meter.createCounter('divilo.housekeeping.failures', { description: 'Housekeeping tasks that failed' });
  const waiting = meter.createGauge('divilo.review_queue.waiting', { description: 'Applications waiting for the bank' });
  const oldest = meter.createGauge('divilo.review_queue.oldest_wait_seconds', { unit: 's', description: 'How long the application waiting longest has waited' });
  const overTarget = meter.createGauge('divilo.review_queue.over_target', { description: 'Applications waiting REVIEW_TARGET_HOURS or more' });
  const target = meter.createGauge('divilo.review_queue.target_seconds', { unit: 's', description: 'REVIEW_TARGET_HOURS' });
  const pending = meter.createGauge('divilo.review_effects.pending', { description: 'Applications whose decision has effects not done' });
  const redis = meter.createGauge('divilo.redis.reachable', { description: '1 while the rate limits\' Redis answers, 0 while it does not' });

  const routeOf = (route: string | undefined) => route ?? 'unmatched';
  return {
    request({ method, route, status, seconds }) {
      const attributes: Attributes = { 'http.request.method': METHODS.has(method) ? method : '_OTHER', 'http.route': routeOf(route) };
      duration.record(seconds, { ...attributes, 'http.response.status_class': statusClass(status) });
      if (status >= 500) serverErrors.add(1, attributes);
    },
    databaseUnavailable: (route) => databaseUnavailable.add(1, { 'http.route': routeOf(route) }),
    messageSent: (channel) => sent.add(1, { channel }),
    messageFailed: (channel) => failed.add(1, { channel }),
    budgetRefused: (channel, bucket) => refused.add(1, { channel, bucket }),
    budgetUse: (channel, total, usedPercent) => used.record(usedPercent, { channel, total }),
    housekeepingRun(task, hasFailed) {
      runs.add(1, { task });
      if (hasFailed) failures.add(1, { task });
    },
    reviewQueue(state) {
      waiting.record(state.waiting);
      oldest.record(state.oldestWaitSeconds);
      overTarget.record(state.overTarget);
      target.record(state.targetSeconds);
    },
    decisionEffectsPending: (count) => pending.record(count),
    redisReachable: (reachable) => redis.record(reachable ? 1 : 0),
    async text() {
      const { resourceMetrics } = await prometheus.collect();
      return serializer.serialize(resourceMetrics);
    },
    shutdown: () => provider.shutdown(),
  };
}
