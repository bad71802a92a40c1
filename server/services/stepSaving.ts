// Saving a wizard step's answers: the step's shared schema (src/onboarding/stepSchemas.ts, the screen runs it too),
// then what the server adds beyond it (normalise, confirm, verify, freeze), the turn, one conditional update of the
// application with its audit entries (retried on a concurrent save), the risk, and the next page from the flow.
// The routes register one call per step and hand the body here; the hand-written steps share `checkTurn`.
import { flowAnswersOf, isStep, journey, nextStepOf, type StepId } from '../../src/onboarding/flow';
import { stepSchema, type AnswersStepId } from '../../src/onboarding/stepSchemas';
import { canonicalIdDocument } from '../../src/validation';
import { entityLetterOf, isServedEntity } from '../../src/validation/entities';
import { normaliseCif, normaliseWebsite, normaliseWholeNumber } from '../../src/validation/normalise';
import { toFieldErrors, validateSchema, type FieldError } from '../../src/validation/validate';
import { ApiError } from '../apiError';
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';
import type { OnboardingDocumentRepository } from '../repositories/onboardingDocumentRepository';
import { changeApplication, type ChangeRefusals } from './applicationChanges';
import { identityFrozen } from './evidence';
import { applicationView, currentStepOf } from './onboardingApplications';
import { reviewStateOf } from './reviews';
import { riskOf } from './risk';

export interface StepSavingDependencies {
  applications: Pick<ApplicationRepository, 'find' | 'saveAudited'>;
  onboardingDocuments: Pick<OnboardingDocumentRepository, 'list'>;
  highRiskCountries: Parameters<typeof riskOf>[1];
  clock: () => Date;
}

/** What the server does with a step's answers beyond its shared schema (src/onboarding/stepSchemas.ts). */
interface StepDeclaration {
  step: AnswersStepId;
  /** How a valid body becomes answers (normalised as stored); default as sent, strings trimmed. */
  normalise?: (body: Record<string, unknown>) => Record<string, unknown>;
  /**
   * An answer that would close the application is saved only when the applicant confirmed it: the entity letter
   * the screen must name when it asks (`409 CONFIRMATION_REQUIRED { entity }`), or undefined when nothing to ask.
   */
  unconfirmedClosing?: (answers: Record<string, unknown>, body: Record<string, unknown>) => string | undefined;
  /** Checks only the server can make (a document it checked), as field errors. */
  verify?: (documents: StepSavingDependencies['onboardingDocuments'], applicationId: string, answers: Record<string, unknown>) => Promise<FieldError[]>;
  /** When the step's answers can no longer change (sending them again unchanged is still fine), and the refusal. */
  frozen?: { when: (application: Application) => boolean; code: string; message: string };
}

const trimmed = (body: Record<string, unknown>) => Object.fromEntries(Object.entries(body).map(([name, value]) => [name, typeof value === 'string' ? value.trim() : value]));

/** A website is stored with its scheme, as the rule checked it (`www.empresa.es` → `https://www.empresa.es`). */
const withWebsite = (body: Record<string, unknown>) => ({ ...trimmed(body), website: normaliseWebsite(body.website) });

/** The documents of `kinds` named in the answers must be ones the server checked for this application. */
const checkedDocuments =
  (...kinds: string[]) =>
  async (checked: StepSavingDependencies['onboardingDocuments'], applicationId: string, answers: Record<string, unknown>): Promise<FieldError[]> => {
    const documents = await checked.list(applicationId);
    return kinds
      .filter((kind) => typeof answers[kind] === 'string' && answers[kind] !== '')
      .filter((kind) => !documents.some((document) => document.kind === kind && document.key === answers[kind]))
      .map((kind) => ({ field: kind, id: 'validations.documentMissing' }));
  };

/** The steps that need more than the schema; every other step of STEP_SCHEMAS is saved as sent, strings trimmed. */
const STEP_DECLARATIONS: StepDeclaration[] = [
  {
    step: 'personal-info',
    // The identity check compares the photos with these answers, and the contract names the person by them.
    frozen: { when: identityFrozen, code: 'IDENTITY_DATA_FROZEN', message: 'The identity data were checked already and can no longer change' },
  },
  {
    step: 'your-activity',
    normalise: (body) => ({ ...trimmed(body), selfEmployedId: canonicalIdDocument(body.selfEmployedId) }),
  },
  {
    step: 'fiscal-address',
  },
  {
    step: 'tax-registration-income',
    // The modelo 036/037 must be the document the server checked for this application.
    verify: checkedDocuments('model036'),
  },
  {
    step: 'tell-us-more-freelance',
    normalise: withWebsite,
  },
  // The company path
  {
    step: 'about-company',
    // One mistyped letter (G58378431 for B58378431) can pass the check character: a refusal is asked for first.
    unconfirmedClosing: (answers, body) => (!isServedEntity(answers.cif) && body.confirmNotServed !== true ? entityLetterOf(answers.cif) : undefined),
    // The company is known by its tax ID: companyId is the CIF as stored, isCif says the ID is an entity's.
    normalise: (body) => {
      const cif = normaliseCif(body.cif);
      return { cif, isCif: true, companyId: cif };
    },
  },
  {
    step: 'about-company-info',
  },
  {
    step: 'about-company-address',
  },
  {
    step: 'articles-of-association',
    verify: checkedDocuments('companyDeeds', 'articlesOfIncorporation'),
  },
  {
    step: 'corporate-tax',
    verify: checkedDocuments('model200'),
  },
  {
    step: 'about-company-numbers',
    // `250.000 €` is stored as the number it is.
    normalise: (body) => ({ employeeNumber: normaliseWholeNumber(body.employeeNumber), bussinesVolume: normaliseWholeNumber(body.bussinesVolume) }),
  },
  {
    step: 'royal-owners',
    normalise: (body) => ({
      owners: (body.owners as Record<string, unknown>[]).map((owner) => {
        const clean = trimmed(owner);
        return {
          ...clean,
          identificationDocument: canonicalIdDocument(owner.identificationDocument),
          // An administrator holds no share of their own here.
          ...(owner.role === 'administrator' ? { ownership: '', percentage: '' } : {}),
        };
      }),
      indirectOwners: body.indirectOwners,
    }),
  },
  {
    step: 'tell-us-more-company',
    // Only the countries abroad are kept, and none when it has no offices or staff outside Spain.
    normalise: (body) => ({ ...withWebsite(body), operativeCountries: body.establishedAbroad === true ? body.operativeCountries : [] }),
  },
];

/** The API's answers when the application is gone or keeps changing: every applicant's change of it (the routes' too). */
export const API_REFUSALS: ChangeRefusals = {
  missing: () => new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application'),
  changed: () => new ApiError(409, 'CONCURRENT_CHANGE', 'The application changed meanwhile: try again'),
};

/** What the server adds to `step` beyond its schema (nothing, for most steps). */
export const declarationOf = (step: AnswersStepId): StepDeclaration => STEP_DECLARATIONS.find((declared) => declared.step === step) ?? { step };

/** The steps the bank sent the applicant back to, while they have not signed again; undefined outside such a round. */
function reopenedSteps(application: Application): string[] | undefined {
  const { moreInfo } = reviewStateOf(application);
  return moreInfo !== undefined && !application.completedSteps.includes('docu-sign') ? moreInfo.steps : undefined;
}

/** Whether the bank sent the applicant back to some steps of this application (they sign again after). */
const reopened = (application: Application) => reopenedSteps(application) !== undefined;

/** Where the step stands on the applicant's journey: 409 when it is not on it or comes before its turn. */
export function checkTurn(application: Application, step: StepId): void {
  const steps = journey(flowAnswersOf(application.answers, application.personType));
  const index = steps.findIndex((candidate) => candidate.id === step);
  if (index < 0) throw new ApiError(409, 'STEP_NOT_ON_PATH', 'This step is not part of this application');
  // Steps without a call (checklists) need no saving; every other earlier step must be done.
  const missing = steps.slice(0, index).find((earlier) => earlier.endpoint !== undefined && !application.completedSteps.includes(earlier.id));
  if (missing) throw new ApiError(409, 'STEP_OUT_OF_ORDER', 'An earlier step is not done yet', { currentStep: missing.id });
  if (application.status !== 'in-progress') throw new ApiError(409, 'APPLICATION_CLOSED', 'This application can no longer change');
  // Sent back by the bank, the applicant changes only the steps it named (and those their new answers add to the
  // path, never done before): the others, their phone and their path were relied on as they are.
  const round = reopenedSteps(application);
  if (round && application.completedSteps.includes(step) && !round.includes(step)) {
    throw new ApiError(409, 'STEP_NOT_REOPENED', 'The bank did not ask to change this step', { currentStep: currentStepOf(application) });
  }
}

/**
 * Saves `body` as the answers of `step` on the application `before` (as the caller read it): the API's refusals
 * as `ApiError`s, else the next page and the application saved as the applicant sees it.
 */
export async function saveStepAnswers(deps: StepSavingDependencies, step: AnswersStepId, before: Application, body: Record<string, unknown>, requestId: string) {
  const declaration = declarationOf(step);
  const applicationId = before.id;
  const invalid = toFieldErrors(await validateSchema(stepSchema(step, { saved: before.answers, now: deps.clock }), body));
  if (invalid.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid', { errors: invalid });
  const answers = (declaration.normalise ?? trimmed)(body);
  const unconfirmed = declaration.unconfirmedClosing?.(answers, body);
  if (unconfirmed !== undefined) {
    throw new ApiError(409, 'CONFIRMATION_REQUIRED', 'This answer would close the application: confirm it first', { entity: unconfirmed });
  }
  const unchecked = (await declaration.verify?.(deps.onboardingDocuments, applicationId, answers)) ?? [];
  if (unchecked.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid', { errors: unchecked });

  // Worked out on the application as read for the rules, then as it is after another save came first.
  return changeApplication(
    deps.applications,
    applicationId,
    API_REFUSALS,
    async (application) => {
      checkTurn(application, step);
      const { frozen } = declaration;
      if (frozen?.when(application) && Object.keys(answers).some((name) => JSON.stringify(answers[name] ?? '') !== JSON.stringify(application.answers[name] ?? ''))) {
        throw new ApiError(409, frozen.code, frozen.message);
      }
      const merged = { ...application.answers, ...answers };
      const personType = step === 'register-as' ? (answers.personType as Application['personType']) : application.personType;
      const completedSteps = application.completedSteps.includes(step) ? application.completedSteps : [...application.completedSteps, step];
      // Sent back by the bank, the applicant goes from one reopened step to the next, then to sign again: not
      // through every step after this one, which they did already.
      const following = nextStepOf(step, flowAnswersOf(merged, personType));
      const next = reopened(application) && isStep(following) ? (currentStepOf({ answers: merged, personType, completedSteps }) as StepId) : following;
      const changed = JSON.stringify(merged) !== JSON.stringify(application.answers) || !application.completedSteps.includes(step);
      const riskfactor = riskOf(merged, deps.highRiskCountries);
      // One entry per change: a retried save of the same answers writes nothing new. The page it leads to says
      // which path was chosen, or that the bank cannot serve the applicant, after the application itself is gone.
      const actor = `application:${applicationId}`;
      const audits = changed
        ? [
            { actor, action: 'onboarding.step_saved', subject: actor, requestId, details: { step, next } },
            ...(riskfactor !== application.riskfactor ? [{ actor, action: 'onboarding.risk_changed', subject: actor, requestId, details: { riskfactor } }] : []),
          ]
        : [];
      const saved = await deps.applications.saveAudited(
        application,
        {
          answers: merged,
          personType,
          completedSteps,
          status: next === 'forbidden-user' || next === 'company-error' ? 'not-allowed' : application.status,
          riskfactor,
        },
        audits,
        deps.clock(),
      );
      return saved && { next, application: applicationView(saved) };
    },
    before,
  );
}
