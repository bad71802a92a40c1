import { useFormik } from 'formik';
import { useRef, useState } from 'react';
import { useIntl } from 'react-intl';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useAppDispatch, useAppSelector, useAppStore } from '../../app/hooks';
import { captchaApi } from '../../services/captchaApi';
import { useCaptcha } from '../../services/captcha';
import { ensureSessionId } from '../../services/sessionId';
import { useCountdown } from '../../forms/useCountdown';
import { CodeInput, LoadingButton, PasswordInput } from '../../components';
import { codeProblem, type CodeProblem } from '../../forms/codeProblem';
import { useFormFields } from '../../forms/useFormFields';
import { describeMessages } from '../../i18n/messages';
import { PRODUCT_PASSWORD_MAX_LENGTH, PRODUCT_PASSWORD_MIN_LENGTH } from '../../validation/constants';
import { carryQuery } from '../../routing/query';
import { RouteTitle } from '../../routing/RouteTitle';
import type { ApiError } from '../../services/baseQuery';
import { outageOf } from '../../services/outage';
import { validateSchema } from '../../validation';
import { recoveryStarted, selectRecovery } from '../../state/authSlice';
import { recoveryApi } from './recoveryApi';
import { recoverConfirmSchema, type RecoverConfirmValues } from './recoverySchemas';
import { sealForServer } from './sealForServer';
import './recovery.css';

const messages = describeMessages({
  intro: {
    id: 'recovery.confirm.intro',
    defaultMessage: 'If {id} is the ID document of a Divilo account, we have sent a 6-digit code by SMS to the mobile phone of that account. Type it and choose a new password.',
  },
  resend: { id: 'recovery.confirm.resend', defaultMessage: 'Send me a new code' },
  resendIn: { id: 'recovery.confirm.resendIn', defaultMessage: 'You can ask for a new code in {seconds, plural, one {# second} other {# seconds}}.' },
  resent: { id: 'recovery.confirm.resent', defaultMessage: 'If the account exists, we have sent it a new code.' },
  code: { id: 'recovery.confirm.code', defaultMessage: 'SMS code' },
  newPassword: { id: 'recovery.confirm.newPassword', defaultMessage: 'New password' },
  // One wording of the rule: the hint is the error's own text.
  passwordRule: {
    id: 'validations.diviloPassword',
    defaultMessage: 'The password must be {min} to {max} characters long and include a lowercase letter, an uppercase letter, a number and a special character, with no spaces',
  },
  confirmation: { id: 'recovery.confirm.confirmation', defaultMessage: 'Repeat the new password' },
  submit: { id: 'recovery.confirm.submit', defaultMessage: 'Change password' },
  wrongCode: {
    id: 'recovery.confirm.wrongCode',
    defaultMessage:
      'That code is not right or has expired: ask for a new one if it is older than a few minutes. {attempts, plural, one {You have # attempt left.} other {You have # attempts left.}}',
  },
  blocked: { id: 'recovery.confirm.blocked', defaultMessage: 'Too many wrong codes. For your security, start again later.' },
  blockedUntil: { id: 'recovery.confirm.blockedUntil', defaultMessage: 'Too many wrong codes from this device. For your security, you can try again at {time}.' },
  expired: { id: 'recovery.confirm.expired', defaultMessage: 'That code has expired. Start again to get a new one.' },
  failed: { id: 'recovery.confirm.failed', defaultMessage: 'We could not change your password. Please try again.' },
  unavailable: {
    id: 'recovery.confirm.unavailable',
    defaultMessage: "We can't reach our service right now, so your password has not changed yet. Your code still works: try again in a moment.",
  },
  resendUnavailable: { id: 'recovery.confirm.resendUnavailable', defaultMessage: "We can't reach our service right now. Ask for a new code again in a moment." },
});

/** What went wrong on this screen: the code's answer, or a service behind it that is away. */
type Problem = CodeProblem | { kind: 'unavailable' | 'resendUnavailable' } | { kind: 'blockedUntil'; until: number };


/** When a wait of `seconds` from now ends (epoch ms). */
const secondsFromNow = (seconds: number) => Date.now() + seconds * 1000;

/** Step 2 of password recovery: code and new password, encrypted in the browser for the server. */
export function RecoverConfirmScreen() {
  const intl = useIntl();
  const navigate = useNavigate();
  const location = useLocation();
  const recovery = useAppSelector(selectRecovery);
  const [getKey] = recoveryApi.useLazyGetPublicKeyQuery();
  const [resetPassword] = recoveryApi.useResetPasswordMutation();
  const [problem, setProblem] = useState<Problem | null>(null);
  const [startRecovery, { isLoading: resending }] = recoveryApi.useStartRecoveryMutation();
  const [resent, setResent] = useState(false);
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const captcha = useCaptcha();
  const [verifyCaptcha] = captchaApi.useLazyVerifyCaptchaQuery();
  const secondsToResend = useCountdown(recovery?.resendAvailableAt ?? null);
  const secondsBlocked = useCountdown(problem?.kind === 'blockedUntil' ? problem.until : null);
  const notice = useRef<HTMLParagraphElement>(null);

  // A new code, once the cooldown is over, through the captcha like the first: the same answer whether or not
  // the account exists.
  const askForNewCode = async () => {
    if (!recovery) return;
    try {
      const sessionId = ensureSessionId(store.getState(), dispatch);
      const { success } = await verifyCaptcha({ response: await captcha.execute('recovery'), sessionId }).unwrap();
      if (!success) throw new Error('captcha');
      const answer = await startRecovery({ userId: recovery.userId }).unwrap();
      dispatch(recoveryStarted({ userId: recovery.userId, resendAvailableAt: Date.now() + (answer.resendAfterSeconds ?? 60) * 1000 }));
      setProblem(null);
      setResent(true);
      notice.current?.focus();
    } catch (error) {
      setProblem({ kind: outageOf(error) ? 'resendUnavailable' : 'failed' });
    }
  };

  const formik = useFormik<RecoverConfirmValues>({
    initialValues: { code: '', newPassword: '', confirmation: '' },
    validate: (values) => validateSchema(recoverConfirmSchema, values),
    validateOnChange: false,
    onSubmit: async (values) => {
      if (!recovery) return;
      setProblem(null);
      try {
        const key = await getKey().unwrap();
        const data = await sealForServer({ userId: recovery.userId, code: values.code.trim(), newPassword: values.newPassword }, key);
        await resetPassword({ data }).unwrap();
        // The success screen ends the recovery: ending it here would send this screen back to step 1.
        navigate(carryQuery('/recover-password/success', location.search), { replace: true });
      } catch (error) {
        // The identity service away: the code was not used up, and everything typed stays for another try.
        if (outageOf(error)) return setProblem({ kind: 'unavailable' });
        const { errorCode, data } = error as ApiError;
        const found = codeProblem(errorCode, data);
        // How long the block lasts, when the server says: the screen gives the time and lets the code go again then.
        const seconds = (data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
        setProblem(found.kind === 'blocked' && typeof seconds === 'number' ? { kind: 'blockedUntil', until: secondsFromNow(seconds) } : found);
        if (found.kind === 'wrongCode') {
          void formik.setFieldValue('code', '', false);
          field('code').ref.current?.focus();
        }
      }
    },
  });
  const field = useFormFields(formik, ['code', 'newPassword', 'confirmation']);

  if (!recovery) return <Navigate to={carryQuery('/recover-password/init', location.search)} replace />;
  const blocked = problem?.kind === 'blocked' || problem?.kind === 'expired' || (problem?.kind === 'blockedUntil' && secondsBlocked > 0);
  const codeField = field('code');
  const problemWithCode = problem !== null && (problem.kind === 'wrongCode' || problem.kind === 'blocked' || problem.kind === 'blockedUntil' || problem.kind === 'expired');

  return (
    <section className="dv-recovery" aria-labelledby="recovery-title">
      <RouteTitle name="recover-password-confirm" id="recovery-title" />
      <p className="dv-recovery__intro">{intl.formatMessage(messages.intro, { id: <strong key="id">{recovery.userId}</strong> })}</p>
      <form className="dv-recovery__form" noValidate onSubmit={formik.handleSubmit}>
        <CodeInput
          label={intl.formatMessage(messages.code)}
          {...codeField}
          // The server's answer about the code belongs to the field: announced with it and marking it invalid.
          error={codeField.error || problemWithCode}
          aria-describedby={problemWithCode ? 'recovery-code-problem' : undefined}
        />
        <PasswordInput
          label={intl.formatMessage(messages.newPassword)}
          description={intl.formatMessage(messages.passwordRule, { min: PRODUCT_PASSWORD_MIN_LENGTH, max: PRODUCT_PASSWORD_MAX_LENGTH })}
          autoComplete="new-password"
          success={formik.values.newPassword !== '' && !formik.errors.newPassword && Boolean(formik.touched.newPassword)}
          {...field('newPassword')}
        />
        <PasswordInput label={intl.formatMessage(messages.confirmation)} autoComplete="new-password" {...field('confirmation')} />
        <p id="recovery-code-problem" className="dv-recovery__error" role="alert">
          {problem &&
            intl.formatMessage(messages[problem.kind], {
              attempts: problem.kind === 'wrongCode' ? problem.attemptsLeft : 0,
              time: problem.kind === 'blockedUntil' ? intl.formatTime(problem.until, { hour: '2-digit', minute: '2-digit' }) : '',
            })}
        </p>
        <LoadingButton type="submit" loading={formik.isSubmitting} disabled={blocked}>
          {intl.formatMessage(messages.submit)}
        </LoadingButton>
      </form>
      <div className="dv-recovery__resend">
        <p ref={notice} tabIndex={-1} role="status" className="dv-recovery__notice">
          {resent ? intl.formatMessage(messages.resent) : null}
        </p>
        <LoadingButton color="gray" loading={resending} disabled={secondsToResend > 0} onClick={askForNewCode}>
          {intl.formatMessage(messages.resend)}
        </LoadingButton>
        {secondsToResend > 0 && <p className="dv-recovery__countdown">{intl.formatMessage(messages.resendIn, { seconds: secondsToResend })}</p>}
      </div>
    </section>
  );
}
