import { useEffect, useState } from 'react';
import { useIntl } from 'react-intl';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { LoadingButton, Modal } from '../../components';
import { useCountdown } from '../../forms/useCountdown';
import { describeMessages } from '../../i18n/messages';
import { readTokenExpiry } from '../../storage/browserStorage';
import { useRenewSessionMutation } from './sessionApi';
import { selectAuthorizationToken, sessionExpired, sessionStarted } from '../../state/sessionSlice';

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

/**
 * Before the onboarding token expires, asks whether to continue (WCAG 2.2.1, timing adjustable): continuing
 * renews the token; letting it run out ends the session as an expired token does.
 */
export function SessionExpiryWarning({ warningSeconds }: { warningSeconds: number }) {
  const intl = useIntl();
  const dispatch = useAppDispatch();
  const token = useAppSelector(selectAuthorizationToken);
  const expiresAt = token ? (readTokenExpiry(token) ?? 0) * 1000 : null;
  const [warnFrom, setWarnFrom] = useState<number | null>(null);
  const [renew, { isLoading, isError }] = useRenewSessionMutation();
  const secondsLeft = useCountdown(warnFrom !== null ? expiresAt : null);

  // Waits until the warning is due: one timer per token, none without one.
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
    if (open && expiresAt !== null && secondsLeft === 0 && Date.now() >= expiresAt) dispatch(sessionExpired());
  }, [open, secondsLeft, expiresAt, dispatch]);

  const keepGoing = async () => {
    const answer = await renew().unwrap().catch(() => undefined);
    if (answer) dispatch(sessionStarted({ token: answer.token }));
  };

  return (
    <Modal
      open={open && secondsLeft > 0}
      role="alertdialog"
      title={intl.formatMessage(messages.title)}
      onClose={() => void keepGoing()}
      actions={
        <LoadingButton type="button" loading={isLoading} onClick={() => void keepGoing()}>
          {intl.formatMessage(messages.continue)}
        </LoadingButton>
      }
    >
      <p>{intl.formatMessage(messages.body, { seconds: secondsLeft })}</p>
      {isError && <p role="alert">{intl.formatMessage(messages.failed)}</p>}
    </Modal>
  );
}
