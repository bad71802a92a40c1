import { useEffect } from 'react';
import { useIntl } from 'react-intl';
import { Link, useLocation } from 'react-router';
import { LoadingButton } from '../../../components';
import { describeMessages } from '../../../i18n/messages';
import { carryQuery } from '../../../routing/query';
import { checkIdentitySchema, IDENTITY_IMAGE_KINDS } from '../../../validation/onboarding';
import { DocumentField } from '../DocumentField';
import { useIdentityCheckStatusQuery } from '../onboardingApi';
import { ContinueButton, StepLayout } from '../StepLayout';
import { useGoOn, useStepForm } from '../useStepForm';
import { useSavedAnswers } from '../savedApplication';

const messages = describeMessages({
  lead: { id: 'onboarding.check-identity.lead', defaultMessage: 'Three photos: both sides of your ID document and a selfie. On a phone, the camera opens.' },
  tips: { id: 'onboarding.check-identity.tips', defaultMessage: 'Good light, no glare, the whole document in the frame and every letter readable.' },
  documentFront: { id: 'onboarding.check-identity.documentFront', defaultMessage: 'Front of your ID document' },
  documentBack: { id: 'onboarding.check-identity.documentBack', defaultMessage: 'Back of your ID document' },
  selfie: { id: 'onboarding.check-identity.selfie', defaultMessage: 'A selfie' },
  selfieHint: { id: 'onboarding.check-identity.selfieHint', defaultMessage: 'Your face, looking at the camera, without glasses or a hat.' },
  submit: { id: 'onboarding.check-identity.submit', defaultMessage: 'Send the photos' },
  waiting: { id: 'onboarding.check-identity-waiting.pending', defaultMessage: 'We are checking your photos. This usually takes less than a minute; you can leave this page open.' },
  approved: { id: 'onboarding.check-identity-waiting.approved', defaultMessage: 'Your identity is verified.' },
  rejected: { id: 'onboarding.check-identity-waiting.rejected', defaultMessage: 'We could not verify your identity with these photos.' },
  retry: { id: 'onboarding.check-identity-waiting.retry', defaultMessage: 'Take the photos again' },
  needsReview: {
    id: 'onboarding.check-identity-waiting.needsReview',
    defaultMessage: 'Thank you: we have your photos. A person at Divilo will check them before your account is opened. Meanwhile, you can sign your contract.',
  },
  toContract: { id: 'onboarding.check-identity-waiting.toContract', defaultMessage: 'Go on to the contract' },
});

type ImageValues = Record<(typeof IDENTITY_IMAGE_KINDS)[number], string>;

/** /check-identity: photos of both sides of the ID document and a selfie, uploaded to the applicant's private area. */
export function CheckIdentityScreen() {
  const intl = useIntl();
  const form = useSavedAnswers();
  const { formik, field } = useStepForm<ImageValues>({
    step: 'check-identity',
    schema: checkIdentitySchema,
    fields: [...IDENTITY_IMAGE_KINDS],
    initialValues: () => ({ documentFront: form.documentFront, documentBack: form.documentBack, selfie: form.selfie }),
  });
  return (
    <StepLayout step="check-identity" lead={intl.formatMessage(messages.lead)}>
      <p className="dv-step__note">{intl.formatMessage(messages.tips)}</p>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <div className="dv-identity-images">
          {IDENTITY_IMAGE_KINDS.map((kind) => (
            <DocumentField
              key={kind}
              kind={kind}
              format="image"
              capture={kind === 'selfie' ? 'user' : 'environment'}
              label={intl.formatMessage(messages[kind])}
              description={kind === 'selfie' ? intl.formatMessage(messages.selfieHint) : undefined}
              field={field(kind)}
            />
          ))}
        </div>
        <ContinueButton loading={formik.isSubmitting} label={intl.formatMessage(messages.submit)} />
      </form>
    </StepLayout>
  );
}

/** How often the waiting page asks for the check's result. */
const IDENTITY_POLL_MS = 3000;

const STATUS_TEXT = { pending: 'waiting', 'needs-review': 'needsReview', approved: 'approved', rejected: 'rejected' } as const;

/**
 * /check-identity-waiting: asks for the check's result until there is one. Approved → /docu-sign at once; the
 * photos waiting for the bank's review → says so, and the applicant goes on to the contract when ready (the
 * bank approves no account before a person has looked at them); rejected → take the photos again.
 */
export function CheckIdentityWaitingScreen() {
  const intl = useIntl();
  const location = useLocation();
  const goOn = useGoOn('check-identity-waiting');
  const { data } = useIdentityCheckStatusQuery(undefined, { pollingInterval: IDENTITY_POLL_MS, skipPollingIfUnfocused: false });
  const status = data?.status ?? 'pending';
  useEffect(() => {
    if (status === 'approved') goOn();
  }, [status, goOn]);
  return (
    <StepLayout step="check-identity-waiting" back={false}>
      <div className="dv-waiting" role="status">
        {status === 'pending' && <span className="dv-waiting__spinner" aria-hidden="true" />}
        <p>{intl.formatMessage(messages[STATUS_TEXT[status]])}</p>
      </div>
      {status === 'needs-review' && (
        <div className="dv-step__actions">
          <LoadingButton onClick={() => goOn()}>{intl.formatMessage(messages.toContract)}</LoadingButton>
        </div>
      )}
      {status === 'rejected' && (
        <p>
          <Link to={carryQuery('/check-identity', location.search)}>{intl.formatMessage(messages.retry)}</Link>
        </p>
      )}
    </StepLayout>
  );
}
