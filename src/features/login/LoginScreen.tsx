import { useFormik } from 'formik';
import { useContext, useEffect, useRef, type ReactNode } from 'react';
import { useIntl } from 'react-intl';
import { describeMessages } from '../../i18n/messages';
import { Link, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { prefetchArea } from '../../app/screens/areas';
import { DocumentNumberInput, LoadingButton, PasswordInput } from '../../components';
import { getRuntimeConfig } from '../../config';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import { useCaptcha } from '../../services/captcha';
import { canonicalIdDocument, type LoginValues } from '../../validation';
import { authReset, loginRequested, selectLoginProblem, selectSigningIn } from '../../state/authSlice';
import { formActions } from '../../state/formSlice';
import { sessionCleared } from '../../state/sessionSlice';
import { toastShown } from '../../state/uiSlice';
import { LOGIN_ERROR_MESSAGES } from './loginListeners';
import { useFormFields } from '../../forms/useFormFields';
import { DrawnBeforeStart, useFirstScreenHandover } from '../../routing/firstScreen';
import './login.css';

const messages = describeMessages({
  subtitle: { id: 'login.subtitle', defaultMessage: 'Access your Divilo business account.' },
  userId: { id: 'login.userId.label', defaultMessage: 'ID document (DNI or NIE)' },
  userIdHint: { id: 'login.userId.description', defaultMessage: 'The one you signed up with, for example 12345678Z.' },
  password: { id: 'login.password.label', defaultMessage: 'Password' },
  submit: { id: 'login.submit', defaultMessage: 'Log in' },
  forgot: { id: 'login.forgotPassword', defaultMessage: 'Forgot your password? <link>Recover it</link>' },
  noAccount: { id: 'login.noAccount', defaultMessage: "Don't have an account yet? <link>Open your account</link>" },
  credentials: { id: 'login.problem.credentials', defaultMessage: 'The ID document number or the password is not right. Check both and try again.' },
  blockedUntil: {
    id: 'login.problem.blockedUntil',
    defaultMessage: 'For your security, access is blocked after too many wrong codes. You can try again at {time}.',
  },
  blocked: { id: 'login.problem.blocked', defaultMessage: 'For your security, access is blocked for a while after too many failed attempts. Try again later.' },
  tooManyMessages: {
    id: 'login.problem.tooManyMessages',
    defaultMessage: 'For your security, we have sent too many codes by SMS for now. You can try again at {time}.',
  },
  unreachable: {
    id: 'login.problem.unreachable',
    defaultMessage: 'We could not reach our service. Nothing is wrong with what you typed: try again in a moment.',
  },
  notSent: {
    id: 'login.problem.notSent',
    defaultMessage: "We couldn't send your SMS code just now. Nothing is wrong with what you typed: log in again in a moment.",
  },
  captcha: { id: 'login.problem.captcha', defaultMessage: 'We could not check that this is not an automated attempt. Reload the page and try again.' },
  problemTitle: { id: 'login.problem.title', defaultMessage: 'We could not log you in' },
  loggedOut: { id: 'login.loggedOut', defaultMessage: 'You have logged out. See you soon.' },
  legal: {
    id: 'login.legal',
    defaultMessage: 'We process your data to give you access to your account, as our <link>privacy policy</link> explains.',
  },
});

const FIELDS: (keyof LoginValues)[] = ['userId', 'password'];

/**
 * The form's rules arrive when the form is first focused (or checked), not with the page. Should they not arrive,
 * the form goes without its own checks: the sign-in itself still refuses what is wrong.
 */
const loginRules = () => import(/* webpackChunkName: "login-rules" */ './loginRules');
const prefetchLoginRules = () => void loginRules().catch(() => undefined);

async function validateLogin(values: LoginValues) {
  const rules = await loginRules().catch(() => undefined);
  return rules ? rules.validateSchema(rules.loginSchema, values) : {};
}

export function LoginScreen() {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const location = useLocation();
  const captcha = useCaptcha();
  const signingIn = useAppSelector(selectSigningIn);
  const problem = useAppSelector(selectLoginProblem);
  const summary = useRef<HTMLDivElement>(null);
  // The reason stays on the form, and focus goes to it so that it is read out (the toast goes away).
  useEffect(() => {
    if (problem) summary.current?.focus();
  }, [problem]);

  // The server's pages sign out with a redirect to /login?loggedOut=1: the notice shows, the address loses the flag.
  const navigate = useNavigate();
  useEffect(() => {
    const query = new URLSearchParams(location.search);
    if (!query.has('loggedOut')) return;
    query.delete('loggedOut');
    const search = query.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true, state: { loggedOut: true } });
  }, [location.pathname, location.search, navigate]);

  // Opening the login page starts from nothing: no form data, no sign-in result, no stored session.
  useEffect(() => {
    dispatch(formActions.formReset());
    dispatch(authReset());
    dispatch(sessionCleared());
  }, [dispatch]);

  const formik = useFormik<LoginValues>({
    initialValues: { userId: '', password: '' },
    validate: validateLogin,
    validateOnChange: false,
    onSubmit: async (values) => {
      // The SMS step's screen arrives while the captcha and the password are checked.
      prefetchArea('login-code');
      let captchaToken: string;
      try {
        captchaToken = await captcha.execute('login');
      } catch {
        dispatch(toastShown({ messageIds: LOGIN_ERROR_MESSAGES, kind: 'error' }));
        return;
      }
      dispatch(loginRequested({ userId: canonicalIdDocument(values.userId), password: values.password, captchaToken }));
    },
  });
  const field = useFormFields(formik, FIELDS);
  const to = (path: string) => carryQuery(path, location.search);

  // The page's own login screen, drawn before the app ran, gives way to this one: what was typed there, the focus
  // and the last button pressed carry over.
  const drawnBeforeStart = useContext(DrawnBeforeStart);
  useFirstScreenHandover(formik.values, (typed) => void formik.setValues(typed, false));

  return (
    <section className="dv-login" aria-labelledby="login-title">
      <RouteTitle name="login" id="login-title" />
      <p className="dv-login__subtitle">{intl.formatMessage(messages.subtitle)}</p>
      {!problem && ((location.state as { loggedOut?: boolean } | null)?.loggedOut || new URLSearchParams(location.search).has('loggedOut')) && (
        <p className="dv-login__notice" role="status">
          {intl.formatMessage(messages.loggedOut)}
        </p>
      )}
      {problem && (
        <div ref={summary} className="dv-login__problem" role="alert" tabIndex={-1} aria-labelledby="login-problem-title">
          <p id="login-problem-title" className="dv-login__problem-title">
            {intl.formatMessage(messages.problemTitle)}
          </p>
          <p>
            {problem.kind === 'tooManyMessages' || (problem.kind === 'blocked' && problem.until !== null)
              ? intl.formatMessage(problem.kind === 'blocked' ? messages.blockedUntil : messages.tooManyMessages, {
                  time: intl.formatTime(problem.until!, { hour: '2-digit', minute: '2-digit' }),
                })
              : intl.formatMessage(messages[problem.kind])}
          </p>
        </div>
      )}
      {/* Drawn before the app runs, the form posts if anything ever sends it: a password never goes into an address. */}
      <form className="dv-login__form" noValidate method={drawnBeforeStart ? 'post' : undefined} onSubmit={formik.handleSubmit} onFocus={prefetchLoginRules}>
        <DocumentNumberInput label={intl.formatMessage(messages.userId)} description={intl.formatMessage(messages.userIdHint)} {...field('userId')} />
        <PasswordInput label={intl.formatMessage(messages.password)} autoComplete="current-password" {...field('password')} />
        <p className="dv-login__forgot">
          {intl.formatMessage(messages.forgot, { link: (text: ReactNode[]) => <Link to={to('/recover-password/init')}>{text}</Link> })}
        </p>
        <LoadingButton type={drawnBeforeStart ? 'button' : 'submit'} loading={signingIn || formik.isSubmitting}>
          {intl.formatMessage(messages.submit)}
        </LoadingButton>
      </form>
      <p className="dv-login__register">
        {intl.formatMessage(messages.noAccount, { link: (text: ReactNode[]) => <Link to={to('/signUp')}>{text}</Link> })}
      </p>
      <p className="dv-login__legal">
        {intl.formatMessage(messages.legal, {
          link: (text: ReactNode[]) => (
            <a href={getRuntimeConfig().legalLinks.privacy} target="_blank" rel="noopener noreferrer">
              {text}
            </a>
          ),
        })}
      </p>
    </section>
  );
}
