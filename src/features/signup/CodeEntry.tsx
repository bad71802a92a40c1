import { useEffect } from 'react';
import {
  CodeEntry as SharedCodeEntry,
  ResendCode as SharedResendCode,
  type CodeEntryProps,
  type CodeMessages,
  type ResendCodeProps,
} from '../../forms/CodeEntry';
import { isBlock, useCodeFeedback } from '../../forms/useCodeFeedback';
import { outageOf } from '../../services/outage';
import { describeMessages } from '../../i18n/messages';
import { sendRefusalMessages } from './sendRefusal';
import type { StepId } from '../../onboarding/flow';
import { codeStepSchema } from '../../validation/onboarding';
import { useStepForm, type StepFormOptions } from './useStepForm';

const messages: CodeMessages = {
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
    notSent: { id: 'onboarding.code.notSent', defaultMessage: "We couldn't send the new code. Ask for it again in a moment." },
    unavailable: {
      id: 'onboarding.code.unavailable',
      defaultMessage: "We can't reach our service right now. Try again in a moment with the same code; if it has expired by then, ask for a new one.",
    },
  }),
};

/** The shared code field, in the wizard's words and look. */
export function CodeEntry(props: Omit<CodeEntryProps, 'messages' | 'feedbackClassName'>) {
  return <SharedCodeEntry {...props} messages={messages} feedbackClassName="dv-step__feedback" />;
}

/** The shared "send me a new code", in the wizard's words and look. */
export function ResendCode(props: Omit<ResendCodeProps, 'messages' | 'className' | 'noteClassName'>) {
  return <SharedResendCode {...props} messages={messages} className="dv-step__secondary" noteClassName="dv-step__note" />;
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
  const code = useCodeFeedback(() => (resendAfterSeconds ? Date.now() + resendAfterSeconds * 1000 : null));
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
      // A service away: the code typed was not judged, and stays to be sent again.
      if (outageOf(error)) return true;
      void form.formik.setFieldValue('code', '', false);
      if (!isBlock(error)) form.field('code').ref.current?.focus();
      return true;
    },
  });
  // After "send me a new code" (its button is now disabled), focus goes to the field the new code goes in,
  // which the notice describes.
  const notice = code.feedback !== null && !code.problem;
  const { ref } = form.field('code');
  useEffect(() => {
    if (notice) ref.current?.focus();
  }, [code.feedback, notice, ref]);
  const askAgain = async () => {
    try {
      code.resent((await resend()).resendAfterSeconds);
    } catch (error) {
      code.resendRefused(error);
    }
  };
  return { ...form, code, askAgain };
}
