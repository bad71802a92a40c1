// One housekeeping run: every task at once, each failure logged on its own, then one line that says how the run
// went and how the bank's review stands (the queue's size, its longest wait against REVIEW_TARGET_HOURS, the
// decisions whose effects are not done). That line is what the alarms read on AWS (docs/deploy.md, "Alarms"),
// and the same figures are the review queue's gauges on /metrics.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import type { ApplicationRepository } from '../repositories/applicationRepository';
import { reviewEffectRepository } from '../repositories/reviewEffectRepository';
import { LOG_SIGNALS } from '../telemetry/logSignals';
import type { ServerMetrics } from '../telemetry/metrics';
import { queueOf } from './backOffice';
import type { HighRiskCountries } from './risk';

export interface HousekeepingTask {
  run(now: Date): Promise<unknown>;
  /** The warning a failure is logged with. */
  failure: string;
}

/** How the bank's review stands, as a run reports it. */
export interface ReviewWatch {
  reviewQueue: { waiting: number; oldestWaitSeconds: number; oldestWaitHours: number; overTarget: number; targetHours: number };
  decisionEffectsPending: number;
}

export interface HousekeepingSummary {
  tasks: number;
  failed: number;
  failedTasks: string[];
  /** Absent when the review could not be read (the run's last task, counted as failed). */
  review?: ReviewWatch;
}

interface ReviewWatchDependencies {
  db: Kysely<Database>;
  applications: Pick<ApplicationRepository, 'listForQueue'>;
  highRiskCountries: HighRiskCountries;
  targetHours: number;
}

/** Nobody in particular: the queue as it waits for the bank, whoever can act on it. */
const NO_MEMBER = { username: 'housekeeping', roles: [] };

/** The review queue (the back office's, up to its page of 500) and the decisions with effects still to do. */
export async function watchReview(deps: ReviewWatchDependencies, now: Date): Promise<ReviewWatch> {
  const queue = await queueOf(deps, NO_MEMBER, {}, { targetHours: deps.targetHours }, now);
  // The queue comes the longest waiting first.
  const oldestWaitSeconds = queue.length === 0 ? 0 : Math.max(0, (now.getTime() - Date.parse(queue[0].waitingSince)) / 1000);
  return {
    reviewQueue: {
      waiting: queue.length,
      oldestWaitSeconds: Math.floor(oldestWaitSeconds),
      oldestWaitHours: Math.floor(oldestWaitSeconds / 360) / 10,
      overTarget: queue.filter((entry) => entry.overTarget).length,
      targetHours: deps.targetHours,
    },
    decisionEffectsPending: await reviewEffectRepository(deps.db).countPendingApplications(),
  };
}

/** The run: `tasks` all started together, then the review watched; answers what the summary line says. */
export function housekeeping(
  tasks: Record<string, HousekeepingTask>,
  review: ReviewWatchDependencies,
  deps: { log: FastifyBaseLogger; metrics: Pick<ServerMetrics, 'housekeepingRun' | 'reviewQueue' | 'decisionEffectsPending'> },
) {
  return {
    async run(now: Date): Promise<HousekeepingSummary> {
      const named = Object.entries(tasks);
      const outcomes = await Promise.allSettled(named.map(([, task]) => task.run(now)));
      const failedTasks: string[] = [];
      outcomes.forEach((outcome, index) => {
        const [name, task] = named[index];
        deps.metrics.housekeepingRun(name, outcome.status === 'rejected');
        if (outcome.status === 'fulfilled') return;
        failedTasks.push(name);
        deps.log.warn({ err: outcome.reason, housekeepingTask: name }, task.failure);
      });
      let watched: ReviewWatch | undefined;
      try {
        watched = await watchReview(review, now);
        deps.metrics.reviewQueue({
          waiting: watched.reviewQueue.waiting,
          oldestWaitSeconds: watched.reviewQueue.oldestWaitSeconds,
          overTarget: watched.reviewQueue.overTarget,
          targetSeconds: review.targetHours * 3600,
        });
        deps.metrics.decisionEffectsPending(watched.decisionEffectsPending);
        deps.metrics.housekeepingRun('review-watch', false);
      } catch (error) {
        failedTasks.push('review-watch');
        deps.metrics.housekeepingRun('review-watch', true);
        deps.log.warn({ err: error, housekeepingTask: 'review-watch' }, 'the review queue could not be read');
      }
      const summary: HousekeepingSummary = { tasks: named.length + 1, failed: failedTasks.length, failedTasks, ...(watched ? { review: watched } : {}) };
      // Flat numbers under `housekeeping`: CloudWatch metric filters read them by path.
      deps.log.info({ housekeeping: { tasks: summary.tasks, failed: summary.failed, failedTasks, ...watched } }, LOG_SIGNALS.housekeepingRun);
      return summary;
    },
  };
}

export type Housekeeping = ReturnType<typeof housekeeping>;
