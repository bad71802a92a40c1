import { useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { SelectInput, TextInput } from '../../../components';
import { describeMessages } from '../../../i18n/messages';
import {
  LEGAL_FORM_ABBREVIATIONS,
  legalFormsFor,
  needsCorporateTax,
} from '../../../validation/onboarding';
import type { Answers } from '../../../onboarding/answers';
import { ActivityCnaeSelect } from '../pickers';
import { ContinueButton, StepLayout } from '../StepLayout';
import { ChecklistStep } from '../ChecklistStep';
import { DocumentField } from '../DocumentField';
import { useGoToStep, useStepForm } from '../useStepForm';
import { AddressStep } from './AddressStep';
import { NotServedConfirmation } from './NotServedConfirmation';
import { confirmationAsked, useSaveStepMutation } from '../onboardingApi';
import { useAppDispatch } from '../../../app/hooks';
import { errorRaised } from '../../../state/sessionSlice';
import { stepById } from '../../../onboarding/flow';
import { useSavedAnswers } from '../savedApplication';

const messages = describeMessages({
  needCif: { id: 'onboarding.requirements-company.cif', defaultMessage: "The company's tax ID (CIF), its activity (CNAE) and its registered address." },
  needDeeds: { id: 'onboarding.requirements-company.deeds', defaultMessage: 'The deeds of incorporation and the articles of association, as PDFs.' },
  need200: { id: 'onboarding.requirements-company.model200', defaultMessage: 'The last corporate tax return (modelo 200) as a PDF, unless the company is less than a year old.' },
  needOwners: { id: 'onboarding.requirements-company.owners', defaultMessage: 'The details of everyone who owns more than 25% of the company, or of its administrators.' },
  cifLead: { id: 'onboarding.about-company.lead', defaultMessage: 'We start with its tax ID: it tells us what kind of company it is.' },
  cif: { id: 'onboarding.about-company.cif', defaultMessage: 'Company tax ID (CIF)' },
  cifHint: { id: 'onboarding.about-company.cifHint', defaultMessage: 'A letter, seven digits and a check character, for example B12345674.' },
  infoLead: { id: 'onboarding.about-company-info.lead', defaultMessage: 'As in the Mercantile Registry.' },
  denomination: { id: 'onboarding.about-company-info.denomination', defaultMessage: 'Company name' },
  legalForm: { id: 'onboarding.about-company-info.legalForm', defaultMessage: 'Legal form' },
  choose: { id: 'onboarding.select.choose', defaultMessage: 'Choose…' },
  cnae: { id: 'onboarding.about-company-info.cnae', defaultMessage: 'Main activity (CNAE-2025)' },
  cnaeHint: { id: 'onboarding.about-company-info.cnaeHint', defaultMessage: 'Search by its code (62.10 or 6210) or say what the company does, in Spanish or English.' },
  founded: { id: 'onboarding.about-company-info.founded', defaultMessage: 'Date of incorporation' },
  dateHint: { id: 'onboarding.date.hint', defaultMessage: 'dd/mm/yyyy, for example 24/05/1988' },
  addressLead: { id: 'onboarding.about-company-address.lead', defaultMessage: "The company's registered address." },
  deedsLead: { id: 'onboarding.articles-of-association.lead', defaultMessage: 'Copies from the notary or the Mercantile Registry, as PDFs.' },
  companyDeeds: { id: 'onboarding.articles-of-association.companyDeeds', defaultMessage: 'Deeds of incorporation' },
  articlesOfIncorporation: { id: 'onboarding.articles-of-association.articles', defaultMessage: 'Articles of association (estatutos)' },
  model200: { id: 'onboarding.corporate-tax.model200', defaultMessage: 'Last corporate tax return (modelo 200)' },
  taxRequired: { id: 'onboarding.corporate-tax.required', defaultMessage: 'The return of the last tax year the company closed.' },
  taxOptional: {
    id: 'onboarding.corporate-tax.optional',
    defaultMessage: 'The company is less than a year old, so it may not have filed one yet: you can continue without it.',
  },
  numbersLead: { id: 'onboarding.about-company-numbers.lead', defaultMessage: 'Approximate figures of the last year are fine.' },
  employees: { id: 'onboarding.about-company-numbers.employees', defaultMessage: 'Number of employees' },
  turnover: { id: 'onboarding.about-company-numbers.turnover', defaultMessage: 'Yearly turnover, in euros' },
  turnoverHint: { id: 'onboarding.about-company-numbers.turnoverHint', defaultMessage: 'In whole euros, for example 250,000.' },
});

/** /requirements-company: what a company's representative needs at hand. */
export function RequirementsCompanyScreen() {
  const intl = useIntl();
  return <ChecklistStep step="requirements-company" items={[messages.needCif, messages.needDeeds, messages.need200, messages.needOwners].map((item) => intl.formatMessage(item))} />;
}

/** /about-company: the CIF, whose entity letter says whether the bank serves the company (else /company-error). */
export function AboutCompanyScreen() {
  const intl = useIntl();
  // The CIF the applicant confirmed as right although its entity is not served, and the one the server asks about.
  const confirmed = useRef<string | null>(null);
  const [asked, setAsked] = useState<{ cif: string; entity: string } | null>(null);
  const { formik, text, field } = useStepForm<{ cif: string }>({
    step: 'about-company',
    fields: ['cif'],
    initialValues: (form) => ({ cif: form.cif }),
    toBody: (values) => (confirmed.current === values.cif ? { cif: values.cif, confirmNotServed: true } : { cif: values.cif }),
    onFailure: (error) => {
      const entity = confirmationAsked(error);
      if (entity === undefined) return false;
      setAsked({ cif: formik.values.cif, entity });
      return true;
    },
  });
  const asking = asked !== null && asked.cif === formik.values.cif;
  const cif = field('cif');
  const dispatch = useAppDispatch();
  const goTo = useGoToStep();
  const [savePersonType, { isLoading: switching }] = useSaveStepMutation();
  // A community of property's member takes the self-employed path: the person type is saved again, nothing closes.
  const applyAsFreelance = async () => {
    try {
      const saved = await savePersonType({ endpoint: stepById('register-as')!.endpoint!, body: { personType: 'freelance' } }).unwrap();
      goTo(saved.next);
    } catch {
      dispatch(errorRaised('error.errorSendingData'));
    }
  };
  return (
    <StepLayout step="about-company" lead={intl.formatMessage(messages.cifLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <TextInput autoCapitalize="characters" spellCheck={false} autoComplete="off" label={intl.formatMessage(messages.cif)} description={intl.formatMessage(messages.cifHint)} {...text('cif')} />
        {asking ? (
          <NotServedConfirmation
            entity={asked.entity}
            confirming={formik.isSubmitting}
            onCorrect={() => {
              setAsked(null);
              cif.ref.current?.focus();
              cif.ref.current?.select();
            }}
            onConfirm={() => {
              confirmed.current = formik.values.cif;
              void formik.submitForm();
            }}
            onFreelance={() => void applyAsFreelance()}
            switching={switching}
          />
        ) : (
          <ContinueButton loading={formik.isSubmitting} />
        )}
      </form>
    </StepLayout>
  );
}

type InfoValues = Pick<Answers, 'socialDenomination' | 'legalForm' | 'cnae' | 'foundedDate'>;

/** /about-company-info: name, legal form (those of its entity type), CNAE-2025 activity, date of incorporation. */
export function AboutCompanyInfoScreen() {
  const intl = useIntl();
  const form = useSavedAnswers();
  const forms = legalFormsFor(form.cif);
  const { formik, field, text } = useStepForm<InfoValues>({
    step: 'about-company-info',
    fields: ['socialDenomination', 'legalForm', 'cnae', 'foundedDate'],
    initialValues: () => ({
      socialDenomination: form.socialDenomination,
      // An S.L. is the only choice more often than not: one legal form of the entity type is chosen for the applicant.
      legalForm: form.legalForm || (forms.length === 1 ? forms[0] : ''),
      cnae: form.cnae,
      foundedDate: form.foundedDate,
    }),
  });
  const { ref, value, error, errorText } = field('legalForm');
  return (
    <StepLayout step="about-company-info" lead={intl.formatMessage(messages.infoLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <TextInput autoComplete="organization" label={intl.formatMessage(messages.denomination)} {...text('socialDenomination')} />
        <SelectInput
          label={intl.formatMessage(messages.legalForm)}
          placeholder={intl.formatMessage(messages.choose)}
          options={forms.map((legalForm) => ({ value: legalForm, label: LEGAL_FORM_ABBREVIATIONS[legalForm] }))}
          name="legalForm"
          value={value}
          onChange={formik.handleChange}
          onBlur={formik.handleBlur}
          error={error}
          errorText={errorText}
          ref={ref as never}
        />
        <ActivityCnaeSelect label={intl.formatMessage(messages.cnae)} description={intl.formatMessage(messages.cnaeHint)} field={field('cnae')} />
        <TextInput inputMode="numeric" autoComplete="off" label={intl.formatMessage(messages.founded)} description={intl.formatMessage(messages.dateHint)} {...text('foundedDate')} />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}

/** /about-company-address: the registered address. */
export function AboutCompanyAddressScreen() {
  const intl = useIntl();
  return <AddressStep step="about-company-address" prefix="company" lead={intl.formatMessage(messages.addressLead)} />;
}

/** /articles-of-association: the deeds of incorporation and the articles, as PDFs checked by the server. */
export function ArticlesOfAssociationScreen() {
  const intl = useIntl();
  const { formik, field } = useStepForm<{ companyDeeds: string; articlesOfIncorporation: string }>({
    step: 'articles-of-association',
    fields: ['companyDeeds', 'articlesOfIncorporation'],
    initialValues: (form) => ({ companyDeeds: form.companyDeeds, articlesOfIncorporation: form.articlesOfIncorporation }),
  });
  return (
    <StepLayout step="articles-of-association" lead={intl.formatMessage(messages.deedsLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        {(['companyDeeds', 'articlesOfIncorporation'] as const).map((kind) => (
          <DocumentField key={kind} kind={kind} label={intl.formatMessage(messages[kind])} field={field(kind)} />
        ))}
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}

/** /corporate-tax: the last modelo 200; a company in its first year may go on without it. */
export function CorporateTaxScreen() {
  const intl = useIntl();
  const form = useSavedAnswers();
  const required = needsCorporateTax(form.foundedDate);
  const { formik, field } = useStepForm<{ model200: string }>({
    step: 'corporate-tax',
    fields: ['model200'],
    initialValues: () => ({ model200: form.model200 }),
  });
  return (
    <StepLayout step="corporate-tax" lead={intl.formatMessage(required ? messages.taxRequired : messages.taxOptional)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <DocumentField kind="model200" label={intl.formatMessage(messages.model200)} field={field('model200')} />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}

/** /about-company-numbers: employees and yearly turnover. */
export function AboutCompanyNumbersScreen() {
  const intl = useIntl();
  const { formik, text } = useStepForm<{ employeeNumber: string; bussinesVolume: string }>({
    step: 'about-company-numbers',
    fields: ['employeeNumber', 'bussinesVolume'],
    initialValues: (form) => ({ employeeNumber: form.employeeNumber, bussinesVolume: form.bussinesVolume }),
  });
  return (
    <StepLayout step="about-company-numbers" lead={intl.formatMessage(messages.numbersLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <TextInput inputMode="numeric" autoComplete="off" label={intl.formatMessage(messages.employees)} {...text('employeeNumber')} />
        <TextInput inputMode="numeric" autoComplete="off" label={intl.formatMessage(messages.turnover)} description={intl.formatMessage(messages.turnoverHint)} {...text('bussinesVolume')} />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}
