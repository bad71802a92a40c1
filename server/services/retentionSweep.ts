// The end of the law's periods, run by housekeeping every day: a customer's records go ten years after their
// relationship ended, a refused application's five years after the refusal (retention.ts), erased as an abandoned
// application is (housekeeping.ts `eraseApplication`), each erasure audited under the application's pseudonym.
// And the schedule `npm run admin -- retention report` prints.
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { applicationRepository } from '../repositories/applicationRepository';
import { retentionRepository } from '../repositories/retentionRepository';
import { eraseApplication, type ApplicationExpiryDependencies } from './housekeeping';
import { retentionEventsOf, type RetentionEvent, type RetentionSettings } from './retention';

/** Every block and deletion the periods bring to the decided applications, the soonest first. */
export async function retentionSchedule(db: Kysely<Database>, settings: RetentionSettings): Promise<RetentionEvent[]> {
  const decided = await retentionRepository(db).listDecided();
  return decided
    .flatMap((application) => retentionEventsOf(application, settings))
    .sort((a, b) => a.at.getTime() - b.at.getTime() || a.applicationId.localeCompare(b.applicationId) || a.event.localeCompare(b.event));
}

/** The report's lines: one per event, in columns, ids whole (the commands take them). */
export function retentionReportLines(events: RetentionEvent[], asOf: Date): string[] {
  const day = (date: Date) => date.toISOString().slice(0, 10);
  const lines = [`Retention as of ${day(asOf)}: ${events.length === 0 ? 'nothing to block or delete' : `${events.length} event(s)`}`];
  for (const event of events) {
    const when = event.at.getTime() <= asOf.getTime() ? (event.event === 'blocked' ? 'since' : 'due') : 'on';
    lines.push([day(event.at), when.padEnd(5), event.event.padEnd(7), event.outcome.padEnd(8), event.applicationId, event.ground].join('  '));
  }
  return lines;
}

export interface RetentionSweepDependencies extends ApplicationExpiryDependencies {
  retention: RetentionSettings;
  log: { warn(details: object, message: string): void };
}

/**
 * Erases every decided application whose period is over at `now`. One that fails (an evidence copy still locked,
 * storage unreachable) is logged and tried again by the next run; the others go on. Answers how many of each went.
 */
export async function endRetention(deps: RetentionSweepDependencies, now: Date): Promise<{ customers: number; refused: number; failed: number }> {
  const due = (await retentionSchedule(deps.db, deps.retention)).filter((event) => event.event === 'deleted' && event.at.getTime() <= now.getTime());
  const counts = { customers: 0, refused: 0, failed: 0 };
  for (const event of due) {
    const application = await applicationRepository(deps.db).find(event.applicationId);
    if (!application) continue;
    try {
      const erased = await eraseApplication(deps, application, { actor: 'housekeeping', why: 'retention-ended', decision: application.status }, now);
      if (erased) counts[event.outcome === 'customer' ? 'customers' : 'refused'] += 1;
    } catch (error) {
      counts.failed += 1;
      // The id is still the application's: the erasure did not happen.
      deps.log.warn({ err: error, applicationId: application.id }, 'an application at the end of its retention could not be erased');
    }
  }
  if (counts.customers + counts.refused > 0) {
    await deps.auditLog.append({ actor: 'housekeeping', action: 'retention.applications_erased', subject: 'retention', details: { counts: { customers: counts.customers, refused: counts.refused } } }, now);
  }
  return counts;
}
