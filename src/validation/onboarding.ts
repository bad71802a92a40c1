// The onboarding wizard's step schemas, shared by the SPA (Formik's validationSchema) and the API server (each
// step route runs the same schema before it saves). One schema per step; the order of the steps and the rule
// that picks the next one live in src/features/signup/flow.ts.

import { isValid as isCountryCode } from 'i18n-iso-countries';
import { isValidPhoneNumber as isValidPhoneForCountry, type CountryCode } from 'libphonenumber-js/min';
import { array, boolean, object, string, type TestConfig } from 'yup';

import { validationMessage } from './messages';
import { isValidSpanishPostalCode } from './predicates';
import { type DateRuleOptions, rules } from './rules';
import { isEmpty } from './text';

const NAME_MAX = 50;
const ADDRESS_MAX = 100;
const CITY_MAX = 60;
const PROMOTIONAL_CODE_MAX = 20;

/** The countries a customer may live in to open an account (a Spanish bank's onboarding). */
export const ALLOWED_RESIDENCE_COUNTRIES = ['ES'] as const;

/** How the applicant identifies: Spanish DNI/NIE (the login id) or a passport. */
export const ID_TYPES = ['nif', 'passport'] as const;
export const PERSON_TYPES = ['freelance', 'company'] as const;
/** The freelancer's income-tax regime (IRPF): estimación directa normal or simplificada, or estimación objetiva (módulos). */
export const SELF_EMPLOYED_TAX_REGIMES = ['direct-normal', 'direct-simplified', 'objective'] as const;
export const DIVILO_PRODUCTS = ['account', 'account-and-cards', 'account-cards-and-payments'] as const;
export const FUNDS_ORIGINS = ['business-activity', 'savings', 'salary', 'inheritance-or-gift', 'investments', 'loan', 'other'] as const;
/** The documents of the identity check, uploaded as JPEG or PNG. */
export const IDENTITY_IMAGE_KINDS = ['documentFront', 'documentBack', 'selfie'] as const;

type Predicate = (value: unknown, parent: Record<string, unknown>) => boolean;

/** A rule that skips empty values (like the shared rules) and reports `id`. */
function check(id: Parameters<typeof validationMessage>[0], predicate: Predicate, values?: Record<string, string | number>): TestConfig<unknown, object> {
  return {
    name: id,
    message: () => validationMessage(id, values),
    test(value, context) {
      const parent = (typeof context.parent === 'object' && context.parent !== null ? context.parent : {}) as Record<string, unknown>;
      return isEmpty(value) || predicate(value, parent);
    },
  };
}

/** An ISO 3166-1 alpha-2 country code (the pickers store codes, never names). → `validations.country` */
const country = () => check('validations.country', (value) => typeof value === 'string' && /^[A-Z]{2}$/.test(value) && isCountryCode(value));
/** One of a fixed list (pickers and radio groups). → `validations.choice` */
const oneOf = (options: readonly string[]) => check('validations.choice', (value) => typeof value === 'string' && options.includes(value));
/** A consent box that must be ticked. → `validations.consent` */
const accepted = (): TestConfig<unknown, object> => ({
  name: 'validations.consent',
  message: () => validationMessage('validations.consent'),
  test: (value) => value === true,
});
/** A phone number valid for the country picked in the sibling field `countryField`. → `validations.phoneNumber` */
const phoneFor = (countryField: string) =>
  check('validations.phoneNumber', (value, parent) => {
    const countryCode = parent[countryField];
    return typeof value === 'string' && typeof countryCode === 'string' && isCountryCode(countryCode) && isValidPhoneForCountry(value, countryCode as CountryCode);
  }, { min: 5 });
/** A Spanish postal code (01000–52999) when the sibling country field is Spain; 2–10 letters, digits, spaces or dashes elsewhere. */
const postalCodeFor = (countryField: string) =>
  check('validations.postalCode', (value, parent) =>
    parent[countryField] === 'ES' ? isValidSpanishPostalCode(value) : typeof value === 'string' && /^[A-Za-z0-9 -]{2,10}$/.test(value.trim()),
  );

const name = (optional = false) => {
  const schema = string().trim().test(rules.maxLength(NAME_MAX));
  return optional ? schema : schema.test(rules.required());
};

/** Options for the date rules (a fixed "today" in tests). */
export type StepSchemaOptions = DateRuleOptions;

/** /signUp: who the applicant is and how to reach them, and the two consents. */
export const signUpSchema = object({
  email: string().trim().test(rules.required()).test(rules.email()).test(rules.maxLength(254)),
  idType: string().test(rules.required()).test(oneOf(ID_TYPES)),
  id: string()
    .trim()
    .test(rules.required())
    .when('idType', ([idType], schema) => (idType === 'passport' ? schema.test(rules.passport()) : schema.test(rules.identificationDocument()))),
  passportExpeditionCountry: string().test(rules.requiredIf('idType', (idType) => idType === 'passport')).test(country()),
  privacyPolicy: boolean().test(accepted()),
  precontractualInformation: boolean().test(accepted()),
  promotionalCode: string().trim().test(rules.alphanumeric()).test(rules.maxLength(PROMOTIONAL_CODE_MAX)),
});

/** /reg-code and /confirm-telephone: the six-digit code. */
export const codeStepSchema = object({ code: string().trim().test(rules.required()).test(rules.userCode()) });

export const personalInfoSchema = (options: StepSchemaOptions = {}) =>
  object({
    firstName: name(),
    firstSurname: name(),
    secondSurname: name(true),
    nationality: string().test(rules.required()).test(country()),
    residenceCountry: string().test(rules.required()).test(country()),
    birthCountry: string().test(rules.required()).test(country()),
    birthDate: string()
      .trim()
      .test(rules.required())
      .test(rules.date())
      .test(rules.notFuture(options))
      .test(rules.adult(options))
      .test(rules.notOlderThan(options)),
  });

/** /contact-phone: the country of the prefix (ES = +34 by default) and the national number. */
export const contactPhoneSchema = object({
  telephoneCountry: string().test(rules.required()).test(country()),
  telephoneNumber: string().trim().test(rules.required()).test(phoneFor('telephoneCountry')),
});

export const registerAsSchema = object({ personType: string().test(rules.required()).test(oneOf(PERSON_TYPES)) });

/** /your-activity. `isIaeCode` is the membership test of the official list (given, so this module stays small). */
export const yourActivitySchema = (isIaeCode: (code: string) => boolean, options: StepSchemaOptions = {}) =>
  object({
    selfEmployedId: string().trim().test(rules.required()).test(rules.nif()),
    selfEmployedActivity: string().test(rules.required()).test(check('validations.choice', (value) => typeof value === 'string' && isIaeCode(value))),
    selfEmployedDate: string().trim().test(rules.required()).test(rules.date()).test(rules.notFuture(options)),
    selfEmployedAtaCode: string().trim().test(rules.alphanumeric()).test(rules.maxLength(PROMOTIONAL_CODE_MAX)),
    promotionalCode: string().trim().test(rules.alphanumeric()).test(rules.maxLength(PROMOTIONAL_CODE_MAX)),
  });

/** An address block; `prefix` is `selfEmployedFiscal` or `company` (the form record's names). */
export const addressSchema = (prefix: 'selfEmployedFiscal' | 'company') =>
  object({
    [`${prefix}Address`]: string().trim().test(rules.required()).test(rules.maxLength(ADDRESS_MAX)),
    [`${prefix}AdditionalAddress`]: string().trim().test(rules.maxLength(ADDRESS_MAX)),
    [`${prefix}PostalCode`]: string().trim().test(rules.required()).test(postalCodeFor(`${prefix}Country`)),
    [`${prefix}City`]: string().trim().test(rules.required()).test(rules.maxLength(CITY_MAX)),
    [`${prefix}Country`]: string().test(rules.required()).test(country()),
  });

export const fiscalAddressSchema = addressSchema('selfEmployedFiscal');

/** /tax-registration-income: the regime, and the modelo 036/037 the server checked (its storage key). */
export const taxRegistrationSchema = object({
  selfEmployedTax: string().test(rules.required()).test(oneOf(SELF_EMPLOYED_TAX_REGIMES)),
  model036: string().test(rules.required()),
});

/** /tell-us-more-freelance (and the shared part of /tell-us-more-company). */
export const tellUsMoreFreelanceSchema = object({
  website: string().trim().test(rules.url()),
  countriesWhereOperate: array(string().test(country())).test(rules.required()),
  diviloProduct: string().test(rules.required()).test(oneOf(DIVILO_PRODUCTS)),
  foundsOrigin: string().test(rules.required()).test(oneOf(FUNDS_ORIGINS)),
  assetsOrigin: string().test(rules.required()).test(oneOf(FUNDS_ORIGINS)),
  politicalPosition: boolean().test(rules.required()),
});

export const diviloPasswordSchema = object({
  diviloPassword: string().test(rules.required()).test(rules.productPassword()),
  diviloPasswordConfirmation: string().test(rules.required()).test(rules.sameAs('diviloPassword')),
});

/** /check-identity: the storage keys of the three images. */
export const checkIdentitySchema = object(Object.fromEntries(IDENTITY_IMAGE_KINDS.map((kind) => [kind, string().test(rules.required())])));

/** /docu-sign: the electronic-identification consent; the SMS code is checked by its own call. */
export const docuSignSchema = object({ electronicIdentification: boolean().test(accepted()) });
