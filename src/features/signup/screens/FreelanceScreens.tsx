import { useState } from 'react';
import { useIntl } from 'react-intl';
import { RadioGroup, TextInput } from '../../../components';
import { describeMessages } from '../../../i18n/messages';
import { SELF_EMPLOYED_TAX_REGIMES } from '../../../validation/onboarding';
import { canonicalIdDocument } from '../../../validation/identifiers';
import type { Answers } from '../../../onboarding/answers';
import { ActivitySelect } from '../pickers';
import { ChecklistStep } from '../ChecklistStep';
import { DocumentField } from '../DocumentField';
import { AddressStep } from './AddressStep';
import { ContinueButton, StepLayout } from '../StepLayout';
import { useStepForm } from '../useStepForm';
import { useSavedAnswers } from '../savedApplication';

const messages = describeMessages({
  needNif: { id: 'onboarding.requirements-freelance.nif', defaultMessage: 'Your NIF and the IAE epigraph of your activity.' },
  need036: { id: 'onboarding.requirements-freelance.model036', defaultMessage: 'Your registration as self-employed (modelo 036 or 037) as a PDF.' },
  needAddress: { id: 'onboarding.requirements-freelance.address', defaultMessage: 'Your fiscal address.' },
  activityLead: { id: 'onboarding.your-activity.lead', defaultMessage: 'As in your registration with the tax agency.' },
  nif: { id: 'onboarding.your-activity.nif', defaultMessage: 'NIF (tax ID)' },
  nifHint: { id: 'onboarding.your-activity.nifHint', defaultMessage: 'As self-employed, usually your DNI or NIE.' },
  activity: { id: 'onboarding.your-activity.activity', defaultMessage: 'Activity (IAE epigraph)' },
  activityHint: { id: 'onboarding.your-activity.activityHint', defaultMessage: 'Search by its code (673.2 or 6732) or say what you do, in Spanish or English.' },
  startDate: { id: 'onboarding.your-activity.startDate', defaultMessage: 'Date you started the activity' },
  dateHint: { id: 'onboarding.date.hint', defaultMessage: 'dd/mm/yyyy, for example 24/05/1988' },
  ata: { id: 'onboarding.your-activity.ata', defaultMessage: 'ATA membership code (optional)' },
  promo: { id: 'onboarding.signUp.promotionalCode', defaultMessage: 'Promotional code (optional)' },
  addressLead: { id: 'onboarding.fiscal-address.lead', defaultMessage: 'The address you gave the tax agency for your activity.' },
  regime: { id: 'onboarding.tax.regime', defaultMessage: 'Income tax regime (IRPF)' },
  'direct-normal': { id: 'onboarding.tax.regime.direct-normal', defaultMessage: 'Direct assessment, normal (estimación directa normal)' },
  'direct-simplified': { id: 'onboarding.tax.regime.direct-simplified', defaultMessage: 'Direct assessment, simplified (estimación directa simplificada)' },
  objective: { id: 'onboarding.tax.regime.objective', defaultMessage: 'Objective assessment (módulos)' },
  model036: { id: 'onboarding.tax.model036', defaultMessage: 'Modelo 036 or 037' },
  model036Hint: { id: 'onboarding.tax.model036Hint', defaultMessage: 'Your registration as self-employed with the tax agency.' },
});

/** /requirements-freelance: what a self-employed applicant needs at hand. */
export function RequirementsFreelanceScreen() {
  const intl = useIntl();
  return <ChecklistStep step="requirements-freelance" items={[messages.needNif, messages.need036, messages.needAddress].map((item) => intl.formatMessage(item))} />;
}

type ActivityValues = Pick<Answers, 'selfEmployedId' | 'selfEmployedActivity' | 'selfEmployedDate' | 'selfEmployedAtaCode' | 'promotionalCode'>;

/** /your-activity: the freelancer's NIF (their DNI/NIE, filled in), IAE epigraph, start date and codes. */
export function YourActivityScreen() {
  const intl = useIntl();
  // Asked once: a code given at /signUp (typed, or from the link) is kept and sent again, not asked for here.
  const saved = useSavedAnswers();
  const [codeGiven] = useState(() => saved.promotionalCode !== '');
  const { formik, field, text } = useStepForm<ActivityValues>({
    step: 'your-activity',
    fields: ['selfEmployedId', 'selfEmployedActivity', 'selfEmployedDate', 'selfEmployedAtaCode', 'promotionalCode'],
    initialValues: (form) => ({
      // Nothing asked twice: a self-employed person's NIF is the DNI or NIE they signed up with.
      selfEmployedId: form.selfEmployedId || (form.idType === 'nif' ? canonicalIdDocument(form.id) : ''),
      selfEmployedActivity: form.selfEmployedActivity,
      selfEmployedDate: form.selfEmployedDate,
      selfEmployedAtaCode: form.selfEmployedAtaCode,
      promotionalCode: form.promotionalCode,
    }),
  });
  return (
    <StepLayout step="your-activity" lead={intl.formatMessage(messages.activityLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <TextInput autoCapitalize="characters" spellCheck={false} label={intl.formatMessage(messages.nif)} description={intl.formatMessage(messages.nifHint)} {...text('selfEmployedId')} />
        <ActivitySelect label={intl.formatMessage(messages.activity)} description={intl.formatMessage(messages.activityHint)} field={field('selfEmployedActivity')} />
        <TextInput inputMode="numeric" autoComplete="off" label={intl.formatMessage(messages.startDate)} description={intl.formatMessage(messages.dateHint)} {...text('selfEmployedDate')} />
        <TextInput autoCapitalize="characters" spellCheck={false} label={intl.formatMessage(messages.ata)} {...text('selfEmployedAtaCode')} />
        {!codeGiven && <TextInput autoCapitalize="characters" spellCheck={false} label={intl.formatMessage(messages.promo)} {...text('promotionalCode')} />}
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}

/** /fiscal-address: where the activity is registered; a Spanish postal code when in Spain. */
export function FiscalAddressScreen() {
  const intl = useIntl();
  return <AddressStep step="fiscal-address" prefix="selfEmployedFiscal" lead={intl.formatMessage(messages.addressLead)} />;
}

/** /tax-registration-income: the IRPF regime and the modelo 036/037, checked by the server when uploaded. */
export function TaxRegistrationScreen() {
  const intl = useIntl();
  const form = useSavedAnswers();
  const { formik, field } = useStepForm<{ selfEmployedTax: string; model036: string }>({
    step: 'tax-registration-income',
    fields: ['selfEmployedTax', 'model036'],
    initialValues: () => ({ selfEmployedTax: form.selfEmployedTax, model036: form.model036 }),
  });
  const regime = field('selfEmployedTax');
  return (
    <StepLayout step="tax-registration-income">
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <RadioGroup
          legend={intl.formatMessage(messages.regime)}
          options={SELF_EMPLOYED_TAX_REGIMES.map((value) => ({ value, label: intl.formatMessage(messages[value]) }))}
          {...regime}
          onChange={regime.set}
        />
        <DocumentField kind="model036" label={intl.formatMessage(messages.model036)} description={intl.formatMessage(messages.model036Hint)} field={field('model036')} />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}
