import { useEffect, useRef } from 'react';
import { useIntl } from 'react-intl';
import { LoadingButton } from '../../../components';
import { describeMessages } from '../../../i18n/messages';

const messages = describeMessages({
  title: { id: 'onboarding.about-company.confirm.title', defaultMessage: 'Is the CIF right?' },
  text: {
    id: 'onboarding.about-company.confirm.text',
    defaultMessage:
      'A CIF starting with {entity} belongs to {entity, select, E {a community of property (comunidad de bienes)} G {an association or foundation} H {a community of owners} N {a foreign entity} P {a local council or local body} Q {a public body} R {a religious body} S {a public administration} U {a temporary business union (UTE)} W {a permanent establishment of a non-resident entity} other {an entity of another kind}}. Divilo cannot open accounts for this kind of entity online: if you go on, your application ends here.',
  },
  correct: { id: 'onboarding.about-company.confirm.correct', defaultMessage: 'Correct the CIF' },
  confirm: { id: 'onboarding.about-company.confirm.confirm', defaultMessage: 'The CIF is right' },
  members: {
    id: 'onboarding.about-company.confirm.members',
    defaultMessage: 'Each member of a community of property can open an account as self-employed (autónomo), with their own details.',
  },
  freelance: { id: 'onboarding.about-company.confirm.freelance', defaultMessage: 'Continue as self-employed instead' },
});

interface Props {
  /** The CIF's entity letter, as the server named it. */
  entity: string;
  /** Back to the field, to correct the CIF. */
  onCorrect: () => void;
  /** Save the CIF as it is: the application closes. */
  onConfirm: () => void;
  confirming: boolean;
  /** A community of property (E): its members' own path, as self-employed, in place of closing. */
  onFreelance?: () => void;
  switching?: boolean;
}

/**
 * Asked before a CIF of an entity the bank does not serve closes the application: one mistyped letter
 * (G58378431 for B58378431) can still pass the check character. Correcting comes first, and is the default.
 */
export function NotServedConfirmation({ entity, onCorrect, onConfirm, confirming, onFreelance, switching = false }: Props) {
  const intl = useIntl();
  const title = useRef<HTMLHeadingElement>(null);
  const freelance = entity === 'E' && onFreelance !== undefined;
  useEffect(() => title.current?.focus(), [entity]);
  return (
    <section className="dv-confirm" aria-labelledby="not-served-title">
      <h2 id="not-served-title" className="dv-confirm__title" tabIndex={-1} ref={title}>
        {intl.formatMessage(messages.title)}
      </h2>
      <p className="dv-confirm__text">{intl.formatMessage(messages.text, { entity })}</p>
      {freelance && <p className="dv-confirm__text">{intl.formatMessage(messages.members)}</p>}
      <div className="dv-confirm__actions">
        <LoadingButton onClick={onCorrect}>{intl.formatMessage(messages.correct)}</LoadingButton>
        {freelance && (
          <LoadingButton color="gray" loading={switching} onClick={onFreelance}>
            {intl.formatMessage(messages.freelance)}
          </LoadingButton>
        )}
        <LoadingButton color="gray" loading={confirming} onClick={onConfirm}>
          {intl.formatMessage(messages.confirm)}
        </LoadingButton>
      </div>
    </section>
  );
}
