// The onboarding application as the wizard sees it, and the decision an e-mail code confirms: a new
// application, one to resume (another device, a cleared browser), or an applicant who is a customer already.
import { journey, type StepId } from '../../src/features/signup/flow';
import { isServedEntity } from '../../src/validation/onboarding';
import type { Application, ApplicationRepository, Registration } from '../repositories/applicationRepository';
import type { IdentityService } from './identity';
import { withoutReviewNotes } from './identityCheck';

/** The steps a registration confirmed by its e-mail code has done. */
export const REGISTERED_STEPS: StepId[] = ['signUp', 'reg-code'];

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
  const steps = journey({
    residenceCountry: application.answers.residenceCountry as string | undefined,
    personType: application.personType ?? '',
    cif: application.answers.cif as string | undefined,
  });
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
  return {
    id: application.id,
    status: application.status,
    personType: application.personType,
    // An applicant the bank cannot serve stays on the page that says so: the company's or the person's.
    currentStep: application.status === 'not-allowed' ? closedPageOf(application) : currentStepOf(application),
    completedSteps: application.completedSteps,
    answers: withoutReviewNotes(application.answers),
    maskedEmail: maskEmail(application.email),
  };
}

export type ConfirmedRegistration = { outcome: 'already-exists' } | { outcome: 'resumed' | 'created'; application: Application };

/**
 * What a registration confirmed by its e-mail code leads to. A customer already (a user in the identity service
 * with this ID document, or an application of this ID or e-mail sent for review or approved) → already-exists.
 * An application in progress or refused with this ID document → resumed when the e-mail is the same (a refused
 * one on its refusal page), already-exists when not (the ID is taken; support can help). Otherwise a new application with the sign-up answers.
 */
export async function confirmRegistration(
  registration: Registration,
  deps: { applications: ApplicationRepository; identity: Pick<IdentityService, 'getUser'> },
  now: Date,
): Promise<ConfirmedRegistration> {
  if (await deps.identity.getUser(registration.idDocument)) return { outcome: 'already-exists' };
  const existing = await deps.applications.findByApplicant(registration.idDocument, registration.email);
  if (existing.some((application) => application.status === 'pending-review' || application.status === 'approved')) return { outcome: 'already-exists' };
  // A refused application stays refused: the applicant comes back to the page that says why, never to a new one.
  const ofThisId = existing.filter((application) => application.idDocument === registration.idDocument);
  const open = ofThisId.find((application) => application.status === 'not-allowed') ?? ofThisId.find((application) => application.status === 'in-progress');
  if (open) return open.email === registration.email ? { outcome: 'resumed', application: open } : { outcome: 'already-exists' };
  const application = await deps.applications.create(
    {
      email: registration.email,
      idDocument: registration.idDocument,
      answers: { ...registration.answers, email: registration.email, id: registration.idDocument, idType: registration.idType },
      completedSteps: REGISTERED_STEPS,
      language: registration.language,
    },
    now,
  );
  return { outcome: 'created', application };
}
