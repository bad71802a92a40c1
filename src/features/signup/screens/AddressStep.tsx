import { useIntl } from 'react-intl';
import { TextInput } from '../../../components';
import { describeMessages } from '../../../i18n/messages';
import type { StepId } from '../../../onboarding/flow';
import { CountrySelect } from '../pickers';
import { ContinueButton, StepLayout } from '../StepLayout';
import { useStepForm } from '../useStepForm';

const messages = describeMessages({
  address: { id: 'onboarding.address.line', defaultMessage: 'Street and number' },
  additional: { id: 'onboarding.address.additional', defaultMessage: 'Floor, door, building (optional)' },
  postalCode: { id: 'onboarding.address.postalCode', defaultMessage: 'Postal code' },
  city: { id: 'onboarding.address.city', defaultMessage: 'Town or city' },
  country: { id: 'onboarding.address.country', defaultMessage: 'Country' },
});

type Part = 'Address' | 'AdditionalAddress' | 'PostalCode' | 'City' | 'Country';
const PARTS: Part[] = ['Address', 'AdditionalAddress', 'PostalCode', 'City', 'Country'];

/**
 * An address step (the freelancer's fiscal address, the company's registered address): the form record's fields
 * `<prefix>Address`, … `<prefix>Country`, with the Spanish postal code rule when the country is Spain.
 */
export function AddressStep({ step, prefix, lead }: { step: StepId; prefix: 'selfEmployedFiscal' | 'company'; lead: string }) {
  const intl = useIntl();
  const names = PARTS.map((part) => `${prefix}${part}`);
  const { formik, field, text } = useStepForm<Record<string, string>>({
    step,
    fields: names,
    initialValues: (form) => {
      const saved = form as unknown as Record<string, string>;
      return Object.fromEntries(names.map((name) => [name, saved[name] || (name.endsWith('Country') ? 'ES' : '')]));
    },
  });
  const [address, additional, postalCode, city, country] = names;
  return (
    <StepLayout step={step} lead={lead}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <TextInput autoComplete="address-line1" label={intl.formatMessage(messages.address)} {...text(address)} />
        <TextInput autoComplete="address-line2" label={intl.formatMessage(messages.additional)} {...text(additional)} />
        <div className="dv-step__row">
          <TextInput inputMode={formik.values[country] === 'ES' ? 'numeric' : 'text'} autoComplete="postal-code" label={intl.formatMessage(messages.postalCode)} {...text(postalCode)} />
          <TextInput autoComplete="address-level2" label={intl.formatMessage(messages.city)} {...text(city)} />
        </div>
        <CountrySelect label={intl.formatMessage(messages.country)} autoComplete="off" field={field(country)} />
        <ContinueButton loading={formik.isSubmitting} />
      </form>
    </StepLayout>
  );
}
