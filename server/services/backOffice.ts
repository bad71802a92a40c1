// What the bank's back office shows: the queue of applications waiting for the bank, and one application as a
// reviewer reads it. Decisions are taken by the review's own services (reviews.ts), the same `npm run admin` uses.
import { FIELD_LABELS } from '../../src/onboarding/fieldLabels';
import { flowAnswersOf, journey, type SectionId } from '../../src/onboarding/flow';
import { isAnswersStep } from '../../src/onboarding/stepSchemas';
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';
import type { AuditRecord } from '../repositories/auditLogRepository';
import type { ContractRepository } from '../repositories/contractRepository';
import type { OnboardingDocument } from '../repositories/onboardingDocumentRepository';
import { identityCheckOf, type IdentityCheckState } from './identityCheck';
import { currentStepOf } from './onboardingApplications';
import { riskReasonsOf, type HighRiskCountries, type RiskReason } from './risk';
import { needsFourEyes, reopenableSteps, reviewStateOf, samePerson, type ReviewState } from './reviews';

/** A staff member as the back office knows them: who, and the roles (the staff pool's groups) they signed in with. */
export interface StaffMember {
  username: string;
  roles: readonly string[];
}

/** What an application waits for from the bank: its photos looked at, a decision, or a high-risk one's second approval. */
export type Awaiting = 'identity-review' | 'decision' | 'second-approval';

/** The identity check's state the queue's coarse filter looks for in the answers' JSON. */
const NEEDS_REVIEW = 'needs-review';

/** What the bank has to do with an application now, if anything. */
function awaitingOf(application: Application, lists: HighRiskCountries): Awaiting | undefined {
  const identity = identityCheckOf(application)?.status;
  if ((application.status === 'in-progress' || application.status === 'pending-review') && identity === NEEDS_REVIEW) return 'identity-review';
  if (application.status !== 'pending-review') return undefined;
  return needsFourEyes(application, lists) && (reviewStateOf(application).approvals ?? []).length > 0 ? 'second-approval' : 'decision';
}

/** Whether `member` can take the next action on an application awaiting `awaiting` (and has not taken it already). */
function canAct(member: StaffMember, application: Application, awaiting: Awaiting | undefined): boolean {
  const is = (role: string) => member.roles.includes(role);
  if (awaiting === 'identity-review') return is('reviewer') || is('approver');
  if (awaiting === 'decision') return is('approver');
  if (awaiting === 'second-approval') return is('approver') && !(reviewStateOf(application).approvals ?? []).some((approval) => samePerson(approval.actor, `staff:${member.username}`));
  return false;
}

export interface QueueFilter {
  path?: 'freelance' | 'company';
  risk?: 'low' | 'medium' | 'high';
  awaiting?: Awaiting;
  /** Only those that have waited at least this long. */
  minWaitHours?: number;
  /** Only those the member can act on now. */
  mine?: boolean;
  /** `oldest` (the default): the longest waiting first. */
  order?: 'oldest' | 'newest';
}

export interface QueueEntry {
  id: string;
  status: Application['status'];
  path: Application['personType'];
  risk: string | null;
  awaiting: Awaiting;
  /** The applicant's names as given at personal-info. */
  name: string;
  waitingSince: string;
  waitedHours: number;
  overTarget: boolean;
  approvals: number;
  canAct: boolean;
}

/** The most applications one page of the queue reads. */
const QUEUE_LIMIT = 500;

/**
 * Since when an application waits for the bank: its signature for a decision, the start of its identity check
 * for the photos' review (what the applicant did last that the bank must answer).
 */
function waitingSinceOf(application: Application & { signedAt: string | null }, awaiting: Awaiting): string {
  if (awaiting === 'identity-review') return identityCheckOf(application)?.startedAt ?? application.updatedAt;
  return application.signedAt ?? application.updatedAt;
}

const applicantName = (answers: Record<string, unknown>) =>
  [answers.firstName, answers.firstSurname, answers.secondSurname].filter((part): part is string => typeof part === 'string' && part.trim() !== '').join(' ');

/** The applications waiting for the bank, filtered and in the order asked, each measured against the target. */
export async function queueOf(
  deps: { applications: Pick<ApplicationRepository, 'listForQueue'>; highRiskCountries: HighRiskCountries },
  member: StaffMember,
  filter: QueueFilter,
  settings: { targetHours: number },
  now: Date,
): Promise<QueueEntry[]> {
  const rows = await deps.applications.listForQueue({ statuses: ['pending-review'], inProgressMentioning: NEEDS_REVIEW, path: filter.path, risk: filter.risk }, QUEUE_LIMIT);
  const entries = rows.flatMap((application): QueueEntry[] => {
    const awaiting = awaitingOf(application, deps.highRiskCountries);
    if (!awaiting) return [];
    const waitingSince = waitingSinceOf(application, awaiting);
    const waitedHours = Math.max(0, (now.getTime() - Date.parse(waitingSince)) / 3_600_000);
    return [
      {
        id: application.id,
        status: application.status,
        path: application.personType,
        risk: application.riskfactor,
        awaiting,
        name: applicantName(application.answers),
        waitingSince,
        waitedHours: Math.floor(waitedHours * 10) / 10,
        overTarget: waitedHours >= settings.targetHours,
        approvals: (reviewStateOf(application).approvals ?? []).length,
        canAct: canAct(member, application, awaiting),
      },
    ];
  });
  const kept = entries.filter(
    (entry) => (filter.awaiting === undefined || entry.awaiting === filter.awaiting) && (filter.minWaitHours === undefined || entry.waitedHours >= filter.minWaitHours) && (!filter.mine || entry.canAct),
  );
  const direction = filter.order === 'newest' ? -1 : 1;
  return kept.sort((a, b) => direction * a.waitingSince.localeCompare(b.waitingSince) || a.id.localeCompare(b.id));
}

export interface AnsweredField {
  field: string;
  /** The message id of the label the applicant saw (locales/{es,en}.json). */
  label: string;
  value: unknown;
}

export interface DocumentView {
  kind: string;
  size: number;
  checkedAt: string;
  /** Once frozen at the signature: the SHA-256 recorded then, and whether the stored copy still has it. */
  sha256?: string;
  frozenAt?: string;
  evidence: 'matches' | 'does not match' | 'missing' | 'not frozen yet';
}

/** The answers step by step, in the applicant's journey, each with the label its screen showed. */
function answeredSteps(application: Pick<Application, 'answers' | 'personType'>): { step: string; section: SectionId; fields: AnsweredField[] }[] {
  return journey(flowAnswersOf(application.answers, application.personType)).flatMap((step) => {
    if (!isAnswersStep(step.id)) return [];
    const labels = FIELD_LABELS[step.id] as Record<string, string>;
    const fields = Object.entries(labels)
      .filter(([field]) => application.answers[field] !== undefined)
      .map(([field, label]) => ({ field, label, value: application.answers[field] }));
    return fields.length > 0 ? [{ step: step.id, section: step.section, fields }] : [];
  });
}

/** Whether the stored evidence of a document still is what was frozen, by hashing it again now. */
async function documentViews(documents: OnboardingDocument[], digest: (key: string) => Promise<string | undefined>): Promise<DocumentView[]> {
  return Promise.all(
    documents.map(async (document) => {
      const base = { kind: document.kind, size: document.size, checkedAt: document.checkedAt };
      if (!document.evidenceKey || !document.sha256) return { ...base, evidence: 'not frozen yet' as const };
      const now = await digest(document.evidenceKey);
      return { ...base, sha256: document.sha256, frozenAt: document.frozenAt, evidence: now === undefined ? ('missing' as const) : now === document.sha256 ? ('matches' as const) : ('does not match' as const) };
    }),
  );
}

export interface ApplicationPage {
  id: string;
  status: Application['status'];
  path: Application['personType'];
  language: Application['language'];
  createdAt: string;
  updatedAt: string;
  currentStep: string;
  applicant: { name: string; email: string; idDocument: string; idType: unknown };
  steps: ReturnType<typeof answeredSteps>;
  documents: DocumentView[];
  identityCheck: IdentityCheckState | null;
  risk: { level: string | null; reasons: RiskReason[]; fourEyes: boolean };
  contract: { sha256: string; contractSha256: string; signedAt: string; templateVersion?: string } | null;
  /** Contracts signed before the bank asked for more information, oldest first. */
  supersededContracts: { sha256: string; signedAt: string; supersededAt: string }[];
  /** The steps a request for more information may reopen. */
  reopenable: string[];
  review: ReviewState & { awaiting: Awaiting | null; canAct: boolean };
  audit: AuditRecord[];
}

/** One application as the back office shows it: everything a reviewer needs to decide, and what they may do. */
export async function applicationPage(
  deps: {
    contracts: Pick<ContractRepository, 'find' | 'superseded'>;
    documents: (applicationId: string) => Promise<OnboardingDocument[]>;
    digest: (key: string) => Promise<string | undefined>;
    audit: (applicationId: string) => Promise<AuditRecord[]>;
    highRiskCountries: HighRiskCountries;
  },
  application: Application,
  member: StaffMember,
): Promise<ApplicationPage> {
  const contract = await deps.contracts.find(application.id);
  const awaiting = awaitingOf(application, deps.highRiskCountries);
  return {
    id: application.id,
    status: application.status,
    path: application.personType,
    language: application.language,
    createdAt: application.createdAt,
    updatedAt: application.updatedAt,
    currentStep: currentStepOf(application),
    applicant: { name: applicantName(application.answers), email: application.email, idDocument: application.idDocument, idType: application.answers.idType },
    steps: answeredSteps(application),
    documents: await documentViews(await deps.documents(application.id), deps.digest),
    identityCheck: identityCheckOf(application) ?? null,
    risk: { level: application.riskfactor, reasons: riskReasonsOf(application.answers, deps.highRiskCountries), fourEyes: needsFourEyes(application, deps.highRiskCountries) },
    contract: contract ? { sha256: contract.sha256, contractSha256: contract.contractSha256, signedAt: contract.signedAt, templateVersion: contract.templateVersion } : null,
    supersededContracts: (await deps.contracts.superseded(application.id)).map(({ sha256, signedAt, supersededAt }) => ({ sha256, signedAt, supersededAt })),
    reopenable: reopenableSteps(application),
    review: { ...reviewStateOf(application), awaiting: awaiting ?? null, canAct: canAct(member, application, awaiting) },
    audit: await deps.audit(application.id),
  };
}
