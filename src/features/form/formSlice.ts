import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** A document the applicant uploaded: where it is in storage, never the bytes. */
export interface UploadedDocument {
  key: string;
  name: string;
  size: number;
}

/** A real owner (titular real) or, when nobody holds more than 25%, the administrator. */
export interface Owner {
  firstName: string;
  firstSurname: string;
  secondSurname: string;
  identificationDocument: string;
  nationality: string;
  birthDate: string;
  percentage: number;
}

export type PersonType = 'freelance' | 'company';

/** The onboarding record (USER_FORM). Field names are the ones the onboarding API uses. */
export interface OnboardingForm {
  // Identity and contact
  id: string;
  email: string;
  telephoneNumber: string;
  verificationEmailToken: string;
  verificationPhoneToken: string;
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
  model036: UploadedDocument | null;
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
  // Documents
  companyDeeds: UploadedDocument | null;
  articlesOfIncorporation: UploadedDocument | null;
  model200: UploadedDocument | null;
  // Auth
  diviloPassword: string;
  // Consent dates (ISO 8601)
  privacyPolicyDate: string;
  precontractualinformationDate: string;
  electronicIdentificationDate: string;
  // Promotion
  promotionalCode: string;
  promotionalCodeFromParam: boolean;
}

/** Fields that are secrets: kept in memory for the step that needs them, never persisted or dumped. */
export const SECRET_FORM_FIELDS = ['diviloPassword', 'verificationEmailToken', 'verificationPhoneToken'] as const;

export const initialFormState: OnboardingForm = {
  id: '',
  email: '',
  telephoneNumber: '',
  verificationEmailToken: '',
  verificationPhoneToken: '',
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
  model036: null,
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
  companyDeeds: null,
  articlesOfIncorporation: null,
  model200: null,
  diviloPassword: '',
  privacyPolicyDate: '',
  precontractualinformationDate: '',
  electronicIdentificationDate: '',
  promotionalCode: '',
  promotionalCodeFromParam: false,
};

type Pick_<K extends keyof OnboardingForm> = Pick<OnboardingForm, K>;

/** Every step's update is a plain merge of the fields that step owns. */
function merge<K extends keyof OnboardingForm>() {
  return (state: OnboardingForm, action: PayloadAction<Pick_<K>>) => {
    Object.assign(state, action.payload);
  };
}

const formSlice = createSlice({
  name: 'form',
  initialState: initialFormState,
  reducers: {
    formReset: () => initialFormState,
    /** A saved record (from the server or storage) overlays the blank one. */
    initialValuesLoaded: (_state, action: PayloadAction<Partial<OnboardingForm>>) => ({
      ...initialFormState,
      ...action.payload,
    }),
    registrationSubmitted: merge<'email' | 'id' | 'verificationEmailToken' | 'passportExpeditionCountry'>(),
    signInCompleted: merge<'telephoneNumber' | 'verificationPhoneToken' | 'id'>(),
    personalInfoSubmitted:
      merge<'firstName' | 'firstSurname' | 'secondSurname' | 'nationality' | 'residenceCountry' | 'birthCountry' | 'birthDate'>(),
    phoneSubmitted: merge<'telephoneNumber'>(),
    activitySubmitted: merge<'selfEmployedId' | 'selfEmployedActivity' | 'selfEmployedDate' | 'selfEmployedAtaCode' | 'promotionalCode'>(),
    companyIdsSubmitted: merge<'cif' | 'isCif' | 'companyId'>(),
    companyExtraSubmitted:
      merge<
        | 'website'
        | 'operativeCountries'
        | 'countriesWhereOperate'
        | 'kindOfCompany'
        | 'subsidiaries'
        | 'diviloProduct'
        | 'foundsOrigin'
        | 'assetsOrigin'
        | 'politicalPosition'
      >(),
    legalInfoSubmitted: merge<'socialDenomination' | 'legalForm' | 'cnae' | 'foundedDate'>(),
    companyAddressSubmitted:
      merge<'companyAddress' | 'companyAdditionalAddress' | 'companyPostalCode' | 'companyCity' | 'companyCountry'>(),
    numbersSubmitted: merge<'employeeNumber' | 'bussinesVolume'>(),
    fiscalAddressSubmitted:
      merge<
        | 'selfEmployedFiscalAddress'
        | 'selfEmployedFiscalAdditionalAddress'
        | 'selfEmployedFiscalPostalCode'
        | 'selfEmployedFiscalCity'
        | 'selfEmployedFiscalCountry'
      >(),
    passwordChosen: merge<'diviloPassword'>(),
    ownersSubmitted: merge<'owners' | 'indirectOwners'>(),
    registrationIncomeDocumentsSubmitted: merge<'model036' | 'selfEmployedTax'>(),
    articlesOfAssociationSubmitted: merge<'companyDeeds' | 'articlesOfIncorporation'>(),
    corporateTaxSubmitted: merge<'model200'>(),
    riskFactorAssessed: merge<'riskfactor'>(),
    personTypeChosen: merge<'personType'>(),
    emailTokenRenewed: merge<'verificationEmailToken'>(),
    politicalPositionCleared(state) {
      state.politicalPosition = false;
    },
    promotionCodeApplied: merge<'promotionalCode' | 'promotionalCodeFromParam'>(),
    consentsGiven(
      state,
      action: PayloadAction<Partial<Pick_<'privacyPolicyDate' | 'precontractualinformationDate' | 'electronicIdentificationDate'>>>,
    ) {
      Object.assign(state, action.payload);
    },
  },
});

export const formActions = formSlice.actions;
export const formReducer = formSlice.reducer;

export const selectForm = (state: { form: OnboardingForm }) => state.form;
