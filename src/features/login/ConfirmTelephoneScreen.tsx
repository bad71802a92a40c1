import { useFormik } from 'formik';
import { useIntl } from 'react-intl';
import { describeMessages } from '../../i18n/messages';
import { Link, Navigate, useLocation } from 'react-router';
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks';
import { LoadingButton, phoneHref } from '../../components';
import { getRuntimeConfig } from '../../config';
import { CodeEntry, ResendCode, type CodeMessages } from '../../forms/CodeEntry';
import { isBlock, useCodeFeedback } from '../../forms/useCodeFeedback';
import { useFormFields } from '../../forms/useFormFields';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import { outageOf } from '../../services/outage';
import { ensureSessionId } from '../../services/sessionId';
import { validateSchema } from '../../validation';
import { codeResent, selectSignInResult } from '../../state/authSlice';
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
  notSent: { id: 'login.confirm.notSent', defaultMessage: "We couldn't send the new code. Ask for it again in a moment." },
  unavailable: { id: 'login.confirm.unavailable', defaultMessage: "We can't reach our service right now. Your code still works: confirm it again in a moment." },
});

/** The shared code entry in the login's words; a block is a page of its own (blockedUntil, blocked). */
const codeMessages: CodeMessages = {
  wrongCode: messages.wrongCode,
  blocked: messages.blockedUntil,
  blockedWhile: messages.blocked,
  expired: messages.expired,
  failed: messages.failed,
  resent: messages.resent,
  tooSoon: messages.tooSoon,
  budget: messages.tooManyMessages,
  notSent: messages.notSent,
  unavailable: messages.unavailable,
  resend: messages.resend,
  resendIn: messages.resendIn,
};

/** When a wait of `seconds` that starts now is over (ms since the epoch). */
const secondsFromNow = (seconds: number) => Date.now() + seconds * 1000;

/** The second factor of the login: the SMS code sent to the registered phone. */
export function ConfirmTelephoneScreen() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const location = useLocation();
  const signIn = useAppSelector(selectSignInResult);
  const [confirm] = loginApi.useCreateSessionMutation();
  const [resend, { isLoading: resending }] = loginApi.useResendCodeMutation();
  const code = useCodeFeedback(() => signIn?.resendAvailableAt ?? null);

  const formik = useFormik<CodeValues>({
    initialValues: { code: '' },
    validate: (values) => validateSchema(codeSchema, values),
    validateOnChange: false,
    onSubmit: async ({ code: typed }) => {
      if (!signIn) return;
      code.setFeedback(null);
      try {
        const sessionId = ensureSessionId(store.getState(), dispatch);
        await confirm({ sessionId, signature: verificationSignature(signIn.token, typed.trim()) }).unwrap();
        store.navigation.leaveApp(getRuntimeConfig().mainAppUrl);
      } catch (error) {
        if (!code.failure(error)) code.setFeedback({ id: 'failed' });
        // Blocked, or the identity service away (the code was not used up: it stays to be confirmed again).
        if (isBlock(error) || outageOf(error)) return;
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
    code.setFeedback(null);
    try {
      const sessionId = ensureSessionId(store.getState(), dispatch);
      const answer = await resend({ token: signIn.token, sessionId }).unwrap();
      dispatch(codeResent({ phone: answer.maskedPhone, resendAvailableAt: secondsFromNow(answer.resendAfterSeconds) }));
      code.resent(answer.resendAfterSeconds);
      // The button is now disabled: focus goes to the field the new code goes in, which the notice describes.
      codeRef.current?.focus();
    } catch (error) {
      code.resendRefused(error);
    }
  };

  const { feedback } = code;
  if (feedback?.id === 'blocked' || feedback?.id === 'blockedWhile') {
    const phone = getRuntimeConfig().supportPhone;
    const until = feedback.values?.until;
    return (
      <section className="dv-login" aria-labelledby="confirm-title">
        <RouteTitle name="login-confirm-telephone" id="confirm-title" />
        <div className="dv-login__problem" role="alert">
          <p>
            {until === undefined
              ? intl.formatMessage(messages.blocked)
              : intl.formatMessage(messages.blockedUntil, { time: intl.formatTime(until, { hour: '2-digit', minute: '2-digit' }) })}
          </p>
        </div>
        <p>{intl.formatMessage(messages.blockedHelp, { phone: () => <a href={`tel:${phoneHref(phone)}`}>{phone}</a> })}</p>
        <p>
          <Link to={carryQuery('/login', location.search)}>{intl.formatMessage(messages.backToLogin)}</Link>
        </p>
      </section>
    );
  }

  return (
    <section className="dv-login" aria-labelledby="confirm-title">
      <Link className="dv-login__back" to={carryQuery('/login', location.search)}>
        <span aria-hidden="true">←&nbsp;</span>
        {intl.formatMessage(messages.back)}
      </Link>
      <RouteTitle name="login-confirm-telephone" id="confirm-title" />
      <p className="dv-login__subtitle">{intl.formatMessage(messages.sentTo, { phone: <strong key="phone">{signIn.phone}</strong> })}</p>
      <form className="dv-login__form" noValidate onSubmit={formik.handleSubmit}>
        <CodeEntry label={intl.formatMessage(messages.code)} field={field('code')} state={code} messages={codeMessages} feedbackClassName="dv-login__feedback" />
        <LoadingButton type="submit" loading={formik.isSubmitting}>
          {intl.formatMessage(messages.submit)}
        </LoadingButton>
      </form>
      <ResendCode state={code} messages={codeMessages} resending={resending} onResend={askForNewCode} className="dv-login__resend" noteClassName="dv-login__countdown" />
    </section>
  );
}
