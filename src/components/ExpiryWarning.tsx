import { useEffect, useState } from 'react';
import { useIntl, type MessageDescriptor } from 'react-intl';
import { useCountdown } from '../forms/useCountdown';
import { describeMessages } from '../i18n/messages';
import { LoadingButton } from './LoadingButton';
import { Modal } from './Modal';

const messages = describeMessages({
  title: { id: 'session.expiring.title', defaultMessage: 'Are you still there?' },
  body: {
    id: 'session.expiring.body',
    defaultMessage:
      'For your security, your session will end in {seconds, plural, one {# second} other {# seconds}}. What you have already saved is kept.',
  },
  continue: { id: 'session.expiring.continue', defaultMessage: 'Continue' },
  failed: { id: 'session.expiring.failed', defaultMessage: 'We could not extend your session. Please try again.' },
});

export interface ExpiryWarningProps {
  /** When the session ends unless it is used (epoch ms); null without one. */
  expiresAt: number | null;
  warningSeconds: number;
  /** Uses the session, which moves its end. */
  onContinue: () => void | Promise<void>;
  /** The end came: the session is over. */
  onExpired: () => void;
  continuing: boolean;
  failed: boolean;
  /** What ending the session means for whoever uses it (a `{seconds}` count); the applicant's words by default. */
  body?: MessageDescriptor;
}

/**
 * The "are you still there?" dialog of a session that ends when unused (WCAG 2.2.1, timing adjustable): the
 * applicant's, the bank staff's. Shown `warningSeconds` before `expiresAt` with the seconds left; `onExpired` once
 * the end has come.
 */
export function ExpiryWarning({ expiresAt, warningSeconds, onContinue, onExpired, continuing, failed, body = messages.body }: ExpiryWarningProps) {
  const intl = useIntl();
  const [warnFrom, setWarnFrom] = useState<number | null>(null);
  const secondsLeft = useCountdown(warnFrom !== null ? expiresAt : null);

  // Waits until the warning is due: one timer per deadline, none without one.
  useEffect(() => {
    if (expiresAt === null) return undefined;
    const timer = setTimeout(() => setWarnFrom(expiresAt), Math.max(0, expiresAt - warningSeconds * 1000 - Date.now()));
    return () => {
      clearTimeout(timer);
      setWarnFrom(null);
    };
  }, [expiresAt, warningSeconds]);

  const open = warnFrom !== null && warnFrom === expiresAt;
  useEffect(() => {
    if (open && expiresAt !== null && secondsLeft === 0 && Date.now() >= expiresAt) onExpired();
  }, [open, secondsLeft, expiresAt, onExpired]);

  return (
    <Modal
      open={open && secondsLeft > 0}
      role="alertdialog"
      title={intl.formatMessage(messages.title)}
      onClose={() => void onContinue()}
      actions={
        <LoadingButton type="button" loading={continuing} onClick={() => void onContinue()}>
          {intl.formatMessage(messages.continue)}
        </LoadingButton>
      }
    >
      <p>{intl.formatMessage(body, { seconds: secondsLeft })}</p>
      {failed && <p role="alert">{intl.formatMessage(messages.failed)}</p>}
    </Modal>
  );
}
