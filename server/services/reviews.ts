// The bank's review of applications (npm run admin): list them, look at one, decide its identity check, approve
// or reject it. Only a signed application (pending review) whose identity a reviewer (or the provider) approved
// can be approved; approval lets the customer sign in (the identity service's onboarding status) and tells them
// by e-mail.
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import type { AuditLogRepository } from '../repositories/auditLogRepository';
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';
import type { ContractRepository } from '../repositories/contractRepository';
import type { IdentityService } from './identity';
import type { MessageSender } from './messaging/types';
import { reviewNotice } from './messaging/texts';
import { ONBOARDING_STATUS_ATTRIBUTE } from './onboardingGate';
import { identityCheckOf, PHOTOS_STEP, WAITING_STEP, type IdentityCheckState } from './identityCheck';
import { currentStepOf } from './onboardingApplications';

export interface ReviewDependencies {
  db: Kysely<Database>;
  /** The application's checked documents, each with a link that works for a few minutes. */
  documents?: (applicationId: string) => Promise<{ kind: string; key: string; size: number; checkedAt: string; link: string }[]>;
  applications: ApplicationRepository;
  contracts: ContractRepository;
  identity: Pick<IdentityService, 'updateAttributes'>;
  auditLog: AuditLogRepository;
  messages: MessageSender;
  /** The bank's number the rejection notice gives (SUPPORT_PHONE, as the app shows it). */
  supportPhone: string;
}

export class ReviewError extends Error {}

export interface ApplicationSummary {
  id: string;
  status: string;
  path: string;
  risk: string;
  step: string;
  ageDays: number;
  email: string;
}

/** Every application, newest first: status, path, risk, where it stands and how old it is. */
export async function listApplications(deps: Pick<ReviewDependencies, 'db' | 'applications'>, now: Date): Promise<ApplicationSummary[]> {
  const rows = await deps.db.selectFrom('onboarding_applications').select('id').orderBy('created_at', 'desc').execute();
  const applications = await Promise.all(rows.map((row) => deps.applications.find(row.id)));
  return applications
    .filter((application): application is Application => application !== undefined)
    .map((application) => ({
      id: application.id,
      status: application.status,
      path: application.personType ?? '-',
      risk: application.riskfactor ?? '-',
      step: currentStepOf(application),
      ageDays: Math.floor((now.getTime() - Date.parse(application.createdAt)) / 86_400_000),
      email: application.email,
    }));
}


async function decide(deps: ReviewDependencies, id: string, decision: 'approved' | 'rejected', reviewer: string, now: Date, reason?: string): Promise<Application> {
  const application = await deps.applications.find(id);
  if (!application) throw new ReviewError(`No application ${id}`);
  if (application.status === 'approved' || application.status === 'rejected') throw new ReviewError(`Application ${id} was ${application.status} already`);
  if (decision === 'approved' && application.status !== 'pending-review') throw new ReviewError(`Application ${id} is ${application.status}: only a signed application (pending-review) can be approved`);
  const identity = identityCheckOf(application)?.status ?? 'not checked';
  if (decision === 'approved' && identity !== 'approved') {
    throw new ReviewError(`Application ${id} cannot be approved: its identity check is ${identity}. Decide the photos first (identity ${id} approve, or reject with a reason)`);
  }
  const saved = await deps.applications.save(application, { status: decision }, now);
  if (!saved) throw new ReviewError(`Application ${id} changed meanwhile: try again`);
  return decided(deps, saved, decision, reviewer, now, reason);
}

/** What follows a saved decision: the sign-in user's status, the audit entry, and the applicant's notice. */
async function decided(deps: ReviewDependencies, application: Application, decision: 'approved' | 'rejected', reviewer: string, now: Date, reason?: string): Promise<Application> {
  const { id } = application;
  if (application.answers.identityUserSub !== undefined) {
    await deps.identity.updateAttributes(application.idDocument, { [ONBOARDING_STATUS_ATTRIBUTE]: decision === 'approved' ? 'complete' : 'rejected' });
  }
  const subject = `application:${id}`;
  await deps.auditLog.append({ actor: `reviewer:${reviewer}`, action: `onboarding.review_${decision}`, subject, details: reason ? { reason } : undefined }, now);
  const notice = reviewNotice(decision, application.language, deps.supportPhone);
  await deps.messages.send({ channel: 'email', to: application.email, purpose: 'notice', subject: notice.subject, text: notice.text });
  return application;
}

/** Approves an application: the customer can sign in from now on, and is told so. */
export const approveApplication = (deps: ReviewDependencies, id: string, reviewer: string, now = new Date()) => decide(deps, id, 'approved', reviewer, now);

/** Rejects an application with the reason the bank records (the customer is told without it). */
export async function rejectApplication(deps: ReviewDependencies, id: string, reason: string, reviewer: string, now = new Date()): Promise<Application> {
  if (!reason.trim()) throw new ReviewError('A rejection needs a reason');
  return decide(deps, id, 'rejected', reviewer, now, reason.trim());
}

export type IdentityDecision = 'approve' | 'reject';

/**
 * The reviewer's decision on an identity check waiting for review (the photos, with the face detector's flags,
 * are in `show`). Approving makes the application approvable once signed. Rejecting an unsigned application
 * sends the applicant back to take the photos again (reason `reviewer-rejected`; the reviewer's words stay in
 * the audit trail); rejecting a signed one rejects the application, as the contract was signed by someone the
 * bank could not identify, and the applicant is told as any rejected applicant is.
 */
export async function decideIdentity(deps: ReviewDependencies, id: string, decision: IdentityDecision, reviewer: string, now = new Date(), reason?: string): Promise<Application> {
  const why = reason?.trim();
  if (decision === 'reject' && !why) throw new ReviewError('Rejecting an identity needs a reason');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const application = await deps.applications.find(id);
    if (!application) throw new ReviewError(`No application ${id}`);
    const check = identityCheckOf(application);
    if (check?.status !== 'needs-review') {
      throw new ReviewError(`The identity check of application ${id} is ${check?.status ?? 'not started'}: only one waiting for review (needs-review) can be decided`);
    }
    if (application.status !== 'in-progress' && application.status !== 'pending-review') throw new ReviewError(`Application ${id} was ${application.status} already`);
    const checked: IdentityCheckState = {
      ...check,
      status: decision === 'approve' ? 'approved' : 'rejected',
      decidedAt: now.toISOString(),
      reviewer,
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
    const saved = await deps.applications.save(application, change, now);
    if (!saved) continue;
    await deps.auditLog.append(
      { actor: `reviewer:${reviewer}`, action: `onboarding.identity_check_${checked.status}`, subject: `application:${id}`, details: { provider: check.provider, ...(why && decision === 'reject' ? { reason: why } : {}) } },
      now,
    );
    if (decision === 'reject' && signed) return decided(deps, saved, 'rejected', reviewer, now, `Identity rejected: ${why}`);
    return saved;
  }
  throw new ReviewError(`Application ${id} changed meanwhile: try again`);
}
