// The bank's review of applications (npm run admin): list them, look at one, decide its identity check, approve
// or reject it. Only a signed application (pending review) whose identity a reviewer (or the provider) approved
// can be approved; approval lets the customer sign in (the identity service's onboarding status) and tells them
// by e-mail. A decision is recorded with those effects, pending, in one transaction; they are then carried out
// and marked done one by one, so a run stopped half-way (the user pool unreachable) is finished by the next run
// of the same decision or by housekeeping, and never strands an application approved but closed.
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { auditLogRepository, type AuditEntry, type AuditLogRepository, type AuditRecord } from '../repositories/auditLogRepository';
import { applicationRepository, type Application, type ApplicationRepository } from '../repositories/applicationRepository';
import { reviewEffectRepository, type ReviewEffect, type ReviewEffectName } from '../repositories/reviewEffectRepository';
import { contractRepository, type ContractRepository } from '../repositories/contractRepository';
import type { ReviewTemplateRepository } from '../repositories/reviewTemplateRepository';
import { changeApplication, type ChangeRefusals } from './applicationChanges';
import type { IdentityService } from './identity';
import type { MessageSender } from './messaging/types';
import { moreInfoNotice, reviewNotice } from './messaging/texts';
import { ONBOARDING_STATUS_ATTRIBUTE } from './onboardingGate';
import { identityCheckOf, PHOTOS_STEP, WAITING_STEP, type IdentityCheckState } from './identityCheck';
import { currentStepOf } from './onboardingApplications';
import { riskOf, type HighRiskCountries } from './risk';
import { flowAnswersOf, journey, type StepId } from '../../src/onboarding/flow';
import { IdDocumentHeldError, type SignInUsers } from './signInUsers';

export interface ReviewDependencies {
  db: Kysely<Database>;
  /** The application's checked documents, each with a link that works for a few minutes. */
  documents?: (applicationId: string) => Promise<
    { kind: string; key: string; size: number; checkedAt: string; link: string; sha256?: string; evidence?: 'matches' | 'does not match' | 'missing' | 'not frozen yet' }[]
  >;
  applications: ApplicationRepository;
  contracts: ContractRepository;
  identity: Pick<IdentityService, 'updateAttributes'>;
  signInUsers: Pick<SignInUsers, 'claim' | 'ensureUser' | 'release' | 'holds'>;
  auditLog: AuditLogRepository;
  messages: MessageSender;
  /** The bank's number the rejection notice gives (SUPPORT_PHONE, as the app shows it). */
  supportPhone: string;
  /** Where an applicant asked for more information picks up their application: the sign-up page (PUBLIC_URL/signUp). */
  resumeUrl: string;
  /** The FATF lists as they are now: an application high risk under them needs four eyes, whatever its saved risk. */
  highRiskCountries: HighRiskCountries;
  /** Locks the application's evidence copies for as long as the law keeps them after this decision (retention.ts). */
  evidence: { retain(applicationId: string, decision: 'approved' | 'rejected', decidedAt: Date): Promise<unknown> };
}

/** Why a review action was refused, stable for the back office's API (the message says it to a person). */
export type ReviewRefusal =
  | 'APPLICATION_NOT_FOUND'
  | 'CONCURRENT_CHANGE'
  | 'ALREADY_DECIDED'
  | 'NOT_DECIDABLE'
  | 'IDENTITY_NOT_APPROVED'
  | 'ID_DOCUMENT_HELD'
  | 'SECOND_APPROVER_NEEDED'
  | 'REASON_REQUIRED'
  | 'TEMPLATE_NOT_FOUND'
  | 'EFFECTS_PENDING'
  | 'SIGN_IN_USER_PENDING'
  | 'STEP_NOT_REOPENABLE'
  | 'INVALID_REQUEST';

export class ReviewError extends Error {
  constructor(
    message: string,
    readonly code: ReviewRefusal = 'INVALID_REQUEST',
  ) {
    super(message);
  }
}

/**
 * Who decides: a reviewer named at the command line (`npm run admin`, recorded as `reviewer:<name>`), or a staff
 * member signed in to the back office (`staff:<username>`). Four eyes compares these.
 */
export type Decider = string | { username: string };

const actorOf = (who: Decider) => (typeof who === 'string' ? `reviewer:${who}` : `staff:${who.username}`);
const nameOf = (who: Decider) => (typeof who === 'string' ? who : who.username);

/**
 * Whether two recorded actors are one person for four eyes: the same name, whichever way they decided (a member
 * who approved in the back office and again at the command line under their username is one approver). The
 * command line's names are taken on trust; the back office's are signed in.
 */
export const samePerson = (actor: string, other: string) => {
  // A name typed at the command line as `staff:<username>` is recorded `reviewer:staff:<username>`: every prefix goes.
  const person = (recorded: string) => recorded.replace(/^((reviewer|staff):)+/, '').trim().toLowerCase();
  return person(actor) === person(other);
};

/** A missing application, or one that kept changing, told to the reviewer. */
const REVIEW_REFUSALS = (id: string): ChangeRefusals => ({
  missing: () => new ReviewError(`No application ${id}`, 'APPLICATION_NOT_FOUND'),
  changed: () => new ReviewError(`Application ${id} changed meanwhile: try again`, 'CONCURRENT_CHANGE'),
});

/**
 * What the review keeps in an application beside the applicant's answers (never shown to the applicant): the
 * approvals a high-risk application has so far, and the words its rejection gave the applicant.
 */
export interface ReviewState {
  approvals?: { actor: string; at: string }[];
  rejection?: { templateId: string; text: string };
  /**
   * The bank's last request for more information: the steps it reopened and the words the applicant read (in
   * their language), who asked and when. Kept after the applicant signs again, as the record of the round.
   */
  moreInfo?: { steps: string[]; text: string; templateId?: string; requestedBy: string; at: string };
}

export const reviewStateOf = (application: Pick<Application, 'answers'>): ReviewState => (application.answers.review as ReviewState | undefined) ?? {};

/**
 * A high-risk application is approved by two people: the second approval is the decision. High risk as saved
 * with its answers, or under the lists as they are now (a country listed since the applicant's last save).
 */
export const needsFourEyes = (application: Pick<Application, 'riskfactor' | 'answers'>, lists: HighRiskCountries) =>
  application.riskfactor === 'high' || riskOf(application.answers, lists) === 'high';

/** The step whose save is the applicant's signature. */
const SIGNING_STEP = 'docu-sign';

/** The most a note or a reason keeps. */
export const REVIEW_TEXT_MAX = 2000;

export interface ApplicationSummary {
  id: string;
  status: string;
  path: string;
  risk: string;
  step: string;
  ageDays: number;
  email: string;
  /**
   * Whether other applications have the same ID document: `holds` (this one's identity was verified first and
   * holds it), `held-by-other` (another one holds it: this one cannot be approved), `shared` (nobody verified yet).
   */
  idShared: 'holds' | 'held-by-other' | 'shared' | undefined;
  /** The applicant's names as given at personal-info; empty before that step. */
  name: string;
}

/** Every application, newest first: status, path, risk, where it stands and how old it is. */
export async function listApplications(deps: Pick<ReviewDependencies, 'applications' | 'signInUsers'>, now: Date): Promise<ApplicationSummary[]> {
  const applications = await deps.applications.list();
  const perDocument = new Map<string, number>();
  for (const application of applications) perDocument.set(application.idDocument, (perDocument.get(application.idDocument) ?? 0) + 1);
  const holders = await deps.signInUsers.holds.holdersOf([...perDocument.keys()].filter((document) => perDocument.get(document)! > 1));
  const sharing = (application: Application): ApplicationSummary['idShared'] => {
    if ((perDocument.get(application.idDocument) ?? 0) < 2) return undefined;
    const holder = holders.get(application.idDocument);
    return holder === undefined ? 'shared' : holder === application.id ? 'holds' : 'held-by-other';
  };
  return applications.map((application) => ({
    id: application.id,
    status: application.status,
    path: application.personType ?? '-',
    risk: application.riskfactor ?? '-',
    step: currentStepOf(application),
    ageDays: Math.floor((now.getTime() - Date.parse(application.createdAt)) / 86_400_000),
    email: application.email,
    idShared: sharing(application),
    name: [application.answers.firstName, application.answers.firstSurname, application.answers.secondSurname].filter((part) => typeof part === 'string' && part.trim()).join(' '),
  }));
}

/**
 * An application's audit trail from the sign-up on. Before the application exists, its events are keyed by the
 * sign-up (`registration:<id>`: registered, e-mail codes sent and answered); the entry that opened or resumed the
 * application is written by that sign-up, so its actor leads to them. Every sign-up that resumed it is included.
 */
export async function applicationAudit(deps: Pick<ReviewDependencies, 'auditLog'>, id: string): Promise<AuditRecord[]> {
  const own = await deps.auditLog.listBySubject(`application:${id}`);
  const registrations = [...new Set(own.map((entry) => entry.actor).filter((actor) => actor.startsWith('registration:')))];
  const before = (await Promise.all(registrations.map((registration) => deps.auditLog.listBySubject(registration)))).flat();
  return [...before, ...own].sort((a, b) => a.id - b.id);
}


/** How long a run holds an effect it carries out; a run that died lets it go when this is over. */
export const EFFECT_CLAIM_SECONDS = 300;

/** What a decision does outside the database, in the order it does it. */
function effectsOf(application: Application, decision: ReviewEffect['decision']): ReviewEffectName[] {
  if (decision === 'more-info') return ['more-info-email'];
  // What the bank relied on is locked for the time the law keeps it, before anything else: a decision's evidence must
  // not be removable while its effects are still under way.
  // A rejected applicant lets go of the ID document: its hold, its sealed password and its sign-in user (named by
  // the document), which kept would stop the document's real holder (or the same person, later) from signing up.
  if (decision === 'rejected') return ['evidence-retention', 'sign-in-release', 'notice-email'];
  // The e-mail saying the account is ready goes only once the user pool lets the customer sign in.
  return application.answers.identityUserSub !== undefined ? ['evidence-retention', 'user-pool-status', 'notice-email'] : ['evidence-retention', 'notice-email'];
}

/** A decision is recorded, and some of its effects are not done yet (the message says which and why). */
export class EffectsPendingError extends ReviewError {
  constructor(
    message: string,
    readonly pending: ReviewEffectName[],
  ) {
    super(message, 'EFFECTS_PENDING');
  }
}

export interface DecisionOutcome {
  application: Application;
  /** The application had this decision before this run. */
  already: boolean;
  /** The effects this run carried out. */
  finished: ReviewEffectName[];
  /** A high-risk application's first approval was recorded: it waits for a second approver. */
  awaitingSecondApproval?: boolean;
}

/** Why an effect failed, as the table and `show` keep it: the service's error code and message, no secret in either. */
function describeFailure(error: unknown): string {
  const { code, name, message } = error as { code?: unknown; name?: unknown; message?: unknown };
  const label = typeof code === 'string' ? code : typeof name === 'string' ? name : 'Error';
  return typeof message === 'string' && message && message !== label ? `${label}: ${message}` : label;
}

/** What carrying out the effects needs. */
type EffectDependencies = Pick<ReviewDependencies, 'db' | 'identity' | 'messages' | 'signInUsers' | 'supportPhone' | 'resumeUrl' | 'evidence'>;

async function carryOut(deps: EffectDependencies, application: Application, effect: ReviewEffect, now: Date): Promise<void> {
  if (effect.effect === 'evidence-retention') {
    if (effect.decision === 'more-info') return;
    // From when the decision was recorded, whichever run carries it out.
    await deps.evidence.retain(application.id, effect.decision, new Date(effect.createdAt));
    return;
  }
  if (effect.effect === 'user-pool-status') {
    await deps.identity.updateAttributes(application.idDocument, { [ONBOARDING_STATUS_ATTRIBUTE]: effect.decision === 'approved' ? 'complete' : 'rejected' });
    return;
  }
  if (effect.effect === 'sign-in-release') {
    if (await deps.signInUsers.release(application)) {
      await auditLogRepository(deps.db).append({ actor: 'server', action: 'onboarding.sign_in_user_removed', subject: `application:${application.id}`, details: { why: 'rejected' } }, now);
    }
    return;
  }
  if (effect.effect === 'more-info-email') {
    const moreInfo = reviewStateOf(application).moreInfo;
    if (!moreInfo) return;
    const notice = moreInfoNotice(application.language, moreInfo.text, deps.resumeUrl, deps.supportPhone);
    await deps.messages.send({ channel: 'email', to: application.email, purpose: 'notice', subject: notice.subject, text: notice.text });
    return;
  }
  if (effect.decision === 'more-info') return;
  const notice = reviewNotice(effect.decision, application.language, deps.supportPhone, reviewStateOf(application).rejection?.text);
  await deps.messages.send({ channel: 'email', to: application.email, purpose: 'notice', subject: notice.subject, text: notice.text });
}

/**
 * Carries out the decision's effects not done yet, one by one and in order: each claimed (one run at a time),
 * done, then marked done. Stops at the first that fails (released with its error for the next run) or that
 * another run holds; either way the decision stays recorded and the error says what is pending.
 */
async function finishEffects(deps: EffectDependencies, application: Application, now: Date): Promise<ReviewEffectName[]> {
  const effects = reviewEffectRepository(deps.db);
  const finished: ReviewEffectName[] = [];
  const until = new Date(now.getTime() + EFFECT_CLAIM_SECONDS * 1000);
  const pendingAfter = async () => (await effects.list(application.id)).filter((effect) => effect.doneAt === null);
  for (const effect of await effects.list(application.id)) {
    if (effect.doneAt !== null) continue;
    if (!(await effects.claim(application.id, effect.effect, now, until))) {
      const pending = await pendingAfter();
      if (!pending.some((item) => item.effect === effect.effect)) continue;
      const heldUntil = pending.find((item) => item.effect === effect.effect)?.claimedUntil;
      throw new EffectsPendingError(
        `Application ${application.id} was ${application.status}; effects pending: ${pending.map((item) => item.effect).join(', ')} (another run is carrying out ${effect.effect} until ${heldUntil ?? 'now'}; run the command again after that)`,
        pending.map((item) => item.effect),
      );
    }
    try {
      await carryOut(deps, application, effect, now);
    } catch (error) {
      const why = describeFailure(error);
      await effects.release(application.id, effect.effect, why);
      const pending = await pendingAfter();
      throw new EffectsPendingError(
        `Application ${application.id} was ${application.status}, but ${effect.effect} failed (${why}); effects pending: ${pending.map((item) => item.effect).join(', ')}. Run the command again to finish them`,
        pending.map((item) => item.effect),
      );
    }
    await effects.markDone(application.id, effect.effect, now);
    finished.push(effect.effect);
  }
  return finished;
}

/**
 * Records a decision, its audit entry and its pending effects in one transaction (or nothing, when another save
 * changed the application first), so no run can leave a decision without the effects still owed for it.
 */
async function recordDecision(
  deps: ReviewDependencies,
  application: Application,
  change: Parameters<ApplicationRepository['save']>[1],
  audits: AuditEntry[],
  decision: ReviewEffect['decision'] | undefined,
  now: Date,
): Promise<Application | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    const saved = await applicationRepository(trx).save(application, change, now);
    if (!saved) return undefined;
    if (decision === 'more-info') {
      // The applicant signs again: the contract they signed stays, whole, among the superseded.
      await contractRepository(trx).supersede(application.id, now);
      await reviewEffectRepository(trx).forgetDone(application.id);
    }
    const audit = auditLogRepository(trx);
    for (const entry of audits) await audit.append(entry, now);
    if (decision) await reviewEffectRepository(trx).record(application.id, decision, effectsOf(saved, decision), now);
    return saved;
  });
}

/** How a decision is taken: who, and for a rejection the reason kept and the words the applicant gets. */
interface DecisionInput {
  who: Decider;
  reason?: string;
  rejection?: ReviewState['rejection'];
}

async function decide(deps: ReviewDependencies, id: string, decision: 'approved' | 'rejected', input: DecisionInput, now: Date): Promise<DecisionOutcome> {
  const actor = actorOf(input.who);
  return changeApplication(deps.applications, id, REVIEW_REFUSALS(id), async (application) => {
    if (application.status === 'approved' || application.status === 'rejected') {
      // The same decision again finishes what the first run left; the other one is refused.
      if (application.status !== decision) throw new ReviewError(`Application ${id} was ${application.status} already: it cannot be ${decision}`, 'ALREADY_DECIDED');
      return { application, already: true, finished: await finishEffects(deps, application, now) };
    }
    if (decision === 'approved' && application.status !== 'pending-review') {
      throw new ReviewError(`Application ${id} is ${application.status}: only a signed application (pending-review) can be approved`, 'NOT_DECIDABLE');
    }
    const identity = identityCheckOf(application)?.status ?? 'not checked';
    if (decision === 'approved' && identity !== 'approved') {
      throw new ReviewError(`Application ${id} cannot be approved: its identity check is ${identity}. Decide the photos first (identity ${id} approve, or reject with a reason)`, 'IDENTITY_NOT_APPROVED');
    }
    const review = reviewStateOf(application);
    const approvals = review.approvals ?? [];
    const fourEyes = needsFourEyes(application, deps.highRiskCountries);
    if (decision === 'approved' && fourEyes) {
      if (approvals.some((approval) => samePerson(approval.actor, actor))) {
        throw new ReviewError(`Application ${id} is high risk and ${actor} approved it already: a second approver must approve it`, 'SECOND_APPROVER_NEEDED');
      }
      if (approvals.length === 0) {
        // The first of two approvals: recorded, and nothing else happens until another approver agrees.
        const first = { answers: { ...application.answers, review: { ...review, approvals: [{ actor, at: now.toISOString() }] } } };
        const audit: AuditEntry = { actor, action: 'onboarding.review_first_approval', subject: `application:${id}`, details: { riskfactor: application.riskfactor } };
        const saved = await recordDecision(deps, application, first, [audit], undefined, now);
        return saved && { application: saved, already: false, finished: [], awaitingSecondApproval: true };
      }
    }
    let ready = application;
    if (decision === 'approved') {
      // Held since the identity was verified; claimed here for an application verified before documents were held.
      await claimOrRefuse(deps, application, now);
      // The sign-in user is made at verification; made here if that failed half-way (nothing recorded if it fails).
      if (application.answers.identityUserSub === undefined) {
        ready = await deps.signInUsers.ensureUser(application, now).catch((error: unknown) => {
          throw new ReviewError(`Application ${id} cannot be approved yet: its sign-in user could not be made (${describeFailure(error)}). Nothing was recorded; run the command again`, 'SIGN_IN_USER_PENDING');
        });
      }
    }
    const approvers = decision === 'approved' && fourEyes ? { approvers: [...approvals.map((approval) => approval.actor), actor] } : {};
    const details = { ...(input.reason ? { reason: input.reason } : {}), ...(input.rejection ? { template: input.rejection.templateId } : {}), ...approvers };
    const audit: AuditEntry = { actor, action: `onboarding.review_${decision}`, subject: `application:${id}`, details: Object.keys(details).length > 0 ? details : undefined };
    const change = input.rejection ? { status: decision, answers: { ...ready.answers, review: { ...reviewStateOf(ready), rejection: input.rejection } } } : { status: decision };
    const saved = await recordDecision(deps, ready, change, [audit], decision, now);
    // Another save came first (another reviewer's decision, or the applicant's): look again.
    if (!saved) return undefined;
    return { application: saved, already: false, finished: await finishEffects(deps, saved, now) };
  });
}

/**
 * Approves an application: the customer can sign in from now on, and is told so. Approving it again finishes
 * what an interrupted run left pending (and says so); approving a rejected one is refused.
 */
export const approveApplication = (deps: ReviewDependencies, id: string, who: Decider, now: Date) => decide(deps, id, 'approved', { who }, now);

/**
 * Rejects an application with the reason the bank records. The applicant is told without it, unless a template
 * is named: then they also read the template's words in their language, as it stands at the decision.
 */
export async function rejectApplication(
  deps: ReviewDependencies & { templates?: Pick<ReviewTemplateRepository, 'find'> },
  id: string,
  reason: string,
  who: Decider,
  now: Date,
  templateId?: string,
): Promise<DecisionOutcome> {
  const why = reason.trim();
  if (!why) throw new ReviewError('A rejection needs a reason', 'REASON_REQUIRED');
  if (why.length > REVIEW_TEXT_MAX) throw new ReviewError(`A reason has at most ${REVIEW_TEXT_MAX} characters`);
  if (templateId === undefined) return decide(deps, id, 'rejected', { who, reason: why }, now);
  const template = await deps.templates?.find(templateId);
  if (!template || template.kind !== 'rejection' || template.retired) throw new ReviewError(`No rejection template ${templateId}`, 'TEMPLATE_NOT_FOUND');
  const application = await deps.applications.find(id);
  if (!application) throw REVIEW_REFUSALS(id).missing();
  return decide(deps, id, 'rejected', { who, reason: why, rejection: { templateId, text: template.body[application.language] } }, now);
}

/**
 * The steps the bank may send an applicant back to: those of their business on their path (their activity,
 * address, taxes, company, owners and documents). Who they are and their phone were checked, and their photos are decided on their
 * own (identity … reject); the password is theirs.
 */
export function reopenableSteps(application: Pick<Application, 'answers' | 'personType'>): StepId[] {
  return journey(flowAnswersOf(application.answers, application.personType))
    // The path's own steps: choosing the other path (register-as) would be another application.
    .filter((step) => step.section === 'business' && step.path !== 'common' && step.endpoint !== undefined)
    .map((step) => step.id);
}

/**
 * Asks the applicant of a signed application for more information: the steps named reopen, the applicant is
 * e-mailed the template's words (in their language) and the reviewer's own, and signs again once they are done;
 * the application then waits for the bank again. The contract they signed is kept among the superseded.
 */
export async function requestMoreInformation(
  deps: ReviewDependencies & { templates?: Pick<ReviewTemplateRepository, 'find'> },
  id: string,
  request: { steps: string[]; templateId?: string; message?: string },
  who: Decider,
  now: Date,
): Promise<Application> {
  const message = request.message?.trim() ?? '';
  if (message.length > REVIEW_TEXT_MAX) throw new ReviewError(`A message has at most ${REVIEW_TEXT_MAX} characters`);
  if (!message && request.templateId === undefined) throw new ReviewError('Say what the applicant must do: a template, a message or both', 'REASON_REQUIRED');
  const template = request.templateId === undefined ? undefined : await deps.templates?.find(request.templateId);
  if (request.templateId !== undefined && (!template || template.kind !== 'more-info' || template.retired)) {
    throw new ReviewError(`No template ${request.templateId} for a request for more information`, 'TEMPLATE_NOT_FOUND');
  }
  const actor = actorOf(who);
  return changeApplication(deps.applications, id, REVIEW_REFUSALS(id), async (application) => {
    if (application.status === 'approved' || application.status === 'rejected') throw new ReviewError(`Application ${id} was ${application.status} already`, 'ALREADY_DECIDED');
    if (application.status !== 'pending-review') throw new ReviewError(`Application ${id} is ${application.status}: only a signed application can be sent back to its applicant`, 'NOT_DECIDABLE');
    const reopenable = reopenableSteps(application);
    const steps = reopenable.filter((step) => request.steps.includes(step));
    const refused = request.steps.filter((step) => !(reopenable as string[]).includes(step));
    if (steps.length === 0 || refused.length > 0) {
      throw new ReviewError(`Name steps of this application's business to reopen (${reopenable.join(', ')})${refused.length > 0 ? `, not ${refused.join(', ')}` : ''}`, 'STEP_NOT_REOPENABLE');
    }
    const text = [template?.body[application.language], message].filter(Boolean).join('\n\n');
    // A new round: new answers, a new signature, and the approvals given on the old ones no longer count.
    const review: ReviewState = { ...reviewStateOf(application), approvals: [], moreInfo: { steps, text, ...(template ? { templateId: template.id } : {}), requestedBy: actor, at: now.toISOString() } };
    const change = {
      status: 'in-progress' as const,
      answers: { ...application.answers, review },
      completedSteps: application.completedSteps.filter((step) => step !== SIGNING_STEP && !(steps as string[]).includes(step)),
    };
    const audit: AuditEntry = { actor, action: 'onboarding.review_more_info_requested', subject: `application:${id}`, details: { steps, ...(template ? { template: template.id } : {}), ...(message ? { message } : {}) } };
    const saved = await recordDecision(deps, application, change, [audit], 'more-info', now);
    if (!saved) return undefined;
    await finishEffects(deps, saved, now);
    return saved;
  });
}

/** An internal note on an application, for the other reviewers: kept in its audit trail, never shown to the applicant. */
export async function addNote(deps: Pick<ReviewDependencies, 'applications' | 'auditLog'>, id: string, text: string, who: Decider, now: Date): Promise<void> {
  const note = text.trim();
  if (!note) throw new ReviewError('A note needs some text', 'REASON_REQUIRED');
  if (note.length > REVIEW_TEXT_MAX) throw new ReviewError(`A note has at most ${REVIEW_TEXT_MAX} characters`);
  if (!(await deps.applications.find(id))) throw REVIEW_REFUSALS(id).missing();
  await deps.auditLog.append({ actor: actorOf(who), action: 'onboarding.review_note', subject: `application:${id}`, details: { note } }, now);
}

/** The effects of decisions still to do, each with its attempts and last error (for `show`). */
export async function pendingEffects(deps: Pick<ReviewDependencies, 'db'>, id: string): Promise<ReviewEffect[]> {
  return (await reviewEffectRepository(deps.db).list(id)).filter((effect) => effect.doneAt === null);
}

/**
 * Housekeeping's pass: finishes the pending effects of up to `limit` decisions that no run holds. Answers how
 * many decisions it finished; one that still fails waits for the next pass (or the reviewer's next run).
 */
export async function finishPendingDecisions(deps: EffectDependencies & Pick<ReviewDependencies, 'applications'>, now: Date, limit = 20): Promise<{ finished: number; failed: number }> {
  let finished = 0;
  let failed = 0;
  for (const id of await reviewEffectRepository(deps.db).applicationsWithPendingEffects(now, limit)) {
    const application = await deps.applications.find(id);
    if (!application) continue;
    try {
      await finishEffects(deps, application, now);
      finished += 1;
    } catch (error) {
      if (!(error instanceof EffectsPendingError)) throw error;
      failed += 1;
    }
  }
  return { finished, failed };
}

type IdentityDecision = 'approve' | 'reject';

/** Takes the application's ID document, or refuses with what the reviewer needs to know: who holds it. */
async function claimOrRefuse(deps: ReviewDependencies, application: Application, now: Date): Promise<void> {
  try {
    await deps.signInUsers.claim(application, now);
  } catch (error) {
    if (!(error instanceof IdDocumentHeldError)) throw error;
    throw new ReviewError(
      `Application ${application.id} cannot be approved: ID document ${error.idDocument} is held by application ${error.holder}, whose identity was verified first. Reject this one with a reason`,
      'ID_DOCUMENT_HELD',
    );
  }
}

/**
 * The reviewer's decision on an identity check waiting for review (the photos, with the face detector's flags,
 * are in `show`). Approving makes the application approvable once signed. Rejecting an unsigned application
 * sends the applicant back to take the photos again (reason `reviewer-rejected`; the reviewer's words stay in
 * the audit trail); rejecting a signed one rejects the application, as the contract was signed by someone the
 * bank could not identify, and the applicant is told as any rejected applicant is.
 */
export async function decideIdentity(deps: ReviewDependencies, id: string, decision: IdentityDecision, who: Decider, now: Date, reason?: string): Promise<Application> {
  const why = reason?.trim();
  if (decision === 'reject' && !why) throw new ReviewError('Rejecting an identity needs a reason', 'REASON_REQUIRED');
  if (why && why.length > REVIEW_TEXT_MAX) throw new ReviewError(`A reason has at most ${REVIEW_TEXT_MAX} characters`);
  const actor = actorOf(who);
  return changeApplication(deps.applications, id, REVIEW_REFUSALS(id), async (application) => {
    const check = identityCheckOf(application);
    if (check?.status !== 'needs-review') {
      throw new ReviewError(`The identity check of application ${id} is ${check?.status ?? 'not started'}: only one waiting for review (needs-review) can be decided`, 'NOT_DECIDABLE');
    }
    if (application.status !== 'in-progress' && application.status !== 'pending-review') throw new ReviewError(`Application ${id} was ${application.status} already`, 'ALREADY_DECIDED');
    const checked: IdentityCheckState = {
      ...check,
      status: decision === 'approve' ? 'approved' : 'rejected',
      decidedAt: now.toISOString(),
      reviewer: nameOf(who),
      ...(decision === 'reject' ? { reason: 'reviewer-rejected' } : {}),
    };
    const answers = { ...application.answers, identityCheck: checked };
    const signed = application.status === 'pending-review';
    // One save: the check's decision and what it does to the application never part.
    const change =
      decision === 'approve'
        ? { answers }
        : signed
          ? { answers, status: 'rejected' as const }
          : { answers, completedSteps: application.completedSteps.filter((step) => step !== PHOTOS_STEP && step !== WAITING_STEP) };
    const audits: AuditEntry[] = [
      { actor, action: `onboarding.identity_check_${checked.status}`, subject: `application:${id}`, details: { provider: check.provider, ...(why && decision === 'reject' ? { reason: why } : {}) } },
    ];
    const rejectsApplication = decision === 'reject' && signed;
    if (rejectsApplication) audits.push({ actor, action: 'onboarding.review_rejected', subject: `application:${id}`, details: { reason: `Identity rejected: ${why}` } });
    // A verified identity takes its ID document first: refused (nothing recorded) when another verified one holds it.
    if (decision === 'approve') await claimOrRefuse(deps, application, now);
    const saved = await recordDecision(deps, application, change, audits, rejectsApplication ? 'rejected' : undefined, now);
    if (!saved) return undefined;
    if (rejectsApplication) await finishEffects(deps, saved, now);
    return decision === 'approve' ? deps.signInUsers.ensureUser(saved, now) : saved;
  });
}
