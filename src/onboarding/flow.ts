// The onboarding wizard, declared once as data: the order of the steps, the section each belongs to, the
// endpoint that saves it and the rule that picks the next one. The router, the progress indicator, Back and
// Continue in the SPA, and the server's step routes and resume logic all read this list; no screen names its
// neighbour. No React here: the server imports it.

import { isServedEntity } from '../validation/entities';

export type SectionId = 'you' | 'business' | 'security' | 'contract';

/** The answers the next-step rules look at (a subset of the saved application). */
export interface FlowAnswers {
  residenceCountry?: string;
  personType?: 'freelance' | 'company' | '';
  /** The company's tax ID: its entity letter decides whether the bank serves it. */
  cif?: string;
}

/** Pages that end or divert the journey: reached by a rule, never counted as steps. */
export const OUTCOME_IDS = ['already-exists', 'forbidden-user', 'company-error'] as const;
export type OutcomeId = (typeof OUTCOME_IDS)[number];

/** A step as declared: its id is a name of its own, and the ids its rule picks must be declared steps or outcomes. */
interface StepDeclaration {
  id: string;
  section: SectionId;
  /** The call that saves the step, relative to `/api/` (POST). `undefined`: nothing to save (a checklist). */
  endpoint?: string;
  /** The step that follows, from the answers saved so far; `undefined` for the end of a path. */
  next(answers: FlowAnswers): string | undefined;
  /** Which path the step belongs to: shared by every applicant, or one person type's. */
  path: 'common' | 'freelance' | 'company';
  /** No Back: what came before is settled for good (the identity, once verified). */
  final?: boolean;
}

/** Keeps a declaration's id and the ids its rule picks as they are written, so the list below types them. */
const step = <const S extends StepDeclaration>(declared: S) => declared;
const to = <const Id extends string>(id: Id) => () => id;

/** The company path's calls, under the seed's `legalperson/company`. */
const COMPANY = 'onboarding-management-private/legalperson/company';

const DECLARED = [
  step({ id: 'signUp', section: 'you', path: 'common', endpoint: 'onboarding-management/register', next: to('reg-code') }),
  step({ id: 'reg-code', section: 'you', path: 'common', endpoint: 'onboarding-management-private/email/verify', next: to('personal-info') }),
  step({
    id: 'personal-info',
    section: 'you',
    path: 'common',
    endpoint: 'onboarding-management-private/personal-info',
    next: (answers) => (answers.residenceCountry && answers.residenceCountry !== 'ES' ? 'forbidden-user' : 'contact-phone'),
  }),
  step({ id: 'contact-phone', section: 'you', path: 'common', endpoint: 'onboarding-management-private/phone', next: to('confirm-telephone') }),
  step({ id: 'confirm-telephone', section: 'you', path: 'common', endpoint: 'onboarding-management-private/phone/verify', next: to('register-as') }),
  step({
    id: 'register-as',
    section: 'business',
    path: 'common',
    endpoint: 'onboarding-management-private/person-type',
    next: (answers) => (answers.personType === 'company' ? 'requirements-company' : 'requirements-freelance'),
  }),
  step({ id: 'requirements-freelance', section: 'business', path: 'freelance', next: to('your-activity') }),
  step({ id: 'your-activity', section: 'business', path: 'freelance', endpoint: 'onboarding-management-private/legalperson/freelance', next: to('fiscal-address') }),
  step({
    id: 'fiscal-address',
    section: 'business',
    path: 'freelance',
    endpoint: 'onboarding-management-private/legalperson/freelance/postal-address',
    next: to('tax-registration-income'),
  }),
  step({
    id: 'tax-registration-income',
    section: 'business',
    path: 'freelance',
    endpoint: 'onboarding-management-private/legalperson/freelance/tax',
    next: to('tell-us-more-freelance'),
  }),
  step({
    id: 'tell-us-more-freelance',
    section: 'business',
    path: 'freelance',
    endpoint: 'onboarding-management-private/legalperson/freelance/moreinfo',
    next: to('divilo-password'),
  }),
  step({ id: 'requirements-company', section: 'business', path: 'company', next: to('about-company') }),
  step({
    id: 'about-company',
    section: 'business',
    path: 'company',
    endpoint: `${COMPANY}`,
    next: (answers) => (answers.cif && !isServedEntity(answers.cif) ? 'company-error' : 'about-company-info'),
  }),
  step({ id: 'about-company-info', section: 'business', path: 'company', endpoint: `${COMPANY}/legal-info`, next: to('about-company-address') }),
  step({ id: 'about-company-address', section: 'business', path: 'company', endpoint: `${COMPANY}/postal-address`, next: to('articles-of-association') }),
  step({ id: 'articles-of-association', section: 'business', path: 'company', endpoint: `${COMPANY}/deeds`, next: to('corporate-tax') }),
  step({ id: 'corporate-tax', section: 'business', path: 'company', endpoint: `${COMPANY}/tax`, next: to('about-company-numbers') }),
  step({ id: 'about-company-numbers', section: 'business', path: 'company', endpoint: `${COMPANY}/numbers`, next: to('royal-owners') }),
  step({ id: 'royal-owners', section: 'business', path: 'company', endpoint: `${COMPANY}/tr`, next: to('tell-us-more-company') }),
  step({ id: 'tell-us-more-company', section: 'business', path: 'company', endpoint: `${COMPANY}/moreinfo`, next: to('divilo-password') }),
  step({ id: 'divilo-password', section: 'security', path: 'common', endpoint: 'onboarding-management-private/password', next: to('check-identity') }),
  step({ id: 'check-identity', section: 'security', path: 'common', endpoint: 'onboarding-management-private/identity-check', next: to('check-identity-waiting') }),
  step({ id: 'check-identity-waiting', section: 'security', path: 'common', next: to('docu-sign') }),
  step({ id: 'docu-sign', section: 'contract', path: 'common', endpoint: 'onboarding-management-private/contract/sign', next: to('welcome'), final: true }),
  step({ id: 'welcome', section: 'contract', path: 'common', next: () => undefined }),
] as const;

/** The id of a step of the wizard: one of those declared above. */
export type StepId = (typeof DECLARED)[number]['id'];

interface Step extends StepDeclaration {
  id: StepId;
  next(answers: FlowAnswers): StepId | OutcomeId | undefined;
}

/** The steps in order. Assigning the list here checks that every rule picks a declared step or an outcome. */
export const STEPS: readonly Step[] = DECLARED;

const byId = new Map(STEPS.map((step) => [step.id, step]));

export function stepById(id: string): Step | undefined {
  return byId.get(id as StepId);
}

/** Is `id` a step (not an outcome page, not another route)? */
export function isStep(id: string): id is StepId {
  return byId.has(id as StepId);
}

/**
 * The steps an applicant with these answers walks, in order, from /signUp to /welcome: the rules are followed
 * from the first step; an outcome page ends the walk.
 */
export function journey(answers: FlowAnswers): Step[] {
  const walked: Step[] = [];
  let current: Step | undefined = STEPS[0];
  while (current && !walked.includes(current)) {
    walked.push(current);
    const nextId = current.next(answers);
    current = nextId ? byId.get(nextId as StepId) : undefined;
  }
  return walked;
}

/** The step before `id` on this applicant's journey (Back), or `undefined` on the first step and a final one. */
export function previousStep(id: StepId, answers: FlowAnswers): StepId | undefined {
  if (byId.get(id)?.final) return undefined;
  const steps = journey(answers);
  const index = steps.findIndex((step) => step.id === id);
  return index > 0 ? steps[index - 1].id : undefined;
}

/** "Step n of m" and the sections of this applicant's journey, for the progress indicator. */
export function progressOf(id: StepId, answers: FlowAnswers): { number: number; total: number; section: SectionId; sections: SectionId[] } {
  const steps = journey(answers).filter((step) => step.id !== 'welcome');
  const index = steps.findIndex((step) => step.id === id);
  return {
    number: index + 1,
    total: steps.length,
    section: byId.get(id)!.section,
    sections: [...new Set(steps.map((step) => step.section))],
  };
}

/**
 * What the rules look at, from answers as they are kept (the server's application with its person type, or the
 * browser's form, which holds both): the one mapping from saved answers to the rules' input.
 */
export function flowAnswersOf(answers: { readonly residenceCountry?: unknown; readonly cif?: unknown }, personType: string | null | undefined): FlowAnswers {
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    residenceCountry: text(answers.residenceCountry),
    personType: personType === 'freelance' || personType === 'company' ? personType : '',
    cif: text(answers.cif),
  };
}

/** The page after `id` on these answers: its rule's step or outcome, `welcome` past the end of a path. */
export function nextStepOf(id: StepId, answers: FlowAnswers): StepId | OutcomeId {
  return byId.get(id)?.next(answers) ?? 'welcome';
}
