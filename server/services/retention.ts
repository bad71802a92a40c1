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
