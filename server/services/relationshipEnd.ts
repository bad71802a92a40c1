// The end of an approved customer's business relationship, as the bank records it (`npm run admin -- relationship-end`,
// the back office): the law keeps the customer's records ten years from it (retention.ts), so recording it moves the
// evidence's Object Lock on to then. Recorded once: a date cannot be changed afterwards (docs/onboarding.md).
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { retentionRepository } from '../repositories/retentionRepository';
import { customerRetainUntil, type RetentionSettings } from './retention';

export type RelationshipEndRefusal = 'APPLICATION_NOT_FOUND' | 'NOT_A_CUSTOMER' | 'INVALID_DATE' | 'DATE_IN_FUTURE' | 'DATE_BEFORE_APPROVAL' | 'RELATIONSHIP_ALREADY_ENDED';

export class RelationshipEndError extends Error {
  constructor(
    readonly code: RelationshipEndRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'RelationshipEndError';
  }
}

export interface RelationshipEndDependencies {
  db: Kysely<Database>;
  /** Moves the application's evidence lock on (documents.ts `retainEvidence`: only ever later). */
  retainEvidence(applicationId: string, until: Date): Promise<unknown>;
  retention: RetentionSettings;
}

export interface RelationshipEnd {
  endedOn: string;
  /** Until when the evidence is now locked (ISO). */
  retainUntil: string;
  /** True when the same date was recorded before (by an earlier or a simultaneous request): nothing new recorded. */
  already: boolean;
}

const isCalendarDate = (text: string) => /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00.000Z`).toISOString().startsWith(text);

/**
 * Records that the customer of application `id` stopped being one on `endedOn` (YYYY-MM-DD, today at the latest, not
 * before the approval), audited as `actor`, then locks the evidence until ten years after. The same date again finds
 * it recorded and locks again (what finishes a run whose lock failed); another date is refused.
 */
export async function recordRelationshipEnd(deps: RelationshipEndDependencies, id: string, endedOn: string, actor: string, now: Date, requestId?: string): Promise<RelationshipEnd> {
  if (!isCalendarDate(endedOn)) throw new RelationshipEndError('INVALID_DATE', `${JSON.stringify(endedOn)} is not a date (YYYY-MM-DD)`);
  const retention = retentionRepository(deps.db);
  const recorded = async (): Promise<RelationshipEnd | undefined> => {
    const application = await retention.statusOf(id);
    if (!application) throw new RelationshipEndError('APPLICATION_NOT_FOUND', `No application ${id}`);
    if (application.status !== 'approved') throw new RelationshipEndError('NOT_A_CUSTOMER', `Application ${id} is ${application.status}: only an approved customer's relationship ends`);
    if (application.relationshipEndedOn === null) return undefined;
    if (application.relationshipEndedOn !== endedOn) {
      throw new RelationshipEndError('RELATIONSHIP_ALREADY_ENDED', `The relationship of application ${id} ended on ${application.relationshipEndedOn} already`);
    }
    return { endedOn, retainUntil: customerRetainUntil(endedOn, deps.retention).toISOString(), already: true };
  };
  const lock = async (end: RelationshipEnd) => {
    await deps.retainEvidence(id, new Date(end.retainUntil));
    return end;
  };

  const before = await recorded();
  if (before) return lock(before);
  if (endedOn > now.toISOString().slice(0, 10)) throw new RelationshipEndError('DATE_IN_FUTURE', `${endedOn} is in the future: record an end once it has happened`);
  const approvedAt = await retention.approvedAt(id);
  if (approvedAt && endedOn < approvedAt.slice(0, 10)) throw new RelationshipEndError('DATE_BEFORE_APPROVAL', `${endedOn} is before the approval (${approvedAt.slice(0, 10)})`);
  const retainUntil = customerRetainUntil(endedOn, deps.retention);
  const audit = { actor, action: 'onboarding.relationship_ended', subject: `application:${id}`, requestId, details: { endedOn, retainUntil: retainUntil.toISOString() } };
  if (await retention.recordRelationshipEnd(id, endedOn, audit, now)) return lock({ endedOn, retainUntil: retainUntil.toISOString(), already: false });
  // Another request recorded it (or the application changed) between the read and the update.
  const after = await recorded();
  if (!after) throw new Error(`the end of relationship of application ${id} was neither recorded nor found`);
  return lock(after);
}
