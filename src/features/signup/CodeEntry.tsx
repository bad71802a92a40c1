import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { CodeInput, LoadingButton } from '../../components';
import { codeProblem } from '../../forms/codeProblem';
import { useCountdown } from '../../forms/useCountdown';
import { describeMessages } from '../../i18n/messages';
import type { ApiError } from '../../services/baseQuery';
import { sendRefusalMessages } from './sendRefusal';
import type { StepId } from '../../onboarding/flow';
import { codeStepSchema } from '../../validation/onboarding';
import { useStepForm, type StepField, type StepFormOptions } from './useStepForm';

const messages = {
  budget: sendRefusalMessages.budget,
  ...describeMessages({
  resend: { id: 'onboarding.code.resend', defaultMessage: 'Send me a new code' },
  resendIn: { id: 'onboarding.code.resendIn', defaultMessage: 'You can ask for a new code in {seconds, plural, one {# second} other {# seconds}}.' },
  resendAt: { id: 'onboarding.code.resendAt', defaultMessage: 'You can ask for a new code at {time}.' },
  resent: { id: 'onboarding.code.resent', defaultMessage: 'We have sent you a new code.' },
  wrongCode: {
    id: 'onboarding.code.wrongCode',
    defaultMessage: 'That code is not right. {attempts, plural, one {You have # attempt left.} other {You have # attempts left.}}',
  },
  blocked: { id: 'onboarding.code.blocked', defaultMessage: 'Too many wrong codes. For your security, wait until {time} and ask for a new code.' },
  blockedWhile: { id: 'onboarding.code.blockedWhile', defaultMessage: 'Too many wrong codes. For your security, wait a few minutes and ask for a new code.' },
  expired: { id: 'onboarding.code.expired', defaultMessage: 'That code has expired. Ask for a new one.' },
  failed: { id: 'onboarding.code.failed', defaultMessage: 'We could not check the code. Please try again.' },
  tooSoon: { id: 'onboarding.code.tooSoon', defaultMessage: 'Please wait a little before asking for another code.' },
  }),
};

/** Whether a failed check is the block after too many wrong codes. */
export const isBlock = (error: unknown) => ((error ?? {}) as ApiError).errorCode === 'CODE_BLOCKED';

type Feedback = { id: keyof typeof messages; values?: Record<string, number> } | null;

/**
 * The state of a code field fed by the server: a wrong code (attempts left), blocked, expired, resent, and the
 * resend countdown. `failure` turns a failed check into feedback and answers whether it was about the code.
 */
export function useCodeFeedback(initialResendAfterSeconds: number | undefined) {
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [resendAt, setResendAt] = useState<number | null>(() => (initialResendAfterSeconds ? Date.now() + initialResendAfterSeconds * 1000 : null));
  const secondsToResend = useCountdown(resendAt);
  const failure = (error: unknown): boolean => {
    const { errorCode, data } = (error ?? {}) as ApiError;
    if (!errorCode || !errorCode.startsWith('CODE_')) return false;
    const problem = codeProblem(errorCode, data);
    if (problem.kind === 'blocked') {
      // Until when, from the server's answer: the screen shows the time.
      const seconds = (data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      if (typeof seconds === 'number') {
        // A new code may be asked for when the block ends: "send me a new code" waits until then.
        const until = Date.now() + seconds * 1000;
        setResendAt(until);
        setFeedback({ id: 'blocked', values: { until } });
      } else setFeedback({ id: 'blockedWhile' });
      return true;
    }
    setFeedback(problem.kind === 'wrongCode' ? { id: 'wrongCode', values: { attempts: problem.attemptsLeft } } : { id: problem.kind });
    return true;
  };
  const resent = (afterSeconds: number) => {
    setResendAt(Date.now() + afterSeconds * 1000);
    setFeedback({ id: 'resent' });
  };
  const resendRefused = (error: unknown) => {
    const { errorCode, data } = (error ?? {}) as ApiError;
    if (errorCode === 'RESEND_TOO_SOON') {
      const retry = (data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      if (typeof retry === 'number') setResendAt(Date.now() + retry * 1000);
      setFeedback({ id: 'tooSoon' });
    } else if (errorCode === 'MESSAGE_BUDGET_EXCEEDED') {
      // Too many messages to this phone or address, for this application or from this connection, for now.
      const retry = (data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      setFeedback({ id: 'budget', values: { until: Date.now() + (typeof retry === 'number' ? retry : 3600) * 1000 } });
    } else if (!failure(error)) {
      setFeedback({ id: 'failed' });
    }
  };
  // Blocked until the time the server gave (then a new code may be asked for), or for a while when it gave none.
  const blocked = feedback?.id === 'blockedWhile' || (feedback?.id === 'blocked' && secondsToResend > 0);
  return { feedback, setFeedback, secondsToResend, failure, resent, resendRefused, blocked };
}

export interface CodeEntryProps {
  label: string;
  field: StepField<string>;
  state: ReturnType<typeof useCodeFeedback>;
  /** Focus the field as it appears (it replaces the button that asked for the code). */
  focusOnMount?: boolean;
}

/** A 6-digit code field with the server's answer (wrong, blocked, expired, resent) tied to it. */
export function CodeEntry({ label, field: { ref, name, value, onChange, onBlur, error, errorText }, state, focusOnMount = false }: CodeEntryProps) {
  const intl = useIntl();
  const { feedback, blocked } = state;
  // Only an answer about the code itself marks the field: "resent" and "wait before asking again" are notices.
  const problem = feedback !== null && feedback.id !== 'resent' && feedback.id !== 'tooSoon' && feedback.id !== 'budget';
  // Blocked, the field takes nothing: the block's notice is all it says (no "required" under a disabled field).
  const fieldError = blocked ? undefined : errorText;
  // After "send me a new code" (its button is now disabled), focus goes to the field the new code goes in,
  // which the notice describes.
  const notice = feedback !== null && !problem;
  useEffect(() => {
    if (notice) ref.current?.focus();
  }, [feedback, notice, ref]);
  const [focusFirst] = useState(focusOnMount);
  useEffect(() => {
    if (focusFirst) ref.current?.focus();
  }, [focusFirst, ref]);
  return (
    <>
      <CodeInput
        label={label}
        disabled={blocked}
        ref={ref}
        name={name}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        error={(!blocked && error) || problem}
        errorText={fieldError}
        aria-describedby={feedback ? `${name}-feedback` : undefined}
      />
      <p id={`${name}-feedback`} className="dv-step__feedback" role={problem || feedback?.id === 'budget' ? 'alert' : 'status'}>
        {feedback &&
          intl.formatMessage(
            messages[feedback.id],
            feedback.id === 'blocked' || feedback.id === 'budget' ? { time: intl.formatTime(feedback.values?.until, { hour: '2-digit', minute: '2-digit' }) } : feedback.values,
          )}
      </p>
    </>
  );
}

/** "Send me a new code", disabled with a visible countdown until the server allows another. */
export function ResendCode({ state, resending, onResend }: { state: ReturnType<typeof useCodeFeedback>; resending: boolean; onResend(): void }) {
  const intl = useIntl();
  const { secondsToResend, blocked, feedback } = state;
  const until = feedback?.id === 'blocked' ? feedback.values?.until : undefined;
  return (
    <>
      <div className="dv-step__secondary">
        <LoadingButton color="gray" loading={resending} disabled={secondsToResend > 0} onClick={onResend}>
          {intl.formatMessage(messages.resend)}
        </LoadingButton>
        {/* Blocked, the time it ends (a countdown of many minutes says less); otherwise the seconds left. */}
        {secondsToResend > 0 && (
          <p className="dv-step__note">
            {blocked && until !== undefined
              ? intl.formatMessage(messages.resendAt, { time: intl.formatTime(until, { hour: '2-digit', minute: '2-digit' }) })
              : intl.formatMessage(messages.resendIn, { seconds: secondsToResend })}
          </p>
        )}
      </div>
    </>
  );
}

/**
 * A wizard step that takes a code (/reg-code, /confirm-telephone, /docu-sign): its form, never kept as a draft; a
 * refused code empties the field and puts the cursor back (not while blocked: the notice says what to do); and
 * "send me a new code".
 */
export function useCodeStep({
  step,
  resendAfterSeconds,
  send,
  resend,
}: {
  step: StepId;
  resendAfterSeconds: number | undefined;
  /** The step's own call; the step's generic save otherwise. */
  send?: StepFormOptions<{ code: string }>['send'];
  resend: () => Promise<{ resendAfterSeconds: number }>;
}) {
  const code = useCodeFeedback(resendAfterSeconds);
  const form = useStepForm<{ code: string }>({
    step,
    keepDraft: false,
    schema: codeStepSchema,
    fields: ['code'],
    initialValues: () => ({ code: '' }),
    toBody: ({ code: typed }) => ({ code: typed.trim() }),
    send:
      send &&
      ((values) => {
        code.setFeedback(null);
        return send({ code: values.code.trim() });
      }),
    onFailure: (error) => {
      if (!code.failure(error)) return false;
      void form.formik.setFieldValue('code', '', false);
      if (!isBlock(error)) form.field('code').ref.current?.focus();
      return true;
    },
  });
  const askAgain = async () => {
    try {
      code.resent((await resend()).resendAfterSeconds);
    } catch (error) {
      code.resendRefused(error);
    }
  };
  return { ...form, code, askAgain };
}
