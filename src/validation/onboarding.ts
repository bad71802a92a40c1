// The onboarding wizard's step schemas, shared by the SPA (Formik's validationSchema) and the API server (each
// step route runs the same schema before it saves). One schema per step; the order of the steps and the rule
// that picks the next one live in src/onboarding/flow.ts.

import { isValid as isCountryCode } from 'i18n-iso-countries';
import { array, boolean, object, string, type StringSchema, type TestConfig } from 'yup';

import { canonicalIdDocument } from './identifiers';
import { legalFormsFor } from './entities';
import { validationMessage } from './messages';
import { normaliseCif, normaliseWebsite, normaliseWholeNumber } from './normalise';
import { isValidSpanishPostalCode } from './predicates';
import { type DateRuleOptions, rules } from './rules';
import { isEmpty } from './text';

const NAME_MAX = 50;
const ADDRESS_MAX = 100;
const CITY_MAX = 60;
const PROMOTIONAL_CODE_MAX = 20;

/** How the applicant identifies: Spanish DNI/NIE (the login id) or a passport. */
export const ID_TYPES = ['nif', 'passport'] as const;
const PERSON_TYPES = ['freelance', 'company'] as const;
/** The freelancer's income-tax regime (IRPF): estimación directa normal or simplificada, or estimación objetiva (módulos). */
export const SELF_EMPLOYED_TAX_REGIMES = ['direct-normal', 'direct-simplified', 'objective'] as const;
export const DIVILO_PRODUCTS = ['account', 'account-and-cards', 'account-cards-and-payments'] as const;
export const FUNDS_ORIGINS = ['business-activity', 'savings', 'salary', 'inheritance-or-gift', 'investments', 'loan', 'other'] as const;
/** Where a company's money comes from: a company has no salary, savings or inheritance of its own. */
export const COMPANY_FUNDS_ORIGINS = ['business-activity', 'partners-contributions', 'investments', 'loan', 'grants', 'other'] as const;
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
/**
 * A Spanish postal code (01000–52999) when the sibling country field is Spain (`validations.postalCode`); 2–10
 * letters, digits, spaces or dashes elsewhere, refused in words that name no country (`validations.postalCodeAbroad`).
 */
const postalCodeFor = (countryField: string) => [
  check('validations.postalCode', (value, parent) => parent[countryField] !== 'ES' || isValidSpanishPostalCode(value)),
  check('validations.postalCodeAbroad', (value, parent) => parent[countryField] === 'ES' || (typeof value === 'string' && /^[A-Za-z0-9 -]{2,10}$/.test(value.trim()))),
] as const;

/**
 * Typed text the contract prints (an address, a city, a company's name): nothing that hides text or breaks it
 * into lines, and only characters the contract's fonts print.
 */
const printedText = (max: number) => string().trim().test(rules.plainText()).test(rules.printable()).test(rules.maxLength(max));

/** A name or surname: printed text made of letters and the punctuation of names. */
const name = (optional = false) => {
  const schema = printedText(NAME_MAX).test(rules.personName());
  return optional ? schema : schema.test(rules.required());
};

/** Options for the date rules (a fixed "today" in tests). */
type StepSchemaOptions = DateRuleOptions;

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

// /contact-phone's schema is in phone.ts: it needs libphonenumber's large metadata, which no other step loads.

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
export const addressSchema = <P extends 'selfEmployedFiscal' | 'company'>(prefix: P) =>
  object({
    [`${prefix}Address`]: printedText(ADDRESS_MAX).test(rules.required()),
    [`${prefix}AdditionalAddress`]: printedText(ADDRESS_MAX),
    [`${prefix}PostalCode`]: string()
      .trim()
      .test(rules.required())
      .test(postalCodeFor(`${prefix}Country`)[0])
      .test(postalCodeFor(`${prefix}Country`)[1]),
    [`${prefix}City`]: printedText(CITY_MAX).test(rules.required()),
    [`${prefix}Country`]: string().test(rules.required()).test(country()),
    // The keys are built from the prefix: said here, so the answers' type has each field by its name.
  } as Record<`${P}${'Address' | 'AdditionalAddress' | 'PostalCode' | 'City' | 'Country'}`, StringSchema<string | undefined>>);

export const fiscalAddressSchema = addressSchema('selfEmployedFiscal');

/** /tax-registration-income: the regime, and the modelo 036/037 the server checked (its storage key). */
export const taxRegistrationSchema = object({
  selfEmployedTax: string().test(rules.required()).test(oneOf(SELF_EMPLOYED_TAX_REGIMES)),
  model036: string().test(rules.required()),
});

/** /tell-us-more-freelance (and the shared part of /tell-us-more-company). */
export const tellUsMoreFreelanceSchema = object({
  website: string().trim().transform(normaliseWebsite).test(rules.plainText()).test(rules.url()),
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

// ---- The company path ----

// The entity types and legal forms (entities.ts, light enough for the flow's rules) are part of this module's API.
export * from './entities';


export const KINDS_OF_COMPANY = ['trading', 'services', 'manufacturing', 'construction-real-estate', 'holding', 'other'] as const;
export const SUBSIDIARIES = ['none', 'spain', 'abroad', 'spain-and-abroad'] as const;
const OWNER_ROLES = ['owner', 'administrator'] as const;
export const OWNERSHIP_KINDS = ['direct', 'indirect'] as const;

/** A real owner (titular real) holds more than this share, directly or indirectly. */
export const REAL_OWNER_THRESHOLD = 25;
const SOCIAL_DENOMINATION_MAX = 120;
/** Employees and yearly turnover (euros) are whole numbers from 0. */
const NUMBERS_MAX = 1_000_000_000_000;

/** /about-company: the company's tax ID (CIF), with its check character. */
export const aboutCompanySchema = object({
  cif: string().trim().transform(normaliseCif).test(rules.required()).test(rules.cif()),
  /** The applicant's yes to "is this CIF right?" when its entity type is one the bank does not serve. */
  confirmNotServed: boolean(),
});

/** /about-company-info. `isCnaeCode` is the membership test of CNAE-2025; `cif` narrows the legal forms to its entity. */
export const aboutCompanyInfoSchema = (isCnaeCode: (code: string) => boolean, options: StepSchemaOptions & { cif?: string } = {}) =>
  object({
    socialDenomination: printedText(SOCIAL_DENOMINATION_MAX).test(rules.required()),
    legalForm: string().test(rules.required()).test(oneOf(legalFormsFor(options.cif))),
    cnae: string().test(rules.required()).test(check('validations.choice', (value) => typeof value === 'string' && isCnaeCode(value))),
    foundedDate: string().trim().test(rules.required()).test(rules.date()).test(rules.notFuture(options)),
  });

export const companyAddressSchema = addressSchema('company');

/** /articles-of-association: the deeds and the articles, PDFs the server checked (their storage keys). */
export const articlesOfAssociationSchema = object({
  companyDeeds: string().test(rules.required()),
  articlesOfIncorporation: string().test(rules.required()),
});

/** Whether a company founded on `foundedDate` (dd/mm/yyyy) has filed a corporate tax return yet: not in its first year. */
export function needsCorporateTax(foundedDate: unknown, now: Date = new Date()): boolean {
  const match = typeof foundedDate === 'string' ? /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(foundedDate.trim()) : null;
  if (!match) return true;
  const yearAfter = new Date(Date.UTC(Number(match[3]) + 1, Number(match[2]) - 1, Number(match[1])));
  return now.getTime() >= yearAfter.getTime();
}

/** /corporate-tax: the last modelo 200, optional for a company founded less than a year ago. */
export const corporateTaxSchema = (options: StepSchemaOptions & { foundedDate?: string } = {}) =>
  object({
    model200: string().test(rules.requiredIf('model200', () => needsCorporateTax(options.foundedDate, options.now ? options.now() : new Date()))),
  });

/** /about-company-numbers: employees and yearly turnover, whole numbers from 0. */
export const aboutCompanyNumbersSchema = object({
  employeeNumber: string().trim().transform(normaliseWholeNumber).test(rules.required()).test(rules.integer()).test(rules.minValue(0)).test(rules.maxValue(NUMBERS_MAX)),
  bussinesVolume: string().trim().transform(normaliseWholeNumber).test(rules.required()).test(rules.integer()).test(rules.minValue(0)).test(rules.maxValue(NUMBERS_MAX)),
});

const percentage = (value: unknown): number => Number(String(value ?? '').trim().replace(',', '.'));

/** One person of /royal-owners: a real owner (over 25%) or, when nobody is, an administrator. */
export const ownerSchema = (options: StepSchemaOptions = {}) =>
  object({
    role: string().test(rules.required()).test(oneOf(OWNER_ROLES)),
    firstName: name(),
    firstSurname: name(),
    secondSurname: name(true),
    identificationDocument: string().trim().test(rules.required()).test(rules.identificationDocument()),
    nationality: string().test(rules.required()).test(country()),
    birthDate: string().trim().test(rules.required()).test(rules.date()).test(rules.notFuture(options)).test(rules.adult(options)).test(rules.notOlderThan(options)),
    ownership: string().test(rules.requiredIf('role', (role) => role === 'owner')).test(oneOf(OWNERSHIP_KINDS)),
    percentage: string()
      .trim()
      .test(rules.requiredIf('role', (role) => role === 'owner'))
      .test(check('validations.numeric', (value) => /^\d{1,3}([.,]\d{1,2})?$/.test(String(value).trim())))
      .test(rules.maxValue(100))
      .test(check('validations.realOwnerShare', (value, parent) => parent.role !== 'owner' || percentage(value) > REAL_OWNER_THRESHOLD, { min: REAL_OWNER_THRESHOLD })),
    politicalPosition: boolean().test(rules.required()),
  });

/** A person's DNI or NIE as compared to find them listed twice: without spaces or dashes, in its canonical form. */
export const ownerDocumentKey = (document: string) => canonicalIdDocument(document.replace(/[\s-]/g, ''));

/**
 * /royal-owners: the real owners, or the administrators when nobody holds over 25%. The shares add up to at most
 * 100; nobody is listed twice.
 */
export const royalOwnersSchema = (options: StepSchemaOptions = {}) =>
  object({
    // Twenty people at most in a body: more than any company declares as owners or administrators.
    owners: array(ownerSchema(options))
      .meta({ maxItems: 20 })
      .test(rules.required())
      .test({
        name: 'validations.ownersTotal',
        message: () => validationMessage('validations.ownersTotal', { max: 100 }),
        test: (owners) => (owners ?? []).reduce((total, owner) => total + (Number.isFinite(percentage(owner.percentage)) ? percentage(owner.percentage) : 0), 0) <= 100,
      })

      .test({
        name: 'validations.duplicateOwner',
        message: () => validationMessage('validations.duplicateOwner'),
        test(owners, context) {
          const seen = new Map<string, number>();
          for (const [index, owner] of (owners ?? []).entries()) {
            const key = ownerDocumentKey(String(owner.identificationDocument ?? ''));
            if (!key) continue;
            if (seen.has(key)) return context.createError({ path: `owners[${index}].identificationDocument`, message: validationMessage('validations.duplicateOwner') as never });
            seen.set(key, index);
          }
          return true;
        },
      }),
    indirectOwners: boolean().test(rules.required()),
  });

/**
 * /tell-us-more-company: what the freelancer's step asks, with a company's origins of money, and whether it has
 * offices or staff abroad (it is established in Spain: its CIF says so) and where, its kind and subsidiaries.
 */
export const tellUsMoreCompanySchema = tellUsMoreFreelanceSchema.shape({
  foundsOrigin: string().test(rules.required()).test(oneOf(COMPANY_FUNDS_ORIGINS)),
  assetsOrigin: string().test(rules.required()).test(oneOf(COMPANY_FUNDS_ORIGINS)),
  establishedAbroad: boolean().test(rules.required()),
  operativeCountries: array(string().test(country()).test(check('validations.choice', (value) => value !== 'ES'))).test(
    rules.requiredIf('establishedAbroad', (abroad) => abroad === true),
  ),
  kindOfCompany: string().test(rules.required()).test(oneOf(KINDS_OF_COMPANY)),
  subsidiaries: string().test(rules.required()).test(oneOf(SUBSIDIARIES)),
});
