import { useIntl } from 'react-intl';
import { LoadingButton } from '../../components';
import { describeMessages } from '../../i18n/messages';
import type { StepId } from '../../onboarding/flow';
import { StepLayout } from './StepLayout';
import { useGoOn } from './useStepForm';

const messages = describeMessages({
  lead: { id: 'onboarding.requirements.lead', defaultMessage: 'Before you start, have this at hand:' },
  id: { id: 'onboarding.requirements.id', defaultMessage: 'Your DNI or NIE, to take photos of both sides, and your phone for a selfie.' },
  start: { id: 'onboarding.requirements.start', defaultMessage: 'I have everything, start' },
});

/**
 * A path's checklist (/requirements-freelance, /requirements-company): what the applicant needs at hand, the ID
 * document last as every path needs it; nothing to save, Start goes where the flow says.
 */
export function ChecklistStep({ step, items }: { step: StepId; items: readonly string[] }) {
  const intl = useIntl();
  const goOn = useGoOn(step);
  return (
    <StepLayout step={step} lead={intl.formatMessage(messages.lead)}>
      <ul className="dv-checklist">
        {[...items, intl.formatMessage(messages.id)].map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <div className="dv-step__actions">
        <LoadingButton onClick={() => goOn()}>{intl.formatMessage(messages.start)}</LoadingButton>
      </div>
    </StepLayout>
  );
}
