// A person's request to erase their data (GDPR art. 17), answered application by application. One with no business
// relationship and no decision of the bank (in progress, or closed as not allowed) is erased at once, as housekeeping
// erases an abandoned one. An approved customer's, a rejected one's and one the bank is deciding are kept: the law
// that obliges the bank to keep them is the ground (Ley 10/2010, art. 25; Regulation (EU) 2024/1624, art. 77), and
// the refusal is recorded with it. Blocking what is kept (LOPDGDD art. 32) is not decided here.
import type { Application } from '../repositories/applicationRepository';
import { applicationRepository } from '../repositories/applicationRepository';
import { erasureRequestRepository } from '../repositories/erasureRequestRepository';
import { eraseMarkedApplication, type ApplicationExpiryDependencies } from './housekeeping';
import { applicationsOfPerson } from './personalDataExport';
import { reviewStateOf } from './reviews';

/** Why an application's data is kept despite a request to erase it. */
export type ErasureGround = 'customer-relationship' | 'refused-aml-retention' | 'awaiting-decision';

/** Each ground, the law behind it and what the operator is told. */
export const ERASURE_GROUNDS: Record<ErasureGround, { law: string; explanation: string }> = {
  'customer-relationship': {
    law: 'Ley 10/2010, art. 25; Regulation (EU) 2024/1624, art. 77',
    explanation: 'an approved customer: the due-diligence records are kept for the business relationship and the retention period after it',
  },
  'refused-aml-retention': {
    law: 'Ley 10/2010, art. 25; Regulation (EU) 2024/1624, art. 77',
    explanation: 'a rejected application: its due-diligence records are kept for the retention period after the refusal',
  },
  'awaiting-decision': {
    law: 'Ley 10/2010, art. 25; Regulation (EU) 2024/1624, art. 77',
    explanation: 'signed and under the bank\'s review: its due-diligence records are needed for the decision and kept after it',
  },
};

export type ErasureOutcome = { applicationId: string; outcome: 'erased'; erasedAs: string } | { applicationId: string; outcome: 'refused'; ground: ErasureGround; law: string } | { applicationId: string; outcome: 'already-erased' };

/** A request that cannot be recorded as given; the code is stable for the API. */
export class ErasureRequestError extends Error {
  constructor(
    readonly code: 'INVALID_RECEIVED_DATE' | 'CONCURRENT_CHANGE',
    message: string,
  ) {
    super(message);
  }
}

/** How many times an application changing under the request is read again. */
const CHANGE_ATTEMPTS = 5;

/** The day GDPR became applicable: no request under it was received earlier. */
const GDPR_APPLICABLE = '2018-05-25';

/** `received` as a real calendar day (YYYY-MM-DD), no later than today (UTC). */
export function receivedDay(received: string, now: Date): string {
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(received) && new Date(`${received}T00:00:00.000Z`).toISOString().startsWith(received);
  if (!valid) throw new ErasureRequestError('INVALID_RECEIVED_DATE', `The day the request was received is a date YYYY-MM-DD, not ${JSON.stringify(received)}`);
  if (received > now.toISOString().slice(0, 10)) throw new ErasureRequestError('INVALID_RECEIVED_DATE', `The request cannot have been received after today (${received})`);
  if (received < GDPR_APPLICABLE) throw new ErasureRequestError('INVALID_RECEIVED_DATE', `The request cannot have been received before ${GDPR_APPLICABLE} (${received})`);
  return received;
}

/** The day by which the request must be answered: one month after it was received (GDPR art. 12.3). */
export function answerDue(receivedOn: string): string {
  const [year, month, day] = receivedOn.split('-').map(Number);
  // The same day of the next month, or its last day when it has none (31 January → 28 or 29 February).
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(day, last))).toISOString().slice(0, 10);
}

/** Why the bank keeps an application, or undefined when nothing does (it can be erased). */
function groundToKeep(application: Application): ErasureGround | undefined {
  if (application.status === 'approved') return 'customer-relationship';
  if (application.status === 'rejected') return 'refused-aml-retention';
  if (application.status === 'pending-review') return 'awaiting-decision';
  // Sent back to its applicant by the bank: still under review.
  if (application.status === 'in-progress' && reviewStateOf(application).moreInfo) return 'awaiting-decision';
  return undefined;
}

export interface ErasureRequest {
  /** The day the person's request reached the bank (YYYY-MM-DD). */
  receivedOn: string;
  /** Who records it, as the audit trail names them (`staff:<username>`, `admin:<name>`). */
  actor: string;
}

/**
 * Answers the request of the person of `named` (an application id or an ID document number) for each of their
 * applications. Of two requests at once, one erases; the other answers `already-erased`.
 */
export async function answerErasureRequest(deps: ApplicationExpiryDependencies, named: string, request: ErasureRequest, now: Date): Promise<ErasureOutcome[]> {
  const receivedOn = receivedDay(request.receivedOn, now);
  const applications = applicationRepository(deps.db);
  const requests = erasureRequestRepository(deps.db);
  const outcomes: ErasureOutcome[] = [];
  for (const found of await applicationsOfPerson({ applications }, named)) {
    outcomes.push(await answerFor(found.id));
  }
  return outcomes;

  async function answerFor(id: string): Promise<ErasureOutcome> {
    // A change between reading and marking (the applicant saving a step) is read again: it may have been signed.
    for (let attempt = 0; ; attempt += 1) {
      if (attempt === CHANGE_ATTEMPTS) throw new ErasureRequestError('CONCURRENT_CHANGE', `Application ${id} kept changing: record the request again`);
      const application = await applications.find(id);
      if (!application) return { applicationId: id, outcome: 'already-erased' };
      const ground = groundToKeep(application);
      if (ground) {
        const law = ERASURE_GROUNDS[ground].law;
        await requests.recordRefused(
          { applicationId: id, receivedOn, requestedBy: request.actor, outcome: 'refused', ground },
          { actor: request.actor, action: 'privacy.erasure_refused', subject: `application:${id}`, details: { receivedOn, ground, law } },
          now,
        );
        return { applicationId: id, outcome: 'refused', ground, law };
      }
      if (application.status === 'expired' || (await applications.markExpired(id, application.version))) break;
    }
    let erasedAs = '';
    const erased = await eraseMarkedApplication(deps, id, now, {
      actor: request.actor,
      why: 'erasure-request',
      record: async (trx, pseudonym) => {
        erasedAs = pseudonym;
        await requests.recordErased(trx, { applicationId: pseudonym, receivedOn, requestedBy: request.actor, outcome: 'erased', ground: null }, now);
      },
    });
    return erased ? { applicationId: id, outcome: 'erased', erasedAs } : { applicationId: id, outcome: 'already-erased' };
  }
}

/** The outcome in one line for the operator. */
export function outcomeLine(outcome: ErasureOutcome): string {
  if (outcome.outcome === 'erased') return `Application ${outcome.applicationId} erased: its rows, files and storage identity are gone, its audit trail kept as ${outcome.erasedAs}.`;
  if (outcome.outcome === 'already-erased') return `Application ${outcome.applicationId} was erased already: nothing left to erase.`;
  return `Application ${outcome.applicationId} kept, erasure refused: ${ERASURE_GROUNDS[outcome.ground].explanation} (${outcome.law}). The refusal is recorded; tell the person the ground.`;
}
