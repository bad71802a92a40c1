// The label each answer of a step has on its screen, by message id (the texts are in locales/{en,es}.json): what
// shows a saved application step by step with the words the applicant saw (the bank's review). The type asks for a
// label for every field of every step's schema, so a new field without one does not compile.
import type { InferType } from 'yup';
import type { AnswersStepId, STEP_SCHEMAS } from './stepSchemas';

/** The fields a step's schema takes, but a confirmation given at that moment (not an answer). */
type FieldsOf<K extends AnswersStepId> = Exclude<keyof InferType<ReturnType<(typeof STEP_SCHEMAS)[K]>>, 'confirmNotServed'>;

const address = (prefix: 'selfEmployedFiscal' | 'company') => ({
  [`${prefix}Address`]: 'onboarding.address.line',
  [`${prefix}AdditionalAddress`]: 'onboarding.address.additional',
  [`${prefix}PostalCode`]: 'onboarding.address.postalCode',
  [`${prefix}City`]: 'onboarding.address.city',
  [`${prefix}Country`]: 'onboarding.address.country',
});

/** The questions both paths end with (/tell-us-more-freelance, /tell-us-more-company). */
const MORE = {
  website: 'onboarding.tell-us-more.website',
  diviloProduct: 'onboarding.tell-us-more.product',
  foundsOrigin: 'onboarding.tell-us-more.fundsOrigin',
  politicalPosition: 'onboarding.tell-us-more.pep',
} as const;

export const FIELD_LABELS: { [K in AnswersStepId]: Record<FieldsOf<K>, string> } = {
  'personal-info': {
    firstName: 'onboarding.personal-info.firstName',
    firstSurname: 'onboarding.personal-info.firstSurname',
    secondSurname: 'onboarding.personal-info.secondSurname',
    nationality: 'onboarding.personal-info.nationality',
    residenceCountry: 'onboarding.personal-info.residenceCountry',
    birthCountry: 'onboarding.personal-info.birthCountry',
    birthDate: 'onboarding.personal-info.birthDate',
  },
  'register-as': { personType: 'onboarding.register-as.legend' },
  'your-activity': {
    selfEmployedId: 'onboarding.your-activity.nif',
    selfEmployedActivity: 'onboarding.your-activity.activity',
    selfEmployedDate: 'onboarding.your-activity.startDate',
    selfEmployedAtaCode: 'onboarding.your-activity.ata',
    promotionalCode: 'onboarding.signUp.promotionalCode',
  },
  'fiscal-address': address('selfEmployedFiscal') as Record<FieldsOf<'fiscal-address'>, string>,
  'tax-registration-income': { selfEmployedTax: 'onboarding.tax.regime', model036: 'onboarding.tax.model036' },
  'tell-us-more-freelance': { ...MORE, countriesWhereOperate: 'onboarding.tell-us-more.countries', assetsOrigin: 'onboarding.tell-us-more.assetsOrigin' },
  'about-company': { cif: 'onboarding.about-company.cif' },
  'about-company-info': {
    socialDenomination: 'onboarding.about-company-info.denomination',
    legalForm: 'onboarding.about-company-info.legalForm',
    cnae: 'onboarding.about-company-info.cnae',
    foundedDate: 'onboarding.about-company-info.founded',
  },
  'about-company-address': address('company') as Record<FieldsOf<'about-company-address'>, string>,
  'articles-of-association': { companyDeeds: 'onboarding.articles-of-association.companyDeeds', articlesOfIncorporation: 'onboarding.articles-of-association.articles' },
  'corporate-tax': { model200: 'onboarding.corporate-tax.model200' },
  'about-company-numbers': { employeeNumber: 'onboarding.about-company-numbers.employees', bussinesVolume: 'onboarding.about-company-numbers.turnover' },
  'royal-owners': { owners: 'onboarding.royal-owners.list', indirectOwners: 'onboarding.royal-owners.indirectOwners' },
  'tell-us-more-company': {
    ...MORE,
    countriesWhereOperate: 'onboarding.tell-us-more.companyCountries',
    assetsOrigin: 'onboarding.tell-us-more.companyAssetsOrigin',
    establishedAbroad: 'onboarding.tell-us-more.establishedAbroad',
    operativeCountries: 'onboarding.tell-us-more.operativeCountries',
    kindOfCompany: 'onboarding.tell-us-more.kindOfCompany',
    subsidiaries: 'onboarding.tell-us-more.subsidiaries',
  },
};
