import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/min';
import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { RadioGroup, TextInput } from '../../../components';
import { getRuntimeConfig } from '../../../config';
import { describeMessages } from '../../../i18n/messages';
import type { ValidatableSchema } from '../../../validation/validate';
import type { Answers } from '../../../onboarding/answers';
import type { PhoneSaved } from '../onboardingApi';
import { useSaveStepMutation } from '../onboardingApi';
import { CountrySelect, DialingCountrySelect } from '../pickers';
import { SendRefusalNotice, sendRefusalOf, type SendRefusal } from '../sendRefusal';
import { ContinueButton, StepLayout } from '../StepLayout';
import { useStepForm } from '../useStepForm';

const messages = describeMessages({
  personalLead: { id: 'onboarding.personal-info.lead', defaultMessage: 'As they appear on your ID document.' },
  firstName: { id: 'onboarding.personal-info.firstName', defaultMessage: 'First name' },
  firstSurname: { id: 'onboarding.personal-info.firstSurname', defaultMessage: 'First surname' },
  secondSurname: { id: 'onboarding.personal-info.secondSurname', defaultMessage: 'Second surname (optional)' },
  nationality: { id: 'onboarding.personal-info.nationality', defaultMessage: 'Nationality' },
  residenceCountry: { id: 'onboarding.personal-info.residenceCountry', defaultMessage: 'Country where you live' },
  residenceHint: { id: 'onboarding.personal-info.residenceHint', defaultMessage: 'For now we can only open accounts for people who live in Spain.' },
  birthCountry: { id: 'onboarding.personal-info.birthCountry', defaultMessage: 'Country of birth' },
  birthDate: { id: 'onboarding.personal-info.birthDate', defaultMessage: 'Date of birth' },
  dateHint: { id: 'onboarding.date.hint', defaultMessage: 'dd/mm/yyyy, for example 24/05/1988' },
  phoneLead: { id: 'onboarding.contact-phone.lead', defaultMessage: 'A mobile phone of yours: we will send a code to confirm it, and you will use it to log in.' },
  phoneCountry: { id: 'onboarding.contact-phone.country', defaultMessage: 'Country code' },
  phoneNumber: { id: 'onboarding.contact-phone.number', defaultMessage: 'Mobile number' },
  phoneSubmit: { id: 'onboarding.contact-phone.submit', defaultMessage: 'Send me the code' },
  registerAsLegend: { id: 'onboarding.register-as.legend', defaultMessage: 'I am signing up as' },
  freelance: { id: 'onboarding.register-as.freelance', defaultMessage: 'Self-employed (autónomo)' },
  freelanceHint: { id: 'onboarding.register-as.freelanceHint', defaultMessage: 'You are registered with the tax agency as self-employed.' },
  company: { id: 'onboarding.register-as.company', defaultMessage: 'A company' },
  companyHint: { id: 'onboarding.register-as.companyHint', defaultMessage: 'An S.L., S.A. or other company you represent.' },
});

type PersonalValues = Pick<Answers, 'firstName' | 'firstSurname' | 'secondSurname' | 'nationality' | 'residenceCountry' | 'birthCountry' | 'birthDate'>;
const PERSONAL_FIELDS: (keyof PersonalValues)[] = ['firstName', 'firstSurname', 'secondSurname', 'nationality', 'residenceCountry', 'birthCountry', 'birthDate'];

/** /personal-info: the applicant as their ID document names them, where they live and were born. */
export function PersonalInfoScreen() {
  const intl = useIntl();
  const { formik, field, text } = useStepForm<PersonalValues>({
    step: 'personal-info',
    fields: PERSONAL_FIELDS,
    initialValues: (form) => ({
      firstName: form.firstName,
      firstSurname: form.firstSurname,
      secondSurname: form.secondSurname,
      nationality: form.nationality || 'ES',
      residenceCountry: form.residenceCountry || 'ES',
      birthCountry: form.birthCountry,
      birthDate: form.birthDate,
    }),
  });
  return (
    <StepLayout step="personal-info" lead={intl.formatMessage(messages.personalLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <TextInput autoComplete="given-name" label={intl.formatMessage(messages.firstName)} {...text('firstName')} />
        <div className="dv-step__row">
          <TextInput autoComplete="family-name" label={intl.formatMessage(messages.firstSurname)} {...text('firstSurname')} />
          <TextInput autoComplete="off" label={intl.formatMessage(messages.secondSurname)} {...text('secondSurname')} />
        </div>
        <CountrySelect label={intl.formatMessage(messages.nationality)} field={field('nationality')} />
        <CountrySelect label={intl.formatMessage(messages.residenceCountry)} description={intl.formatMessage(messages.residenceHint)} field={field('residenceCountry')} />
        <CountrySelect label={intl.formatMessage(messages.birthCountry)} field={field('birthCountry')} />
        <TextInput inputMode="numeric" autoComplete="bday" label={intl.formatMessage(messages.birthDate)} description={intl.formatMessage(messages.dateHint)} {...text('birthDate')} />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}

/** The national part of a stored E.164 number, for the field next to its country code. */
function nationalNumber(e164: string, country: string): string {
  const parsed = parsePhoneNumberFromString(e164, country as CountryCode);
  return parsed ? parsed.formatNational().replace(/\s+/g, ' ') : e164;
}

interface PhoneValues {
  telephoneCountry: string;
  telephoneNumber: string;
}

/**
 * The phone step's rules (src/validation/phone.ts) come in a chunk of their own with libphonenumber's large
 * metadata, fetched when the step opens. Should that fail, the server's answer (the same rules) is what counts.
 */
const loadPhoneRules = () => import(/* webpackChunkName: "phone-rules" */ '../../../validation/phone');
const contactPhoneRules: ValidatableSchema = {
  validate: async (values, options) => {
    const rules = await loadPhoneRules().catch(() => undefined);
    return rules ? rules.contactPhoneSchema(getRuntimeConfig().smsCountries).validate(values, options) : values;
  },
};

/**
 * /contact-phone: the mobile number, with its country code (+34 by default, only countries the bank texts); an
 * SMS code goes to it. A refusal to send (asked again too soon, blocked, too many messages) is said under the form.
 */
export function ContactPhoneScreen() {
  const intl = useIntl();
  const [save] = useSaveStepMutation();
  const [refusal, setRefusal] = useState<SendRefusal | null>(null);
  useEffect(() => {
    void loadPhoneRules().catch(() => undefined);
  }, []);
  const { formik, field, text } = useStepForm<PhoneValues>({
    step: 'contact-phone',
    schema: contactPhoneRules,
    fields: ['telephoneCountry', 'telephoneNumber'],
    initialValues: (form) => ({
      telephoneCountry: form.telephoneCountry || 'ES',
      telephoneNumber: form.telephoneNumber.startsWith('+') ? nationalNumber(form.telephoneNumber, form.telephoneCountry || 'ES') : form.telephoneNumber,
    }),
    send: async (values) => {
      setRefusal(null);
      const saved = (await save({ endpoint: 'onboarding-management-private/phone', body: { ...values } }).unwrap()) as PhoneSaved;
      return { ...saved, arrival: { resendAfterSeconds: saved.resendAfterSeconds, sentTo: saved.maskedPhone } };
    },
    onFailure: (error) => {
      const refused = sendRefusalOf(error);
      setRefusal(refused);
      return refused !== null;
    },
  });
  return (
    <StepLayout step="contact-phone" lead={intl.formatMessage(messages.phoneLead)}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <div className="dv-phone">
          <DialingCountrySelect label={intl.formatMessage(messages.phoneCountry)} field={field('telephoneCountry')} countries={getRuntimeConfig().smsCountries} />
          <TextInput type="tel" inputMode="tel" autoComplete="tel-national" label={intl.formatMessage(messages.phoneNumber)} {...text('telephoneNumber')} />
        </div>
        <SendRefusalNotice id="contact-phone-refusal" refusal={refusal} />
        <ContinueButton loading={formik.isSubmitting} label={intl.formatMessage(messages.phoneSubmit)} />
      </form>
    </StepLayout>
  );
}

/** /register-as: self-employed or a company; the flow's rule takes each to its own path. */
export function RegisterAsScreen() {
  const intl = useIntl();
  const { formik, field } = useStepForm<{ personType: string }>({
    step: 'register-as',
    fields: ['personType'],
    initialValues: (form) => ({ personType: form.personType }),
  });
  const personType = field('personType');
  return (
    <StepLayout step="register-as">
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <RadioGroup
          legend={intl.formatMessage(messages.registerAsLegend)}
          options={[
            { value: 'freelance', label: intl.formatMessage(messages.freelance), hint: intl.formatMessage(messages.freelanceHint) },
            { value: 'company', label: intl.formatMessage(messages.company), hint: intl.formatMessage(messages.companyHint) },
          ]}
          {...personType}
          onChange={personType.set}
        />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}
