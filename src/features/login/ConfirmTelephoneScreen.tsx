import { useFormik } from 'formik';
import { useState } from 'react';
import { useIntl } from 'react-intl';
import { describeMessages } from '../../i18n/messages';
import { Link, Navigate, useLocation } from 'react-router';
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks';
import { CodeInput, LoadingButton, phoneHref } from '../../components';
import { getRuntimeConfig } from '../../config';
import { codeProblem } from '../../forms/codeProblem';
import { useCountdown } from '../../forms/useCountdown';
import { useFormFields } from '../../forms/useFormFields';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import type { ApiError } from '../../services/baseQuery';
import { ensureSessionId } from '../../services/sessionId';
import { validateSchema } from '../../validation';
import { codeResent, selectSignInResult } from '../auth/authSlice';
import { codeSchema, type CodeValues } from './codeSchema';
import { loginApi, verificationSignature } from './loginApi';
import './login.css';

const messages = describeMessages({
  sentTo: { id: 'login.confirm.sentTo', defaultMessage: 'We have sent a 6-digit code by SMS to {phone}.' },
  code: { id: 'login.confirm.code', defaultMessage: 'SMS code' },
  submit: { id: 'login.confirm.submit', defaultMessage: 'Confirm' },
  resend: { id: 'login.confirm.resend', defaultMessage: 'Send me a new code' },
  resendIn: { id: 'login.confirm.resendIn', defaultMessage: 'You can ask for a new code in {seconds, plural, one {# second} other {# seconds}}.' },
  resent: { id: 'login.confirm.resent', defaultMessage: 'We have sent you a new code.' },
  wrongCode: {
    id: 'login.confirm.wrongCode',
    defaultMessage: 'That code is not right. {attempts, plural, one {You have # attempt left.} other {You have # attempts left.}}',
  },
  blocked: {
    id: 'login.confirm.blocked',
    defaultMessage: 'Too many wrong codes. For your security, sign-in is blocked for a while. Try again later.',
  },
  blockedUntil: {
    id: 'login.confirm.blockedUntil',
    defaultMessage: 'Too many wrong codes. For your security, sign-in is blocked until {time}.',
  },
  blockedHelp: { id: 'login.confirm.blockedHelp', defaultMessage: 'If it was not you, or you need help now, call us on <phone></phone>.' },
  backToLogin: { id: 'login.confirm.backToLogin', defaultMessage: 'Back to the login page' },
  back: { id: 'login.confirm.back', defaultMessage: 'Log in with another ID or password' },
  expired: { id: 'login.confirm.expired', defaultMessage: 'That code has expired. Ask for a new one.' },
  failed: { id: 'login.confirm.failed', defaultMessage: 'We could not check the code. Please try again.' },
  tooSoon: { id: 'login.confirm.tooSoon', defaultMessage: 'Please wait a little before asking for another code.' },
  tooManyMessages: { id: 'login.confirm.tooManyMessages', defaultMessage: 'For your security, we have sent too many codes by SMS for now. You can ask again at {time}.' },
});

/** When a block ends, from the server's retryAfterSeconds. */
function blockedUntil(data: unknown): number | null {
  const seconds = (data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof seconds === 'number' ? Date.now() + seconds * 1000 : null;
}

type Feedback = { id: keyof typeof messages; values?: Record<string, number | string> } | null;

function feedbackFor(errorCode: string | undefined, data: unknown): Feedback {
  const problem = codeProblem(errorCode, data);
  return problem.kind === 'wrongCode' ? { id: 'wrongCode', values: { attempts: problem.attemptsLeft } } : { id: problem.kind };
}

/** The second factor of the login: the SMS code sent to the registered phone. */
/** When a wait of `seconds` that starts now is over (ms since the epoch). */
const secondsFromNow = (seconds: number) => Date.now() + seconds * 1000;

export function ConfirmTelephoneScreen() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const location = useLocation();
  const signIn = useAppSelector(selectSignInResult);
  const [confirm] = loginApi.useCreateSessionMutation();
  const [resend, { isLoading: resending }] = loginApi.useResendCodeMutation();
  const [feedback, setFeedback] = useState<Feedback>(null);
  /** Set once the server says the person is blocked: until when (epoch ms), or null when it did not say. */
  const [blocked, setBlocked] = useState<{ until: number | null } | false>(false);
  const secondsToResend = useCountdown(signIn?.resendAvailableAt ?? null);

  const formik = useFormik<CodeValues>({
    initialValues: { code: '' },
    validate: (values) => validateSchema(codeSchema, values),
    validateOnChange: false,
    onSubmit: async ({ code }) => {
      if (!signIn) return;
      setFeedback(null);
      try {
        const sessionId = ensureSessionId(store.getState(), dispatch);
        await confirm({ sessionId, signature: verificationSignature(signIn.token, code.trim()) }).unwrap();
        store.navigation.leaveApp(getRuntimeConfig().mainAppUrl);
      } catch (error) {
        const { errorCode, data } = error as ApiError;
        if (errorCode === 'CODE_BLOCKED') return setBlocked({ until: blockedUntil(data) });
        setFeedback(feedbackFor(errorCode, data));
        void formik.setFieldValue('code', '', false);
        field('code').ref.current?.focus();
      }
    },
  });
  const field = useFormFields(formik, ['code']);
  const codeRef = field('code').ref;

  // The step needs the pending sign-in from the login page; after a reload it starts again there.
  if (!signIn) return <Navigate to={carryQuery('/login', location.search)} replace />;

  const askForNewCode = async () => {
    setFeedback(null);
    try {
      const sessionId = ensureSessionId(store.getState(), dispatch);
      const answer = await resend({ token: signIn.token, sessionId }).unwrap();
      dispatch(codeResent({ phone: answer.maskedPhone, resendAvailableAt: secondsFromNow(answer.resendAfterSeconds) }));
      setFeedback({ id: 'resent' });
      // The button is now disabled: focus goes to the field the new code goes in, which the notice describes.
      codeRef.current?.focus();
    } catch (error) {
      const { errorCode, data } = error as ApiError;
      if (errorCode === 'CODE_BLOCKED') return setBlocked({ until: blockedUntil(data) });
      if (errorCode === 'MESSAGE_BUDGET_EXCEEDED') {
        const until = blockedUntil(data) ?? secondsFromNow(3600);
        return setFeedback({ id: 'tooManyMessages', values: { time: intl.formatTime(until, { hour: '2-digit', minute: '2-digit' }) } });
      }
      setFeedback(errorCode === 'RESEND_TOO_SOON' ? { id: 'tooSoon' } : feedbackFor(errorCode, data));
    }
  };

  if (blocked) {
    const phone = getRuntimeConfig().supportPhone;
    return (
      <section className="dv-login" aria-labelledby="confirm-title">
        <RouteTitle name="login-confirm-telephone" id="confirm-title" />
        <div className="dv-login__problem" role="alert">
          <p>
            {blocked.until === null
              ? intl.formatMessage(messages.blocked)
              : intl.formatMessage(messages.blockedUntil, { time: intl.formatTime(blocked.until, { hour: '2-digit', minute: '2-digit' }) })}
          </p>
        </div>
        <p>{intl.formatMessage(messages.blockedHelp, { phone: () => <a href={`tel:${phoneHref(phone)}`}>{phone}</a> })}</p>
        <p>
          <Link to={carryQuery('/login', location.search)}>{intl.formatMessage(messages.backToLogin)}</Link>
        </p>
      </section>
    );
  }

  const codeField = field('code');
  // A refusal to send says nothing about the code typed: announced, but the field is not marked.
  const refusal = feedback?.id === 'tooManyMessages';
  const codeProblem = feedback !== null && feedback.id !== 'resent' && !refusal;

  return (
    <section className="dv-login" aria-labelledby="confirm-title">
      <Link className="dv-login__back" to={carryQuery('/login', location.search)}>
        <span aria-hidden="true">←&nbsp;</span>
        {intl.formatMessage(messages.back)}
      </Link>
      <RouteTitle name="login-confirm-telephone" id="confirm-title" />
      <p className="dv-login__subtitle">{intl.formatMessage(messages.sentTo, { phone: <strong key="phone">{signIn.phone}</strong> })}</p>
      <form className="dv-login__form" noValidate onSubmit={formik.handleSubmit}>
        <CodeInput
          label={intl.formatMessage(messages.code)}
          {...codeField}
          // The server's answer about the code belongs to the field: announced with it and marking it invalid.
          error={codeField.error || codeProblem}
          aria-describedby={feedback ? 'code-feedback' : undefined}
        />
        <p id="code-feedback" className="dv-login__feedback" role={codeProblem || refusal ? 'alert' : 'status'}>
          {feedback && intl.formatMessage(messages[feedback.id], feedback.values)}
        </p>
        <LoadingButton type="submit" loading={formik.isSubmitting}>
          {intl.formatMessage(messages.submit)}
        </LoadingButton>
      </form>
      <div className="dv-login__resend">
        <LoadingButton color="gray" loading={resending} disabled={secondsToResend > 0} onClick={askForNewCode}>
          {intl.formatMessage(messages.resend)}
        </LoadingButton>
        {secondsToResend > 0 && <p className="dv-login__countdown">{intl.formatMessage(messages.resendIn, { seconds: secondsToResend })}</p>}
      </div>
    </section>
  );
}
