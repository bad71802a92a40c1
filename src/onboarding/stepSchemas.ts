// The shared schema of every wizard step that saves answers, by step: the one its screen runs and the server
// checks a body with (and reads the body's fields from). Some rules read answers saved before (the CIF, the founding
// date) or the clock: the screen passes its form and the browser's clock, the server the application and its own.
import type { AnyObjectSchema } from 'yup';
import { isCnaeCode } from '../data/cnae';
import { isIaeCode } from '../data/iae';
import {
  aboutCompanyInfoSchema,
  aboutCompanyNumbersSchema,
  aboutCompanySchema,
  articlesOfAssociationSchema,
  companyAddressSchema,
  corporateTaxSchema,
  fiscalAddressSchema,
  personalInfoSchema,
  registerAsSchema,
  royalOwnersSchema,
  taxRegistrationSchema,
  tellUsMoreCompanySchema,
  tellUsMoreFreelanceSchema,
  yourActivitySchema,
} from '../validation/onboarding';
import type { StepId } from './flow';

interface StepSchemaContext {
  /** The answers saved so far (the server's application, the browser's form). */
  saved: { readonly cif?: unknown; readonly foundedDate?: unknown };
  /** The clock the date rules read; the browser's by default. */
  now?: () => Date;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

export const STEP_SCHEMAS = {
  'personal-info': ({ now }) => personalInfoSchema({ now }),
  'register-as': () => registerAsSchema,
  'your-activity': ({ now }) => yourActivitySchema(isIaeCode, { now }),
  'fiscal-address': () => fiscalAddressSchema,
  'tax-registration-income': () => taxRegistrationSchema,
  'tell-us-more-freelance': () => tellUsMoreFreelanceSchema,
  'about-company': () => aboutCompanySchema,
  'about-company-info': ({ saved, now }) => aboutCompanyInfoSchema(isCnaeCode, { cif: text(saved.cif), now }),
  'about-company-address': () => companyAddressSchema,
  'articles-of-association': () => articlesOfAssociationSchema,
  'corporate-tax': ({ saved, now }) => corporateTaxSchema({ foundedDate: text(saved.foundedDate), now }),
  'about-company-numbers': () => aboutCompanyNumbersSchema,
  'royal-owners': ({ now }) => royalOwnersSchema({ now }),
  'tell-us-more-company': () => tellUsMoreCompanySchema,
} satisfies Partial<Record<StepId, (context: StepSchemaContext) => AnyObjectSchema>>;

/** The wizard's steps whose answers are saved through the one generic save. */
export type AnswersStepId = keyof typeof STEP_SCHEMAS;

export function isAnswersStep(step: string): step is AnswersStepId {
  return Object.hasOwn(STEP_SCHEMAS, step);
}

/** The shared schema of `step` in this context. */
export function stepSchema(step: AnswersStepId, context: StepSchemaContext): AnyObjectSchema {
  return STEP_SCHEMAS[step](context);
}
