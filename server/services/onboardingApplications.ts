// The onboarding application as the wizard sees it, and the decision an e-mail code confirms: a new
// application, one to resume (another device, a cleared browser), or an applicant who is a customer already.
import { flowAnswersOf, journey, nextStepOf, type OutcomeId, type StepId } from '../../src/onboarding/flow';
import { isServedEntity } from '../../src/validation/onboarding';
import type { Application, ApplicationRepository, Registration } from '../repositories/applicationRepository';
import type { IdentityService } from './identity';
import type { IdDocumentHoldRepository } from '../repositories/idDocumentHoldRepository';
import { withoutReviewNotes } from './identityCheck';

/**
 * How long a sign-up waits for its e-mail code (the code itself expires sooner; a resend stays within this): an
 * application is opened no later than this after its sign-up.
 */
export const REGISTRATION_SECONDS = 3600;

/** The steps a registration confirmed by its e-mail code has done. */
const REGISTERED_STEPS: StepId[] = ['signUp', 'reg-code'];

/** The page after `step` for this application, by the flow's rule: no route names its neighbour. */
export function nextAfter(step: StepId, application: Pick<Application, 'answers' | 'personType'>): StepId | OutcomeId {
  return nextStepOf(step, flowAnswersOf(application.answers, application.personType));
}

/** `ana.garcia@example.com` → `a***@example.com`: enough for the applicant to recognise, little for anyone else. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at <= 0 ? '***' : `${email[0]}***${email.slice(at)}`;
}

/**
 * Where a reload or another device resumes: the first step of the applicant's journey that saves something and
 * is not done, or the page without a call just before it (a checklist, the identity check's wait).
 */
export function currentStepOf(application: Pick<Application, 'answers' | 'personType' | 'completedSteps'>): string {
  const steps = journey(flowAnswersOf(application.answers, application.personType));
  const index = steps.findIndex((step) => step.endpoint !== undefined && !application.completedSteps.includes(step.id));
  if (index < 0) return steps[steps.length - 1].id;
  const before = steps[index - 1];
  return before && before.endpoint === undefined && !application.completedSteps.includes(before.id) ? before.id : steps[index].id;
}

/** The page of an application the bank cannot serve: a company of a refused entity type, or the person. */
function closedPageOf(application: Application): 'company-error' | 'forbidden-user' {
  return application.personType === 'company' && typeof application.answers.cif === 'string' && !isServedEntity(application.answers.cif) ? 'company-error' : 'forbidden-user';
}

/** What the SPA gets of an application: the answers (never a secret), the steps done and where to go on. */
export function applicationView(application: Application) {
  const moreInfo = (application.answers.review as { moreInfo?: { steps: string[]; text: string } } | undefined)?.moreInfo;
  return {
    id: application.id,
    status: application.status,
    personType: application.personType,
    // An applicant the bank cannot serve stays on the page that says so: the company's or the person's.
    currentStep: application.status === 'not-allowed' ? closedPageOf(application) : currentStepOf(application),
    completedSteps: application.completedSteps,
    answers: withoutReviewNotes(application.answers),
    maskedEmail: maskEmail(application.email),
    // What the bank asked this applicant to change, while they are changing it: the wizard shows it on those steps.
    ...(application.status === 'in-progress' && moreInfo ? { requestedChanges: { steps: moreInfo.steps, text: moreInfo.text } } : {}),
  };
}

type ConfirmedRegistration = { outcome: 'already-exists' } | { outcome: 'resumed' | 'created'; application: Application };

/**
 * What a registration confirmed by its e-mail code leads to. An ID document is taken only by a verified identity:
 * a user in the identity service with this ID document (a customer, or an applicant whose identity was verified),
 * or an application holding it → already-exists, unless that application is this applicant's own (same e-mail):
 * resumed. An application of this e-mail sent for review or approved → already-exists. This applicant's own
 * application of this ID document, refused or in progress → resumed (a refused one on its refusal page: it stays
 * refused). Otherwise (another e-mail's unverified application of this ID included) a new application with the
 * sign-up answers: the bank sees both, and the first verified holds the document.
 */
export async function confirmRegistration(
  registration: Registration,
  deps: { applications: ApplicationRepository; identity: Pick<IdentityService, 'getUser'>; holds: Pick<IdDocumentHoldRepository, 'holderOf'> },
  now: Date,
): Promise<ConfirmedRegistration> {
  const existing = await deps.applications.findByApplicant(registration.idDocument, registration.email);
  // A refused application stays refused: its applicant comes back to the page that says why, never to a new one.
  const mine = existing.filter((application) => application.idDocument === registration.idDocument && application.email === registration.email);
  const own = mine.find((application) => application.status === 'not-allowed') ?? mine.find((application) => application.status === 'in-progress');
  const holder = await deps.holds.holderOf(registration.idDocument);
  if (holder !== undefined) return holder === own?.id ? { outcome: 'resumed', application: own } : { outcome: 'already-exists' };
  if (await deps.identity.getUser(registration.idDocument)) return { outcome: 'already-exists' };
  if (existing.some((application) => application.email === registration.email && (application.status === 'pending-review' || application.status === 'approved'))) return { outcome: 'already-exists' };
  if (own) return { outcome: 'resumed', application: own };
  const application = await deps.applications.createUnlessOpen(
    {
      email: registration.email,
      idDocument: registration.idDocument,
      answers: { ...registration.answers, email: registration.email, id: registration.idDocument, idType: registration.idType },
      completedSteps: REGISTERED_STEPS,
      language: registration.language,
    },
    now,
  );
  // Another sign-up of this applicant was confirmed at the same moment and created theirs: this one resumes it.
  if (!application) return confirmRegistration(registration, deps, now);
  return { outcome: 'created', application };
}
