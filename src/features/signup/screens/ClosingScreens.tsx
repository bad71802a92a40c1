import { useIntl } from 'react-intl';
import { PasswordInput, RadioGroup, SelectInput, TextInput } from '../../../components';
import { describeMessages } from '../../../i18n/messages';
import { PRODUCT_PASSWORD_MAX_LENGTH, PRODUCT_PASSWORD_MIN_LENGTH } from '../../../validation/constants';
import { COMPANY_FUNDS_ORIGINS, DIVILO_PRODUCTS, FUNDS_ORIGINS, KINDS_OF_COMPANY, SUBSIDIARIES, diviloPasswordSchema, ownerDocumentKey } from '../../../validation/onboarding';
import type { Answers } from '../../../onboarding/answers';
import { CountriesSelect, YesNoGroup } from '../pickers';
import { ContinueButton, StepLayout } from '../StepLayout';
import { useStepForm } from '../useStepForm';
import { useSavedAnswers } from '../savedApplication';

const messages = describeMessages({
  moreLead: { id: 'onboarding.tell-us-more.lead', defaultMessage: 'The law asks banks to know how their customers will use their account.' },
  website: { id: 'onboarding.tell-us-more.website', defaultMessage: 'Website (optional)' },
  websiteHint: { id: 'onboarding.tell-us-more.websiteHint', defaultMessage: 'For example www.yourcompany.es' },
  countries: { id: 'onboarding.tell-us-more.countries', defaultMessage: 'Countries where you work' },
  countriesHint: { id: 'onboarding.tell-us-more.countriesHint', defaultMessage: 'Add each country where you have customers or suppliers.' },
  product: { id: 'onboarding.tell-us-more.product', defaultMessage: 'What do you need?' },
  account: { id: 'onboarding.tell-us-more.product.account', defaultMessage: 'A business account' },
  'account-and-cards': { id: 'onboarding.tell-us-more.product.account-and-cards', defaultMessage: 'An account and cards' },
  'account-cards-and-payments': { id: 'onboarding.tell-us-more.product.account-cards-and-payments', defaultMessage: 'An account, cards and payment collection' },
  fundsOrigin: { id: 'onboarding.tell-us-more.fundsOrigin', defaultMessage: 'Where will the money in the account come from?' },
  assetsOrigin: { id: 'onboarding.tell-us-more.assetsOrigin', defaultMessage: 'Where do your assets come from?' },
  companyAssetsOrigin: { id: 'onboarding.tell-us-more.companyAssetsOrigin', defaultMessage: "Where do the company's assets come from?" },
  choose: { id: 'onboarding.select.choose', defaultMessage: 'Choose…' },
  establishedAbroad: { id: 'onboarding.tell-us-more.establishedAbroad', defaultMessage: 'Does the company have offices or staff outside Spain?' },
  'establishedAbroad.no': { id: 'onboarding.tell-us-more.establishedAbroad.no', defaultMessage: 'No, only in Spain' },
  'establishedAbroad.yes': { id: 'onboarding.tell-us-more.establishedAbroad.yes', defaultMessage: 'Yes, abroad too' },
  operativeCountries: { id: 'onboarding.tell-us-more.operativeCountries', defaultMessage: 'Countries outside Spain where it has offices or staff' },
  companyCountries: { id: 'onboarding.tell-us-more.companyCountries', defaultMessage: 'Countries where the company has customers or suppliers' },
  kindOfCompany: { id: 'onboarding.tell-us-more.kindOfCompany', defaultMessage: 'What does the company mainly do?' },
  'kind.trading': { id: 'onboarding.kindOfCompany.trading', defaultMessage: 'Buys and sells goods' },
  'kind.services': { id: 'onboarding.kindOfCompany.services', defaultMessage: 'Provides services' },
  'kind.manufacturing': { id: 'onboarding.kindOfCompany.manufacturing', defaultMessage: 'Makes products' },
  'kind.construction-real-estate': { id: 'onboarding.kindOfCompany.construction-real-estate', defaultMessage: 'Construction or real estate' },
  'kind.holding': { id: 'onboarding.kindOfCompany.holding', defaultMessage: 'Holds shares in other companies' },
  'kind.other': { id: 'onboarding.kindOfCompany.other', defaultMessage: 'Something else' },
  subsidiaries: { id: 'onboarding.tell-us-more.subsidiaries', defaultMessage: 'Does the company have subsidiaries?' },
  'subsidiaries.none': { id: 'onboarding.subsidiaries.none', defaultMessage: 'No, none' },
  'subsidiaries.spain': { id: 'onboarding.subsidiaries.spain', defaultMessage: 'Yes, in Spain' },
  'subsidiaries.abroad': { id: 'onboarding.subsidiaries.abroad', defaultMessage: 'Yes, abroad' },
  'subsidiaries.spain-and-abroad': { id: 'onboarding.subsidiaries.spain-and-abroad', defaultMessage: 'Yes, in Spain and abroad' },
  'business-activity': { id: 'onboarding.origin.business-activity', defaultMessage: 'My business activity' },
  'company.business-activity': { id: 'onboarding.origin.company.business-activity', defaultMessage: "The company's business" },
  'partners-contributions': { id: 'onboarding.origin.partners-contributions', defaultMessage: 'Contributions from its partners or shareholders' },
  grants: { id: 'onboarding.origin.grants', defaultMessage: 'Public grants or subsidies' },
  savings: { id: 'onboarding.origin.savings', defaultMessage: 'Savings' },
  salary: { id: 'onboarding.origin.salary', defaultMessage: 'A salary or pension' },
  'inheritance-or-gift': { id: 'onboarding.origin.inheritance-or-gift', defaultMessage: 'An inheritance or a gift' },
  investments: { id: 'onboarding.origin.investments', defaultMessage: 'Investments' },
  loan: { id: 'onboarding.origin.loan', defaultMessage: 'A loan' },
  other: { id: 'onboarding.origin.other', defaultMessage: 'Other' },
  pep: { id: 'onboarding.tell-us-more.pep', defaultMessage: 'Do you hold, or have you held in the last two years, a public office of importance?' },
  pepHint: {
    id: 'onboarding.tell-us-more.pepHint',
    defaultMessage: 'For example a minister, member of parliament, judge of a high court, ambassador or director of a public company, or a close relative of one.',
  },
  yes: { id: 'onboarding.yes', defaultMessage: 'Yes, I do' },
  no: { id: 'onboarding.no', defaultMessage: "No, I don't" },
  passwordLead: { id: 'onboarding.divilo-password.lead', defaultMessage: 'You will log in with your ID document number, this password and a code by SMS.' },
  password: { id: 'onboarding.divilo-password.password', defaultMessage: 'Password' },
  // One wording of the rule: the hint is the error's own text.
  passwordRule: { id: 'validations.diviloPassword', defaultMessage: 'The password must be {min} to {max} characters long and include a lowercase letter, an uppercase letter, a number and a special character, with no spaces' },
  confirmation: { id: 'onboarding.divilo-password.confirmation', defaultMessage: 'Repeat the password' },
});

interface MoreValues {
  website: string;
  countriesWhereOperate: string[];
  diviloProduct: string;
  foundsOrigin: string;
  assetsOrigin: string;
  politicalPosition: boolean | undefined;
  // The company's own questions
  establishedAbroad: boolean | undefined;
  operativeCountries: string[];
  kindOfCompany: string;
  subsidiaries: string;
}

const FREELANCE_FIELDS: (keyof MoreValues)[] = ['website', 'countriesWhereOperate', 'diviloProduct', 'foundsOrigin', 'assetsOrigin', 'politicalPosition'];
const COMPANY_FIELDS: (keyof MoreValues)[] = ['website', 'countriesWhereOperate', 'establishedAbroad', 'operativeCountries', 'kindOfCompany', 'subsidiaries', 'diviloProduct', 'foundsOrigin', 'assetsOrigin', 'politicalPosition'];

/** /tell-us-more-freelance: how the account will be used (know your customer); feeds the server's risk. */
export function TellUsMoreFreelanceScreen() {
  return <TellUsMoreStep company={false} />;
}

/** /tell-us-more-company: the same, and where the company is established, what kind it is, its subsidiaries. */
export function TellUsMoreCompanyScreen() {
  return <TellUsMoreStep company />;
}

/** The applicant's own "politically exposed" answer, given when they added themselves on /royal-owners. */
function ownAnswer(form: Answers): boolean | undefined {
  if (form.idType !== 'nif' || !form.id) return undefined;
  return form.owners.find((owner) => ownerDocumentKey(owner.identificationDocument) === ownerDocumentKey(form.id))?.politicalPosition;
}

function TellUsMoreStep({ company }: { company: boolean }) {
  const intl = useIntl();
  const form = useSavedAnswers();
  // Answered before when the step was saved: the origin of funds is one of its required answers.
  const answered = form.foundsOrigin !== '';
  const fields = company ? COMPANY_FIELDS : FREELANCE_FIELDS;
  const { formik, field, text } = useStepForm<MoreValues>({
    step: company ? 'tell-us-more-company' : 'tell-us-more-freelance',
    fields,
    initialValues: () => ({
      website: form.website,
      countriesWhereOperate: form.countriesWhereOperate.length > 0 ? form.countriesWhereOperate : ['ES'],
      diviloProduct: form.diviloProduct,
      foundsOrigin: form.foundsOrigin,
      assetsOrigin: form.assetsOrigin,
      // Asked once: an applicant who listed themselves among the company's owners answered it in that form.
      politicalPosition: answered ? form.politicalPosition : company ? ownAnswer(form) : undefined,
      // Applications saved before the question was asked kept Spain among these countries.
      establishedAbroad: form.establishedAbroad ?? (answered ? form.operativeCountries.some((code) => code !== 'ES') : undefined),
      operativeCountries: form.operativeCountries.filter((code) => code !== 'ES'),
      kindOfCompany: form.kindOfCompany,
      subsidiaries: form.subsidiaries,
    }),
    toBody: (values) => Object.fromEntries(fields.map((name) => [name, values[name]])),
  });
  const origins = company
    ? COMPANY_FUNDS_ORIGINS.map((value) => ({ value, label: intl.formatMessage(messages[value === 'business-activity' ? 'company.business-activity' : value]) }))
    : FUNDS_ORIGINS.map((value) => ({ value, label: intl.formatMessage(messages[value]) }));
  const product = field('diviloProduct');
  const subsidiaries = field('subsidiaries');
  const select = (name: 'foundsOrigin' | 'assetsOrigin' | 'kindOfCompany') => {
    const { ref, value, error, errorText } = field(name);
    return { name, value, onChange: formik.handleChange, onBlur: formik.handleBlur, error, errorText, ref: ref as never };
  };
  return (
    <StepLayout step={company ? 'tell-us-more-company' : 'tell-us-more-freelance'} lead={intl.formatMessage(messages.moreLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <TextInput type="url" inputMode="url" autoComplete="url" spellCheck={false} label={intl.formatMessage(messages.website)} description={intl.formatMessage(messages.websiteHint)} {...text('website')} />
        <CountriesSelect
          label={intl.formatMessage(company ? messages.companyCountries : messages.countries)}
          description={company ? undefined : intl.formatMessage(messages.countriesHint)}
          field={field('countriesWhereOperate')}
        />
        {company && (
          <>
            <YesNoGroup
              legend={intl.formatMessage(messages.establishedAbroad)}
              yes={intl.formatMessage(messages['establishedAbroad.yes'])}
              no={intl.formatMessage(messages['establishedAbroad.no'])}
              noFirst
              field={field('establishedAbroad')}
            />
            {formik.values.establishedAbroad === true && <CountriesSelect label={intl.formatMessage(messages.operativeCountries)} exclude="ES" field={field('operativeCountries')} />}
            <SelectInput
              label={intl.formatMessage(messages.kindOfCompany)}
              placeholder={intl.formatMessage(messages.choose)}
              options={KINDS_OF_COMPANY.map((value) => ({ value, label: intl.formatMessage(messages[`kind.${value}`]) }))}
              {...select('kindOfCompany')}
            />
            <RadioGroup
              legend={intl.formatMessage(messages.subsidiaries)}
              options={SUBSIDIARIES.map((value) => ({ value, label: intl.formatMessage(messages[`subsidiaries.${value}`]) }))}
              {...subsidiaries}
              onChange={subsidiaries.set}
            />
          </>
        )}
        <RadioGroup
          legend={intl.formatMessage(messages.product)}
          options={DIVILO_PRODUCTS.map((value) => ({ value, label: intl.formatMessage(messages[value]) }))}
          {...product}
          onChange={product.set}
        />
        <SelectInput label={intl.formatMessage(messages.fundsOrigin)} placeholder={intl.formatMessage(messages.choose)} options={origins} {...select('foundsOrigin')} />
        <SelectInput label={intl.formatMessage(company ? messages.companyAssetsOrigin : messages.assetsOrigin)} placeholder={intl.formatMessage(messages.choose)} options={origins} {...select('assetsOrigin')} />
        <YesNoGroup
          legend={intl.formatMessage(messages.pep)}
          description={intl.formatMessage(messages.pepHint)}
          yes={intl.formatMessage(messages.yes)}
          no={intl.formatMessage(messages.no)}
          field={field('politicalPosition')}
        />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}

/** /divilo-password: the password of the account being opened (the product rule); it never leaves memory. */
export function DiviloPasswordScreen() {
  const intl = useIntl();
  const { formik, text } = useStepForm<{ diviloPassword: string; diviloPasswordConfirmation: string }>({
    step: 'divilo-password',
    keepDraft: false,
    schema: diviloPasswordSchema,
    fields: ['diviloPassword', 'diviloPasswordConfirmation'],
    initialValues: () => ({ diviloPassword: '', diviloPasswordConfirmation: '' }),
  });
  return (
    <StepLayout step="divilo-password" lead={intl.formatMessage(messages.passwordLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <PasswordInput
          label={intl.formatMessage(messages.password)}
          description={intl.formatMessage(messages.passwordRule, { min: PRODUCT_PASSWORD_MIN_LENGTH, max: PRODUCT_PASSWORD_MAX_LENGTH })}
          autoComplete="new-password"
          {...text('diviloPassword')}
        />
        <PasswordInput label={intl.formatMessage(messages.confirmation)} autoComplete="new-password" {...text('diviloPasswordConfirmation')} />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}
