import { useFormik } from 'formik';
import { useEffect, useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { useLocation, useNavigate } from 'react-router';
import { object, string } from 'yup';
import { useAppSelector } from '../../app/hooks';
import { CodeInput, LoadingButton, PasswordInput, TextInput } from '../../components';
import { useFormFields } from '../../forms/useFormFields';
import { describeMessages } from '../../i18n/messages';
import { RouteTitle } from '../../routing/RouteTitle';
import { rules, STAFF_PASSWORD_MAX_LENGTH, STAFF_PASSWORD_MIN_LENGTH, validateSchema } from '../../validation';
import { backOfficeApi, selectStaffSession, startStaffSession, staffSessionLive, useBackOfficeDispatch, useGetConfigQuery, type SignInConfig, type StaffApiError } from './backOfficeApi';
import { AreaName, QUEUE_PATH, SignInFrame } from './BackOfficeFrame';
import { QrCode } from './QrCode';
import { refusalMessage } from './refusals';
import { groupedSecret, otpauthUri, staffSignIn, type SignInFailure, type SignInStep, type StaffSignIn } from './staffSignIn';

const messages = describeMessages({
  lead: { id: 'backOffice.signIn.lead', defaultMessage: "For the bank's staff: sign in with your work e-mail, your password and your authenticator app." },
  username: { id: 'backOffice.signIn.username', defaultMessage: 'Work e-mail' },
  password: { id: 'backOffice.signIn.password', defaultMessage: 'Password' },
  submit: { id: 'backOffice.signIn.submit', defaultMessage: 'Continue' },
  newPasswordTitle: { id: 'backOffice.signIn.newPassword.title', defaultMessage: 'Choose your own password' },
  newPasswordLead: { id: 'backOffice.signIn.newPassword.lead', defaultMessage: 'The password you were given is temporary. Choose the one you will use from now on.' },
  newPassword: { id: 'backOffice.signIn.newPassword.label', defaultMessage: 'New password' },
  newPasswordHint: {
    id: 'backOffice.signIn.newPassword.hint',
    defaultMessage: '{min} to {max} characters, with a lowercase and an uppercase letter (A to Z), a number and a special character, for example @ or\u00a0#.',
  },
  repeatPassword: { id: 'backOffice.signIn.newPassword.repeat', defaultMessage: 'Repeat the new password' },
  enrolTitle: { id: 'backOffice.signIn.enrol.title', defaultMessage: 'Set up your authenticator app' },
  enrolLead: {
    id: 'backOffice.signIn.enrol.lead',
    defaultMessage: 'Every sign-in asks for a code from an authenticator app on your phone. Scan this QR code with the app, or type the key into it.',
  },
  qrLabel: { id: 'backOffice.signIn.enrol.qr', defaultMessage: 'QR code to add Divilo to your authenticator app' },
  secret: { id: 'backOffice.signIn.enrol.secret', defaultMessage: 'Key to type into the app' },
  enrolCode: { id: 'backOffice.signIn.enrol.code', defaultMessage: 'The 6-digit code the app shows' },
  codeTitle: { id: 'backOffice.signIn.code.title', defaultMessage: 'Code from your authenticator app' },
  code: { id: 'backOffice.signIn.code.label', defaultMessage: '6-digit code' },
  codeHint: { id: 'backOffice.signIn.code.hint', defaultMessage: 'Open the authenticator app on your phone and type the code it shows for Divilo.' },
  startAgain: { id: 'backOffice.signIn.startAgain', defaultMessage: 'Start again' },
  problemTitle: { id: 'backOffice.signIn.problem.title', defaultMessage: 'We could not sign you in' },
  credentials: { id: 'backOffice.signIn.problem.credentials', defaultMessage: 'The e-mail or the password is not right. Check both and try again.' },
  wrongCode: { id: 'backOffice.signIn.problem.code', defaultMessage: 'That code is not right or has expired. Type the code the app shows now.' },
  passwordRule: { id: 'backOffice.signIn.problem.passwordRule', defaultMessage: 'The staff accounts do not accept that password. Choose another one.' },
  tooMany: { id: 'backOffice.signIn.problem.tooMany', defaultMessage: 'Too many attempts. Wait a few minutes and try again.' },
  restart: { id: 'backOffice.signIn.problem.restart', defaultMessage: 'The sign-in took too long. Start again with your password.' },
  temporaryExpired: {
    id: 'backOffice.signIn.problem.temporaryExpired',
    defaultMessage: 'The password you were given has expired. Ask an administrator of the back office for a new one.',
  },
  unreachable: { id: 'backOffice.signIn.problem.unreachable', defaultMessage: 'The sign-in service cannot be reached. Check your connection and try again.' },
  unknown: { id: 'backOffice.signIn.problem.unknown', defaultMessage: 'The sign-in did not work ({code}). Start again; if it happens again, tell the support team.' },
  ended: { id: 'backOffice.signIn.ended.expired', defaultMessage: 'Your session has ended. Sign in again to go on.' },
  idle: { id: 'backOffice.signIn.ended.idle', defaultMessage: 'For your security, your session ended after a while without use. Sign in again to go on.' },
  signedOut: { id: 'backOffice.signIn.ended.signedOut', defaultMessage: 'You have signed out.' },
  noConfig: { id: 'backOffice.signIn.noConfig', defaultMessage: 'The back office cannot be reached. Reload the page to try again.' },
});

type Screen = { step: 'password' } | Exclude<SignInStep, { step: 'signed-in' }>;

/** A refusal of the staff pool, in words: which field to fix, or what to do. */
function signInProblem(failure: SignInFailure): keyof typeof messages {
  switch (failure.code) {
    case 'NotAuthorizedException':
      if (/session/i.test(failure.message)) return 'restart';
      // Said only to whoever typed the right temporary password.
      if (/temporary password has expired/i.test(failure.message)) return 'temporaryExpired';
      // A lockout: Amazon Cognito's own, or the embedded pool's for this client (docs/identity.md, "Lockout").
      if (/attempts exceeded/i.test(failure.message)) return 'tooMany';
      return 'credentials';
    case 'UserNotFoundException':
      return 'credentials';
    case 'CodeMismatchException':
    case 'EnableSoftwareTokenMFAException':
    case 'ExpiredCodeException':
      return 'wrongCode';
    case 'InvalidPasswordException':
      return 'passwordRule';
    case 'LimitExceededException':
    case 'TooManyRequestsException':
    case 'TooManyFailedAttemptsException':
      return 'tooMany';
    case 'NetworkError':
      return 'unreachable';
    default:
      return 'unknown';
  }
}

const credentialsSchema = object({ username: string().test(rules.required()), password: string().test(rules.required()) });
/** The staff pool's password policy, stricter than the applicants' (12 characters at least, Cognito's classes). */
const newPasswordSchema = object({
  newPassword: string().test(rules.required()).test(rules.staffPassword()),
  newPasswordConfirmation: string().test(rules.required()).test(rules.sameAs('newPassword')),
});
const codeSchema = object({ code: string().test(rules.required()).test(rules.userCode()) });

/** A step's problem, said where the step is and focused so that it is read out. */
function Problem({ text }: { text: string }) {
  const intl = useIntl();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), [text]);
  return (
    <div ref={ref} className="dv-bo-problem" role="alert" tabIndex={-1}>
      <p className="dv-bo-problem__title">{intl.formatMessage(messages.problemTitle)}</p>
      <p>{text}</p>
    </div>
  );
}

/** The heading of a step after the first: focused when it appears, so the change is heard. */
function StepHeading({ children }: { children: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <h2 ref={ref} tabIndex={-1} className="dv-bo-signin__step">
      {children}
    </h2>
  );
}

/**
 * The back office's sign-in: the password, then what the staff pool asks (a new password for a temporary one, the
 * authenticator app's enrolment the first time, its code every time); the ID token it ends with is traded for the
 * session cookie at once, and the library's memory of it cleared. Secrets (passwords, the app's key, codes) stay in
 * this screen's state, never in the store.
 */
export function SignInScreen() {
  const { data: config, isError: noConfig } = useGetConfigQuery();
  return <SignInFrame>{config ? <SignInSteps config={config} /> : <SignInPending failed={noConfig} />}</SignInFrame>;
}

function SignInPending({ failed }: { failed: boolean }) {
  const intl = useIntl();
  return (
    <section className="dv-bo-signin" aria-labelledby="bo-signin-title">
      <AreaName />
      <RouteTitle name="back-office" id="bo-signin-title" />
      {failed && <Problem text={intl.formatMessage(messages.noConfig)} />}
    </section>
  );
}

function SignInSteps({ config }: { config: SignInConfig }) {
  const intl = useIntl();
  const dispatch = useBackOfficeDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const { ended } = useAppSelector(selectStaffSession);
  const [signIn] = useState<StaffSignIn>(() => staffSignIn(config));
  const [screen, setScreen] = useState<Screen>({ step: 'password' });
  const [username, setUsername] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  // Nothing of a sign-in outlives the screen.
  useEffect(() => () => signIn.forget(), [signIn]);

  const refused = (error: StaffApiError) => {
    const { descriptor, values } = refusalMessage(error);
    setProblem(intl.formatMessage(descriptor, values));
  };

  /** Where a step leads: the next step, or the session (and the page the member came for). */
  const go = async (work: () => Promise<SignInStep>) => {
    setProblem(null);
    let next: SignInStep;
    try {
      next = await work();
    } catch (failure) {
      const kind = signInProblem(failure as SignInFailure);
      setProblem(intl.formatMessage(messages[kind], { code: (failure as SignInFailure).code }));
      if (kind === 'restart') setScreen({ step: 'password' });
      return;
    }
    if (next.step !== 'signed-in') {
      setScreen(next);
      return;
    }
    const answer = await startStaffSession(next.idToken);
    signIn.forget();
    if ('error' in answer) {
      setScreen({ step: 'password' });
      refused(answer.error);
      return;
    }
    dispatch(backOfficeApi.util.upsertQueryData('getStaffSession', undefined, answer.session));
    dispatch(staffSessionLive());
    const from = (location.state as { from?: unknown } | null)?.from;
    void navigate(typeof from === 'string' && from.startsWith('/back-office/') ? from : QUEUE_PATH, { replace: true });
  };

  const startAgain = () => {
    signIn.forget();
    setProblem(null);
    setScreen({ step: 'password' });
  };

  const endedNotice = ended === 'idle' ? messages.idle : ended === 'signed-out' ? messages.signedOut : ended === 'expired' ? messages.ended : null;

  return (
    <section className="dv-bo-signin" aria-labelledby="bo-signin-title">
      <AreaName />
      <RouteTitle name="back-office" id="bo-signin-title" />
      {screen.step === 'password' && !problem && endedNotice && (
        <p className="dv-bo-notice" role="status">
          {intl.formatMessage(endedNotice)}
        </p>
      )}
      {screen.step === 'password' && (
        <>
          <p className="dv-bo-signin__lead">{intl.formatMessage(messages.lead)}</p>
          {problem && <Problem text={problem} />}
          <PasswordStep
            onSubmit={(values) => {
              setUsername(values.username.trim());
              return go(() => signIn.password(values.username.trim(), values.password));
            }}
          />
        </>
      )}
      {screen.step === 'new-password' && (
        <>
          <StepHeading>{intl.formatMessage(messages.newPasswordTitle)}</StepHeading>
          <p className="dv-bo-signin__lead">{intl.formatMessage(messages.newPasswordLead)}</p>
          {problem && <Problem text={problem} />}
          <NewPasswordStep onSubmit={(password) => go(() => signIn.newPassword(password))} />
        </>
      )}
      {screen.step === 'enrol' && (
        <>
          <StepHeading>{intl.formatMessage(messages.enrolTitle)}</StepHeading>
          <p className="dv-bo-signin__lead">{intl.formatMessage(messages.enrolLead)}</p>
          <div className="dv-bo-enrol">
            <QrCode text={otpauthUri(username, screen.secret)} label={intl.formatMessage(messages.qrLabel)} />
            <div className="dv-bo-enrol__key">
              <p className="dv-bo-enrol__key-label" id="bo-secret-label">
                {intl.formatMessage(messages.secret)}
              </p>
              <p className="dv-bo-enrol__secret" aria-labelledby="bo-secret-label" data-secret>
                {groupedSecret(screen.secret)}
              </p>
            </div>
          </div>
          {problem && <Problem text={problem} />}
          <CodeStep label={intl.formatMessage(messages.enrolCode)} onSubmit={(code) => go(() => signIn.enrol(code))} />
        </>
      )}
      {screen.step === 'code' && (
        <>
          <StepHeading>{intl.formatMessage(messages.codeTitle)}</StepHeading>
          {problem && <Problem text={problem} />}
          <CodeStep label={intl.formatMessage(messages.code)} description={intl.formatMessage(messages.codeHint)} onSubmit={(code) => go(() => signIn.code(code))} />
        </>
      )}
      {screen.step !== 'password' && (
        <button type="button" className="dv-bo-link" onClick={startAgain}>
          {intl.formatMessage(messages.startAgain)}
        </button>
      )}
    </section>
  );
}

function PasswordStep({ onSubmit }: { onSubmit: (values: { username: string; password: string }) => Promise<void> }) {
  const intl = useIntl();
  const formik = useFormik({
    initialValues: { username: '', password: '' },
    validate: (values) => validateSchema(credentialsSchema, values),
    validateOnChange: false,
    onSubmit,
  });
  const field = useFormFields(formik, ['username', 'password']);
  return (
    <form className="dv-bo-signin__form" noValidate onSubmit={formik.handleSubmit}>
      <TextInput label={intl.formatMessage(messages.username)} type="email" autoComplete="username" spellCheck={false} {...field('username')} />
      <PasswordInput label={intl.formatMessage(messages.password)} autoComplete="current-password" {...field('password')} />
      <LoadingButton type="submit" loading={formik.isSubmitting}>
        {intl.formatMessage(messages.submit)}
      </LoadingButton>
    </form>
  );
}

function NewPasswordStep({ onSubmit }: { onSubmit: (password: string) => Promise<void> }) {
  const intl = useIntl();
  const formik = useFormik({
    initialValues: { newPassword: '', newPasswordConfirmation: '' },
    validate: (values) => validateSchema(newPasswordSchema, values),
    validateOnChange: false,
    onSubmit: (values) => onSubmit(values.newPassword),
  });
  const field = useFormFields(formik, ['newPassword', 'newPasswordConfirmation']);
  return (
    <form className="dv-bo-signin__form" noValidate onSubmit={formik.handleSubmit}>
      <PasswordInput
        label={intl.formatMessage(messages.newPassword)}
        description={intl.formatMessage(messages.newPasswordHint, { min: STAFF_PASSWORD_MIN_LENGTH, max: STAFF_PASSWORD_MAX_LENGTH })}
        autoComplete="new-password"
        {...field('newPassword')}
      />
      <PasswordInput label={intl.formatMessage(messages.repeatPassword)} autoComplete="new-password" {...field('newPasswordConfirmation')} />
      <LoadingButton type="submit" loading={formik.isSubmitting}>
        {intl.formatMessage(messages.submit)}
      </LoadingButton>
    </form>
  );
}

function CodeStep({ label, description, onSubmit }: { label: string; description?: string; onSubmit: (code: string) => Promise<void> }) {
  const intl = useIntl();
  const formik = useFormik({
    initialValues: { code: '' },
    validate: (values) => validateSchema(codeSchema, values),
    validateOnChange: false,
    onSubmit: async (values, helpers) => {
      await onSubmit(values.code.trim());
      // A code is used once: a refused one is typed again.
      helpers.resetForm();
    },
  });
  const field = useFormFields(formik, ['code']);
  return (
    <form className="dv-bo-signin__form" noValidate onSubmit={formik.handleSubmit}>
      <CodeInput label={label} description={description} {...field('code')} />
      <LoadingButton type="submit" loading={formik.isSubmitting}>
        {intl.formatMessage(messages.submit)}
      </LoadingButton>
    </form>
  );
}
