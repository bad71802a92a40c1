// How long the bank keeps what it relied on, by the law that asks it (docs/privacy.md says each period's source). The
// evidence of a decided application is locked in storage for that long (Object Lock, COMPLIANCE): not even the
// server's own role can remove it before.

/** Years of each period (RETENTION_CUSTOMER_YEARS, RETENTION_REFUSED_YEARS). */
export interface RetentionSettings {
  /**
   * A customer's due-diligence records: ten years from the end of the business relationship (Ley 10/2010, art. 25).
   * At approval the end is not known: the evidence is locked that long from the approval, and the lock is moved on
   * when the relationship's end is recorded.
   */
  customerYears: number;
  /** A refused or rejected application: five years from the refusal (EU AML Regulation 2024/1624, art. 77, from 2027-07-10). */
  refusedYears: number;
}

export const RETENTION_DEFAULTS: RetentionSettings = { customerYears: 10, refusedYears: 5 };

/** Until when the evidence of an application decided at `decidedAt` is locked. */
export function evidenceRetainUntil(decision: 'approved' | 'rejected', decidedAt: Date, settings: RetentionSettings): Date {
  const until = new Date(decidedAt);
  until.setUTCFullYear(until.getUTCFullYear() + (decision === 'approved' ? settings.customerYears : settings.refusedYears));
  return until;
}

/**
 * Years after the end of a customer's relationship from which their records are open to internal control only
 * (Ley 10/2010, art. 25: the `compliance` role in the back office).
 */
export const CUSTOMER_OPEN_YEARS = 5;

const plusYears = (date: Date, years: number) => {
  const later = new Date(date);
  later.setUTCFullYear(later.getUTCFullYear() + years);
  return later;
};

/** The end of the relationship's last day (midnight UTC after it): the law's periods run from there. */
export const relationshipEndsAt = (endedOn: string) => new Date(Date.parse(`${endedOn}T00:00:00.000Z`) + 86_400_000);

/** Until when a customer's evidence is locked once their relationship ended on `endedOn` (YYYY-MM-DD). */
export const customerRetainUntil = (endedOn: string, settings: RetentionSettings) => plusYears(relationshipEndsAt(endedOn), settings.customerYears);

/** What happens to a decided application's records, when, and the law that says so. */
export interface RetentionEvent {
  applicationId: string;
  outcome: 'customer' | 'refused';
  event: 'blocked' | 'deleted';
  at: Date;
  ground: string;
}

export const LEGAL_GROUNDS = {
  customerBlocked: 'Ley 10/2010 art. 25: internal control only 5 years after the relationship ended',
  customerDeleted: 'Ley 10/2010 art. 25: kept 10 years after the relationship ended',
  refusedDeleted: 'Regulation (EU) 2024/1624 art. 77: kept 5 years after the refusal',
} as const;

/** The events of an application: a customer whose relationship ended is blocked, then deleted; a refusal deleted. */
export function retentionEventsOf(
  application: { id: string; status: 'approved' | 'rejected'; relationshipEndedOn: string | null; rejectedAt: string | null },
  settings: RetentionSettings,
): RetentionEvent[] {
  const applicationId = application.id;
  if (application.status === 'approved') {
    if (!application.relationshipEndedOn) return [];
    const ended = relationshipEndsAt(application.relationshipEndedOn);
    return [
      { applicationId, outcome: 'customer', event: 'blocked', at: plusYears(ended, CUSTOMER_OPEN_YEARS), ground: LEGAL_GROUNDS.customerBlocked },
      { applicationId, outcome: 'customer', event: 'deleted', at: plusYears(ended, settings.customerYears), ground: LEGAL_GROUNDS.customerDeleted },
    ];
  }
  if (!application.rejectedAt) return [];
  return [{ applicationId, outcome: 'refused', event: 'deleted', at: evidenceRetainUntil('rejected', new Date(application.rejectedAt), settings), ground: LEGAL_GROUNDS.refusedDeleted }];
}

/** Whether a customer's records are open to internal control only at `now`. */
export const isBlocked = (relationshipEndedOn: string | null, now: Date) =>
  relationshipEndedOn !== null && plusYears(relationshipEndsAt(relationshipEndedOn), CUSTOMER_OPEN_YEARS).getTime() <= now.getTime();

/**
 * Whether an application is blocked at `now` (open to internal control only, for the authorities and the courts):
 * five years after its customer's relationship ended; or, once its person asked for its erasure and the bank kept it
 * for the law alone (LOPDGDD art. 32), a refused application, or a customer whose relationship has ended. A customer
 * still served, or an application awaiting a decision, stays open to the staff who work on it.
 */
export const isBlockedApplication = (application: { status: string; relationshipEndedOn: string | null; erasureRefused: boolean }, now: Date) =>
  isBlocked(application.relationshipEndedOn, now) ||
  (application.erasureRefused && (application.status === 'rejected' || (application.status === 'approved' && application.relationshipEndedOn !== null)));
