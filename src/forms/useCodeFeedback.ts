import { useState } from 'react';
import type { ApiError } from '../services/baseQuery';
import { outageOf } from '../services/outage';
import { codeProblem } from './codeProblem';
import { useCountdown } from './useCountdown';

/** The server's answers a code field shows: about the code typed, or about sending a new one. */
export type CodeFeedbackId = 'wrongCode' | 'blocked' | 'blockedWhile' | 'expired' | 'failed' | 'resent' | 'tooSoon' | 'budget' | 'notSent' | 'unavailable';

type CodeFeedback = { id: CodeFeedbackId; values?: Record<string, number> } | null;

/** Answers about sending, or about a service that is away, not about the code typed: they do not mark the field. */
const NOTICES: readonly CodeFeedbackId[] = ['resent', 'tooSoon', 'budget', 'notSent', 'unavailable'];
/** Notices that call for the person's attention at once. */
export const ALERTS: readonly CodeFeedbackId[] = ['budget', 'notSent', 'unavailable'];

/** Whether a failed check is the block after too many wrong codes. */
export const isBlock = (error: unknown) => ((error ?? {}) as ApiError).errorCode === 'CODE_BLOCKED';

const retryAfterOf = (data: unknown) => (data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;

/**
 * The state of a code field fed by the server: a wrong code (attempts left), blocked, expired, resent, and the
 * resend countdown, from `firstResendAt` (epoch ms, or null when a new code may be asked for at once). `failure`
 * turns a failed check into feedback and answers whether it was about the code.
 */
export function useCodeFeedback(firstResendAt: () => number | null) {
  const [feedback, setFeedback] = useState<CodeFeedback>(null);
  const [resendAt, setResendAt] = useState<number | null>(firstResendAt);
  const secondsToResend = useCountdown(resendAt);
  const failure = (error: unknown): boolean => {
    const { errorCode, data } = (error ?? {}) as ApiError;
    // A service behind the code's check is away: nothing is wrong with the code typed, which stays to be sent again.
    if (outageOf(error)) {
      setFeedback({ id: 'unavailable' });
      return true;
    }
    if (!errorCode || !errorCode.startsWith('CODE_')) return false;
    const problem = codeProblem(errorCode, data);
    if (problem.kind === 'blocked') {
      // Until when, from the server's answer: the screen shows the time.
      const seconds = retryAfterOf(data);
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
      const retry = retryAfterOf(data);
      if (typeof retry === 'number') setResendAt(Date.now() + retry * 1000);
      setFeedback({ id: 'tooSoon' });
    } else if (outageOf(error)) {
      // Not sent (its provider failed) or not asked (a service away): the server gave the turn back, so "send me a
      // new code" may be pressed again at once.
      setResendAt(null);
      setFeedback({ id: outageOf(error) === 'notSent' ? 'notSent' : 'unavailable' });
    } else if (errorCode === 'MESSAGE_BUDGET_EXCEEDED') {
      // Too many messages to this phone or address, for this application or from this connection, for now.
      const retry = retryAfterOf(data);
      setFeedback({ id: 'budget', values: { until: Date.now() + (typeof retry === 'number' ? retry : 3600) * 1000 } });
    } else if (!failure(error)) {
      setFeedback({ id: 'failed' });
    }
  };
  // Blocked until the time the server gave (then a new code may be asked for), or for a while when it gave none.
  const blocked = feedback?.id === 'blockedWhile' || (feedback?.id === 'blocked' && secondsToResend > 0);
  // Only an answer about the code itself marks the field.
  const problem = feedback !== null && !NOTICES.includes(feedback.id);
  return { feedback, setFeedback, secondsToResend, failure, resent, resendRefused, blocked, problem };
}

export type CodeFeedbackState = ReturnType<typeof useCodeFeedback>;
