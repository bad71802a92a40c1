// The onboarding funnel for the bank's back office: of the applicants who signed up in a period, how many finished
// each step of their journey, where those who went no further stand, and how long each step took; and the review
// decisions taken in the period, with how long the applicants waited for them. Read from the audit log alone: it is
// append-only, while housekeeping removes the applications abandoned for a month (their applicants are the ones
// the funnel is for). Counts and durations only: nothing of who the applicants are leaves here.
// docs/back-office.md, "Funnel", says what each number means.
import type { Kysely } from 'kysely';
import { journey, OUTCOME_IDS, STEPS, stepById, type FlowAnswers, type StepId } from '../../src/onboarding/flow';
import type { AnswersStepId } from '../../src/onboarding/stepSchemas';
import type { Database } from '../db';
import { toDbTime } from '../db/values';
import { REGISTRATION_SECONDS } from './onboardingApplications';

export type FunnelPath = 'all' | 'freelance' | 'company';

export interface FunnelQuery {
  /** The applicants who signed up from `from` (included) to `to` (excluded); the decisions taken then. */
  from: Date;
  to: Date;
  path: FunnelPath;
}

export interface FunnelStep {
  step: StepId;
  /** Applicants of the period who finished the step (or, a page with nothing to save, went past it). */
  reached: number;
  /** Applicants for whom it is the step they are on: still in progress, or expired since. */
  stoppedHere: number;
  /** Median time from finishing the step before to finishing this one, in whole seconds; null when nobody did. */
  medianSeconds: number | null;
}

export interface FunnelDecision {
  decision: 'approved' | 'rejected';
  count: number;
  /** Median time from the contract being signed (sent for review) to the decision, in whole seconds. */
  medianWaitSeconds: number | null;
}

export interface Funnel extends FunnelQuery {
  started: number;
  steps: FunnelStep[];
  decisions: FunnelDecision[];
}

/** The steps an applicant with these answers walks, in order: flow.ts's `journey`. */
export type JourneyOf = (answers: FlowAnswers) => readonly { id: StepId }[];

/**
 * What the audit log writes when a step is finished, for every step not saved through the step calls (those are
 * finished by their first `onboarding.step_saved { step }`, the only entry they write). One table, typed by step
 * id: a step added to flow.ts that saves through a call of its own does not compile until it is mapped here, so
 * the funnel never silently shows it as reached by nobody. `page`: nothing to save (a checklist, the welcome),
 * so nothing written; the page counts as passed with the step after it, and the last page with the one before it.
 */
const FINISHED_BY: Record<Exclude<StepId, AnswersStepId>, readonly string[] | 'page'> = {
  signUp: ['onboarding.registered'],
  // The e-mail code opened the application, or found a customer already (a page that ends the journey).
  'reg-code': ['onboarding.application_created', 'onboarding.already_exists'],
  // The number is saved as its first code is sent.
  'contact-phone': ['onboarding.phone_code_sent'],
  'confirm-telephone': ['onboarding.phone_confirmed'],
  'requirements-freelance': 'page',
  'requirements-company': 'page',
  'divilo-password': ['onboarding.password_set'],
  'check-identity': ['onboarding.identity_check_started'],
  // A result that sends the applicant on to the contract; a rejection sends them back to the photos.
  'check-identity-waiting': ['onboarding.identity_check_approved', 'onboarding.identity_check_needs_review'],
  'docu-sign': ['onboarding.contract_signed'],
  welcome: 'page',
};

const STEP_SAVED = 'onboarding.step_saved';
const REGISTERED = 'onboarding.registered';
const CREATED = 'onboarding.application_created';
const RESUMED = 'onboarding.application_resumed';
const ALREADY_EXISTS = 'onboarding.already_exists';
const DECISIONS = new Map<string, FunnelDecision['decision']>([
  ['onboarding.review_approved', 'approved'],
  ['onboarding.review_rejected', 'rejected'],
]);
const DECISION_ACTIONS = [...DECISIONS.keys()];

/** The step each entry of FINISHED_BY finishes. */
const STEP_OF_ACTION = new Map(
  Object.entries(FINISHED_BY).flatMap(([step, actions]) => (actions === 'page' ? [] : actions.map((action) => [action, step as StepId] as const))),
);
const isPage = (step: StepId) => (FINISHED_BY as Partial<Record<StepId, unknown>>)[step] === 'page';

/**
 * Entries written under the sign-up, before there is an application (its subject is `registration:<id>`), read
 * with the period: besides finishing signUp and reg-code (as FINISHED_BY says), they tie an application to the
 * sign-up that opened or resumed it.
 */
const SIGN_UP_ACTIONS = [REGISTERED, CREATED, RESUMED, ALREADY_EXISTS];
/** Entries written under the application: its steps after the sign-up. */
const TRAIL_ACTIONS = [STEP_SAVED, ...[...STEP_OF_ACTION.keys()].filter((action) => !SIGN_UP_ACTIONS.includes(action))];

/** What the log says of one applicant's journey. */
interface Trail {
  /** When each step was first finished (milliseconds): going back and saving again does not move it. */
  finishedAt: Map<StepId, number>;
  path?: 'freelance' | 'company';
  /** Sent to a page that ends the journey: a customer already, or someone the bank does not serve. */
  turnedAway: boolean;
}

const newTrail = (): Trail => ({ finishedAt: new Map(), turnedAway: false });

const pathOf = (id: unknown) => {
  const path = typeof id === 'string' ? stepById(id)?.path : undefined;
  return path === 'freelance' || path === 'company' ? path : undefined;
};

/** Records an entry of the application's trail (entries come in the order they were written). */
function follow(trail: Trail, action: string, at: number, details: Record<string, unknown>): void {
  const step = action === STEP_SAVED ? stepById(String(details.step))?.id : STEP_OF_ACTION.get(action);
  if (step && !trail.finishedAt.has(step)) trail.finishedAt.set(step, at);
  if (action !== STEP_SAVED) return;
  // The page a save led to says the path (register-as picks it; the last choice counts). Entries written before
  // saves recorded it say it by the path's own steps.
  trail.path = pathOf(details.next) ?? pathOf(details.step) ?? trail.path;
  if ((OUTCOME_IDS as readonly unknown[]).includes(details.next)) trail.turnedAway = true;
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const value = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
  return Math.round(value / 1000);
}

const detailsOf = (text: string | null): Record<string, unknown> => (text ? (JSON.parse(text) as Record<string, unknown>) : {});

/**
 * The funnel of the applicants who signed up in [from, to) on `path` ('all': both paths, and those who had not
 * chosen one yet), and the decisions taken in [from, to) on applications of that path. Two queries: the period's
 * sign-ups and decisions (and the applications the sign-ups opened, up to a sign-up's lifetime later), then the
 * steps of those applications, by subject; the rest is counted here.
 */
export async function funnelOf(db: Kysely<Database>, { from, to, path }: FunnelQuery, journeyOf: JourneyOf = journey): Promise<Funnel> {
  const openedBy = new Date(to.getTime() + REGISTRATION_SECONDS * 1000);
  const inPeriod = (at: number) => at >= from.getTime() && at < to.getTime();
  const period = await db
    .selectFrom('audit_log')
    .select(['occurred_at', 'actor', 'action', 'subject'])
    .where('action', 'in', [...SIGN_UP_ACTIONS, ...DECISION_ACTIONS])
    .where('occurred_at', '>=', toDbTime(from))
    .where('occurred_at', '<', toDbTime(openedBy))
    .orderBy('id')
    .execute();
  const trails = await db
    .selectFrom('audit_log')
    .select(['occurred_at', 'action', 'subject', 'details'])
    .where('action', 'in', TRAIL_ACTIONS)
    .where('subject', 'in', (sub) =>
      sub
        .selectFrom('audit_log')
        .select('subject')
        .where('action', 'in', [CREATED, ...DECISION_ACTIONS])
        .where('occurred_at', '>=', toDbTime(from))
        .where('occurred_at', '<', toDbTime(openedBy)),
    )
    .orderBy('id')
    .execute();

  // Applicants are keyed by their sign-up; an application by the sign-up that opened it.
  const applicants = new Map<string, Trail>();
  const openedBySignUp = new Map<string, string>();
  const decided: { decision: FunnelDecision['decision']; subject: string; at: number }[] = [];
  for (const row of period) {
    const at = Date.parse(row.occurred_at);
    if (row.action === REGISTERED && inPeriod(at)) {
      applicants.set(row.subject, { ...newTrail(), finishedAt: new Map([['signUp', at]]) });
    } else if (row.action === CREATED && applicants.has(row.actor)) {
      applicants.get(row.actor)!.finishedAt.set('reg-code', at);
      openedBySignUp.set(row.subject, row.actor);
    } else if (row.action === RESUMED) {
      // The applicant who came back is counted once, from the sign-up that opened the application.
      applicants.delete(row.actor);
    } else if (row.action === ALREADY_EXISTS && applicants.has(row.subject)) {
      const applicant = applicants.get(row.subject)!;
      applicant.finishedAt.set('reg-code', at);
      applicant.turnedAway = true;
    } else if (DECISIONS.has(row.action) && inPeriod(at)) {
      decided.push({ decision: DECISIONS.get(row.action)!, subject: row.subject, at });
    }
  }
  // An application's entries go on its applicant's trail; those of an application decided in the period but
  // opened before it, on one of its own.
  const trailOf = new Map<string, Trail>();
  for (const [application, signUp] of openedBySignUp) {
    const applicant = applicants.get(signUp);
    if (applicant) trailOf.set(application, applicant);
  }
  for (const row of trails) {
    let trail = trailOf.get(row.subject);
    if (!trail) trailOf.set(row.subject, (trail = newTrail()));
    follow(trail, row.action, Date.parse(row.occurred_at), detailsOf(row.details));
  }

  const journeys = { freelance: journeyOf({ personType: 'freelance' }), company: journeyOf({ personType: 'company' }) };
  // Before choosing a path, an applicant walks the steps both paths share.
  const shared = journeys.freelance.slice(0, journeys.freelance.findIndex((step, index) => journeys.company[index]?.id !== step.id));
  const shown =
    path === 'all' ? STEPS.filter((step) => [...journeys.freelance, ...journeys.company].some((walked) => walked.id === step.id)) : journeys[path];
  const counts = new Map(shown.map((step) => [step.id, { reached: 0, stoppedHere: 0, durations: [] as number[] }]));

  let started = 0;
  for (const applicant of applicants.values()) {
    if (path !== 'all' && applicant.path !== path) continue;
    started += 1;
    const steps = applicant.path ? journeys[applicant.path] : shared;
    // Steps are finished in their order (each call checks the earlier ones are done): the furthest finished says
    // how far the applicant went, pages without a record included; the last page is reached with the step before.
    let furthest = steps.findLastIndex((step) => applicant.finishedAt.has(step.id));
    if (furthest === steps.length - 2 && isPage(steps[steps.length - 1].id)) furthest += 1;
    let since: number | undefined;
    steps.slice(0, furthest + 1).forEach((step) => {
      const count = counts.get(step.id);
      const at = applicant.finishedAt.get(step.id);
      if (count) count.reached += 1;
      if (at === undefined) return;
      if (count && since !== undefined) count.durations.push(at - since);
      since = at;
    });
    const current = steps[furthest + 1];
    if (current && !applicant.turnedAway) {
      const count = counts.get(current.id);
      if (count) count.stoppedHere += 1;
    }
  }

  const decisions = (['approved', 'rejected'] as const).map((decision) => {
    const taken = decided.filter((entry) => entry.decision === decision && (path === 'all' || trailOf.get(entry.subject)?.path === path));
    const waits = taken.flatMap((entry) => {
      const signedAt = trailOf.get(entry.subject)?.finishedAt.get('docu-sign');
      return signedAt === undefined ? [] : [entry.at - signedAt];
    });
    return { decision, count: taken.length, medianWaitSeconds: median(waits) };
  });

  return {
    from,
    to,
    path,
    started,
    steps: shown.map((step) => {
      const count = counts.get(step.id)!;
      return { step: step.id, reached: count.reached, stoppedHere: count.stoppedHere, medianSeconds: median(count.durations) };
    }),
    decisions,
  };
}
