import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

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

/** The onboarding record (USER_FORM). Field names are the ones the onboarding API uses. */
export interface OnboardingForm {
  // Identity and contact
  idType: 'nif' | 'passport';
  id: string;
  email: string;
  /** The country of the phone's prefix (ES: +34); the number itself is kept in E.164. */
  telephoneCountry: string;
  telephoneNumber: string;
  passportExpeditionCountry: string;
  personType: PersonType | '';
  sessionId: string;
  riskfactor: string;
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
  /**
   * Not an answer: what a step's screen holds typed but not yet saved, by step, so a reload keeps it (never a
   * secret: steps with a code or a password keep no draft). Dropped when the step is saved.
   */
  drafts: Partial<Record<string, Record<string, unknown>>>;
}

export const initialFormState: OnboardingForm = {
  idType: 'nif',
  id: '',
  email: '',
  telephoneCountry: 'ES',
  telephoneNumber: '',
  passportExpeditionCountry: '',
  personType: '',
  sessionId: '',
  riskfactor: '',
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
  drafts: {},
};

type Pick_<K extends keyof OnboardingForm> = Pick<OnboardingForm, K>;

/** Every step's update is a plain merge of the fields that step owns. */
function merge<K extends keyof OnboardingForm>() {
  return (state: OnboardingForm, action: PayloadAction<Partial<Pick_<K>>>) => {
    Object.assign(state, action.payload);
  };
}

const formSlice = createSlice({
  name: 'form',
  initialState: initialFormState,
  reducers: {
    formReset: () => initialFormState,
    /** A step's screen changed: what it holds, kept until it is saved. */
    draftKept: (state, action: PayloadAction<{ step: string; values: Record<string, unknown> }>) => {
      state.drafts = { ...state.drafts, [action.payload.step]: action.payload.values };
    },
    /** The step was saved: its draft is the saved answers now. */
    draftDropped: (state, action: PayloadAction<string>) => {
      if (state.drafts?.[action.payload] === undefined) return;
      const { [action.payload]: _saved, ...others } = state.drafts;
      state.drafts = others;
    },
    /** After a session ended: a fresh form that still knows who was signing up (never a secret). */
    formResetForResume: (state) => ({
      ...initialFormState,
      email: state.email,
      idType: state.idType,
      id: state.id,
      passportExpeditionCountry: state.passportExpeditionCountry,
      promotionalCode: state.promotionalCode,
      promotionalCodeFromParam: state.promotionalCodeFromParam,
    }),
    /**
     * The application as the server keeps it: its answers overlay the form (the same names), so a step shows
     * what was saved, here or on another device. Keys the form does not know are ignored: the form holds no
     * secret, so none comes in this way.
     */
    applicationSynced(state, action: PayloadAction<Record<string, unknown>>) {
      for (const [key, value] of Object.entries(action.payload)) {
        if (key in initialFormState && value !== null && value !== undefined) (state as Record<string, unknown>)[key] = value;
      }
    },
    registrationSubmitted: merge<'email' | 'idType' | 'id' | 'passportExpeditionCountry' | 'promotionalCode' | 'promotionalCodeFromParam'>(),
    phoneSubmitted: merge<'telephoneCountry' | 'telephoneNumber'>(),
    ownersSubmitted: merge<'owners' | 'indirectOwners'>(),
    promotionCodeApplied: merge<'promotionalCode' | 'promotionalCodeFromParam'>(),
  },
});

export const formActions = formSlice.actions;
export const formReducer = formSlice.reducer;

export const selectForm = (state: { form: OnboardingForm }) => state.form;
