import { useIntl } from 'react-intl';
import { describeMessages } from '../../i18n/messages';
import type { ApiError } from '../../services/baseQuery';
import { outageOf } from '../../services/outage';

export const sendRefusalMessages = describeMessages({
  tooSoon: {
    id: 'onboarding.send.tooSoon',
    defaultMessage: 'We sent you a code a moment ago. You can ask for another in {seconds, plural, one {# second} other {# seconds}}.',
  },
  budget: { id: 'onboarding.send.budget', defaultMessage: 'We have sent too many messages for now. For your security, you can ask again at {time}.' },
  blocked: { id: 'onboarding.send.blocked', defaultMessage: 'Too many wrong codes. For your security, you can ask for a new code at {time}.' },
  blockedWhile: { id: 'onboarding.send.blockedWhile', defaultMessage: 'Too many wrong codes. For your security, wait a few minutes and ask for a new code.' },
  notSent: { id: 'onboarding.send.notSent', defaultMessage: "We couldn't send your code just now. What you typed is kept: try again in a moment." },
  unavailable: { id: 'onboarding.send.unavailable', defaultMessage: "We can't reach our service right now, so nothing was sent or saved. What you typed is kept: try again in a moment." },
});

/**
 * Why the server would not send a code now: asked again within the cooldown, blocked after wrong codes, or the
 * message budgets (of this phone or address, this application, this connection or everyone's) spent for now; or why
 * it could not: the message's provider failed (`notSent`), or a service behind it is unreachable (`unavailable`).
 * Either of those two may be tried again at once.
 */
export type SendRefusal = { kind: 'tooSoon'; seconds: number } | { kind: 'budget'; until: number } | { kind: 'blocked'; until: number | null } | { kind: 'notSent' | 'unavailable' };

/** The refusal a failed call carries, or null for any other failure. */
export function sendRefusalOf(error: unknown, now: number = Date.now()): SendRefusal | null {
  const { errorCode, data } = (error ?? {}) as Partial<ApiError>;
  const given = (data as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  const seconds = typeof given === 'number' && given > 0 ? given : null;
  switch (errorCode) {
    case 'RESEND_TOO_SOON':
      return { kind: 'tooSoon', seconds: seconds ?? 30 };
    case 'MESSAGE_BUDGET_EXCEEDED':
      return { kind: 'budget', until: now + (seconds ?? 3600) * 1000 };
    case 'CODE_BLOCKED':
      return { kind: 'blocked', until: seconds === null ? null : now + seconds * 1000 };
    default: {
      const outage = outageOf(error);
      return outage ? { kind: outage } : null;
    }
  }
}

/** The refusal in words, announced as it appears. */
export function SendRefusalNotice({ refusal, id }: { refusal: SendRefusal | null; id: string }) {
  const intl = useIntl();
  const time = (until: number) => intl.formatTime(until, { hour: '2-digit', minute: '2-digit' });
  let text = '';
  if (refusal?.kind === 'tooSoon') text = intl.formatMessage(sendRefusalMessages.tooSoon, { seconds: refusal.seconds });
  else if (refusal?.kind === 'budget') text = intl.formatMessage(sendRefusalMessages.budget, { time: time(refusal.until) });
  else if (refusal?.kind === 'blocked')
    text = refusal.until === null ? intl.formatMessage(sendRefusalMessages.blockedWhile) : intl.formatMessage(sendRefusalMessages.blocked, { time: time(refusal.until) });
  else if (refusal) text = intl.formatMessage(sendRefusalMessages[refusal.kind]);
  return (
    <p id={id} className="dv-step__feedback" role="alert">
      {text}
    </p>
  );
}
