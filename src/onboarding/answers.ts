// The answers of an application as the wizard's screens read them: what the server saved, over empty values, so
// every screen starts from a complete record. Field names are the ones the onboarding API uses (seed §3). The
// browser keeps none of this: it comes from the server's application (`getApplication`), never from USER_FORM.

/**
 * A person of /royal-owners: a real owner (titular real, more than 25% directly or indirectly) or, when nobody
 * holds that much, an administrator recorded as legal representative. Shares are kept as typed ("25,5").
 */
export interface Owner {
  role: 'owner' | 'administrator' | '';
  firstName: string;
  firstSurname: string;
  secondSurname: string;
  identificationDocument: string;
  nationality: string;
  birthDate: string;
  ownership: 'direct' | 'indirect' | '';
  percentage: string;
  politicalPosition: boolean | undefined;
}

export type PersonType = 'freelance' | 'company';

/** An application's answers, every field present. */
export interface Answers {
  // Identity and contact
  idType: 'nif' | 'passport';
  id: string;
  email: string;
  /** The country of the phone's prefix (ES: +34); the number itself is kept in E.164. */
  telephoneCountry: string;
  telephoneNumber: string;
  passportExpeditionCountry: string;
  personType: PersonType | '';
  // Person
  firstName: string;
  firstSurname: string;
  secondSurname: string;
  nationality: string;
  residenceCountry: string;
  birthCountry: string;
  birthDate: string;
  // Self-employed
  selfEmployedId: string;
  selfEmployedActivity: string;
  selfEmployedDate: string;
  selfEmployedAtaCode: string;
  selfEmployedTax: string;
  /** The storage key of the modelo 036/037 the server checked. */
  model036: string;
  // Self-employed fiscal address
  selfEmployedFiscalAddress: string;
  selfEmployedFiscalAdditionalAddress: string;
  selfEmployedFiscalPostalCode: string;
  selfEmployedFiscalCity: string;
  selfEmployedFiscalCountry: string;
  // Company
  cif: string;
  isCif: boolean;
  companyId: string;
  cnae: string;
  legalForm: string;
  foundedDate: string;
  socialDenomination: string;
  employeeNumber: string;
  bussinesVolume: string;
  // Company address
  companyAddress: string;
  companyAdditionalAddress: string;
  companyPostalCode: string;
  companyCity: string;
  companyCountry: string;
  // Company extra
  website: string;
  /** Whether the company has offices or staff outside Spain; null until answered. */
  establishedAbroad: boolean | null;
  /** The countries abroad where it has them. */
  operativeCountries: string[];
  countriesWhereOperate: string[];
  kindOfCompany: string;
  subsidiaries: string;
  diviloProduct: string;
  foundsOrigin: string;
  assetsOrigin: string;
  politicalPosition: boolean;
  // Ownership
  owners: Owner[];
  indirectOwners: boolean;
  // Documents: the storage key of each, once the server checked it
  companyDeeds: string;
  articlesOfIncorporation: string;
  model200: string;
  // The identity check's photos (storage keys)
  documentFront: string;
  documentBack: string;
  selfie: string;
  // Consent dates (ISO 8601)
  privacyPolicyDate: string;
  precontractualinformationDate: string;
  electronicIdentificationDate: string;
  // Promotion
  promotionalCode: string;
  promotionalCodeFromParam: boolean;
}

/** An application with nothing answered yet. */
export const EMPTY_ANSWERS: Answers = {
  idType: 'nif',
  id: '',
  email: '',
  telephoneCountry: 'ES',
  telephoneNumber: '',
  passportExpeditionCountry: '',
  personType: '',
  firstName: '',
  firstSurname: '',
  secondSurname: '',
  nationality: '',
  residenceCountry: '',
  birthCountry: '',
  birthDate: '',
  selfEmployedId: '',
  selfEmployedActivity: '',
  selfEmployedDate: '',
  selfEmployedAtaCode: '',
  selfEmployedTax: '',
  model036: '',
  selfEmployedFiscalAddress: '',
  selfEmployedFiscalAdditionalAddress: '',
  selfEmployedFiscalPostalCode: '',
  selfEmployedFiscalCity: '',
  selfEmployedFiscalCountry: '',
  cif: '',
  isCif: false,
  companyId: '',
  cnae: '',
  legalForm: '',
  foundedDate: '',
  socialDenomination: '',
  employeeNumber: '',
  bussinesVolume: '',
  companyAddress: '',
  companyAdditionalAddress: '',
  companyPostalCode: '',
  companyCity: '',
  companyCountry: '',
  website: '',
  establishedAbroad: null,
  operativeCountries: [],
  countriesWhereOperate: [],
  kindOfCompany: '',
  subsidiaries: '',
  diviloProduct: '',
  foundsOrigin: '',
  assetsOrigin: '',
  politicalPosition: true,
  owners: [],
  indirectOwners: false,
  companyDeeds: '',
  articlesOfIncorporation: '',
  model200: '',
  documentFront: '',
  documentBack: '',
  selfie: '',
  privacyPolicyDate: '',
  precontractualinformationDate: '',
  electronicIdentificationDate: '',
  promotionalCode: '',
  promotionalCodeFromParam: false,
};


/**
 * The application's saved answers over the empty record: only fields the record has, and no null (a field the
 * server holds no answer for keeps its empty value).
 */
export function answersOf(saved: Readonly<Record<string, unknown>>, personType: PersonType | null): Answers {
  const known = Object.entries(saved).filter(([key, value]) => Object.hasOwn(EMPTY_ANSWERS, key) && value !== null && value !== undefined);
  return { ...EMPTY_ANSWERS, ...Object.fromEntries(known), personType: personType ?? '' };
}
