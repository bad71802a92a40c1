import { useIntl } from 'react-intl';
import { useLocation } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../../app/hooks';
import { selectForm } from '../../../state/formSlice';
import { describeMessages } from '../../../i18n/messages';
import { sessionStarted } from '../../../state/sessionSlice';
import { CodeEntry, ResendCode, useCodeStep } from '../CodeEntry';
import { useResendEmailMutation, useResendPhoneCodeMutation, useVerifyEmailMutation } from '../onboardingApi';
import { ContinueButton, StepLayout } from '../StepLayout';
import type { StepArrival } from '../useStepForm';
import { useSavedAnswers } from '../savedApplication';

const messages = describeMessages({
  emailSentTo: { id: 'onboarding.reg-code.sentTo', defaultMessage: 'We have sent a 6-digit code to {email}. It is valid for a few minutes.' },
  emailCode: { id: 'onboarding.reg-code.code', defaultMessage: 'Code from the e-mail' },
  emailMissing: { id: 'onboarding.reg-code.missing', defaultMessage: 'Not there? Look in your spam folder, or go back to correct the address.' },
  phoneSentTo: { id: 'onboarding.confirm-telephone.sentTo', defaultMessage: 'We have sent a 6-digit code by SMS to {phone}.' },
  phoneCode: { id: 'onboarding.confirm-telephone.code', defaultMessage: 'SMS code' },
  confirm: { id: 'onboarding.code.submit', defaultMessage: 'Confirm' },
});

/** /reg-code: the code e-mailed at /signUp; confirming it opens (or resumes) the application. */
export function RegCodeScreen() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const arrival = (useLocation().state ?? {}) as StepArrival;
  // Before the code, there is no application to read: the address is the one typed at /signUp.
  const form = useAppSelector(selectForm);
  const [verify] = useVerifyEmailMutation();
  const [resend, { isLoading: resending }] = useResendEmailMutation();
  const { formik, field, code, askAgain } = useCodeStep({
    step: 'reg-code',
    resendAfterSeconds: arrival.resendAfterSeconds,
    send: async ({ code: typed }) => {
      const verified = await verify({ code: typed }).unwrap();
      if (verified.token) dispatch(sessionStarted({ token: verified.token }));
      return { next: verified.next, application: verified.application };
    },
    resend: () => resend().unwrap(),
  });

  return (
    <StepLayout step="reg-code" lead={intl.formatMessage(messages.emailSentTo, { email: <strong key="email">{form.email || arrival.sentTo}</strong> })}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <CodeEntry label={intl.formatMessage(messages.emailCode)} field={field('code')} state={code} />
        <p className="dv-step__note">{intl.formatMessage(messages.emailMissing)}</p>
        <ContinueButton loading={formik.isSubmitting} disabled={code.blocked} label={intl.formatMessage(messages.confirm)} />
      </form>
      <ResendCode state={code} resending={resending} onResend={askAgain} />
    </StepLayout>
  );
}

/** /confirm-telephone: the SMS code sent to the number given at /contact-phone. */
export function ConfirmTelephoneStepScreen() {
  const intl = useIntl();
  const arrival = (useLocation().state ?? {}) as StepArrival;
  const form = useSavedAnswers();
  const [resend, { isLoading: resending }] = useResendPhoneCodeMutation();
  const { formik, field, code, askAgain } = useCodeStep({ step: 'confirm-telephone', resendAfterSeconds: arrival.resendAfterSeconds, resend: () => resend().unwrap() });

  return (
    <StepLayout step="confirm-telephone" lead={intl.formatMessage(messages.phoneSentTo, { phone: <strong key="phone">{arrival.sentTo ?? form.telephoneNumber}</strong> })}>
      <form className="dv-step__form" noValidate onSubmit={formik.handleSubmit}>
        <CodeEntry label={intl.formatMessage(messages.phoneCode)} field={field('code')} state={code} />
        <ContinueButton loading={formik.isSubmitting} disabled={code.blocked} label={intl.formatMessage(messages.confirm)} />
      </form>
      <ResendCode state={code} resending={resending} onResend={askAgain} />
    </StepLayout>
  );
}
