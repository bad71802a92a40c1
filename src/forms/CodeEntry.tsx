import { useEffect, useState, type RefObject } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';
import { CodeInput, LoadingButton, type TextInputProps } from '../components';
import { ALERTS, type CodeFeedbackId, type CodeFeedbackState } from './useCodeFeedback';
import type { FieldErrorProps } from './useFieldErrors';

/** A feature's wording of its code entry: each answer of the server, "send me a new code" and its countdown. */
export type CodeMessages = Record<CodeFeedbackId | 'resend' | 'resendIn', MessageDescriptor> & {
  /** The block's end, for a screen that stays while blocked (the seconds left are shown otherwise). */
  resendAt?: MessageDescriptor;
};

/** The code field as a form binds it (useFormFields, useStepForm): through its ref the cursor goes back to it. */
export type CodeField = Pick<TextInputProps, 'value' | 'onChange' | 'onBlur'> & FieldErrorProps & { name: string; ref: RefObject<HTMLInputElement | null> };

const TIME = { hour: '2-digit', minute: '2-digit' } as const;

export interface CodeEntryProps {
  label: string;
  field: CodeField;
  state: CodeFeedbackState;
  messages: CodeMessages;
  /** The answer's look, from the screen's own styles. */
  feedbackClassName: string;
  /** Focus the field as it appears (it replaces the button that asked for the code). */
  focusOnMount?: boolean;
}

/** A 6-digit code field with the server's answer (wrong, blocked, expired, resent) tied to it. */
export function CodeEntry({ label, field: { ref, name, value, onChange, onBlur, error, errorText }, state, messages, feedbackClassName, focusOnMount = false }: CodeEntryProps) {
  const intl = useIntl();
  const { feedback, blocked, problem } = state;
  // Blocked, the field takes nothing: the block's notice is all it says (no "required" under a disabled field).
  const fieldError = blocked ? undefined : errorText;
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
        // The server's answer about the code belongs to the field: announced with it and marking it invalid.
        error={(!blocked && error) || problem}
        errorText={fieldError}
        aria-describedby={feedback ? `${name}-feedback` : undefined}
      />
      {/* A refusal to send says nothing about the code typed: announced, but the field is not marked. */}
      <p id={`${name}-feedback`} className={feedbackClassName} role={problem || (feedback !== null && ALERTS.includes(feedback.id)) ? 'alert' : 'status'}>
        {feedback &&
          intl.formatMessage(
            messages[feedback.id],
            feedback.id === 'blocked' || feedback.id === 'budget' ? { time: intl.formatTime(feedback.values?.until, TIME) } : feedback.values,
          )}
      </p>
    </>
  );
}

export interface ResendCodeProps {
  state: CodeFeedbackState;
  messages: CodeMessages;
  resending: boolean;
  onResend(): void;
  /** The look of the group and of its countdown, from the screen's own styles. */
  className: string;
  noteClassName: string;
}

/** "Send me a new code", disabled with a visible countdown until the server allows another. */
export function ResendCode({ state, messages, resending, onResend, className, noteClassName }: ResendCodeProps) {
  const intl = useIntl();
  const { secondsToResend, blocked, feedback } = state;
  const until = feedback?.id === 'blocked' ? feedback.values?.until : undefined;
  return (
    <div className={className}>
      <LoadingButton color="gray" loading={resending} disabled={secondsToResend > 0} onClick={onResend}>
        {intl.formatMessage(messages.resend)}
      </LoadingButton>
      {/* Blocked, the time it ends (a countdown of many minutes says less); otherwise the seconds left. */}
      {secondsToResend > 0 && (
        <p className={noteClassName}>
          {blocked && until !== undefined && messages.resendAt
            ? intl.formatMessage(messages.resendAt, { time: intl.formatTime(until, TIME) })
            : intl.formatMessage(messages.resendIn, { seconds: secondsToResend })}
        </p>
      )}
    </div>
  );
}
