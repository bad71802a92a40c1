import { useCallback } from 'react';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ExpiryWarning } from '../../components';
import { readTokenExpiry } from '../../storage/browserStorage';
import { useRenewSessionMutation } from './sessionApi';
import { selectAuthorizationToken, sessionExpired, sessionStarted } from '../../state/sessionSlice';

/**
 * Before the onboarding token expires, asks whether to continue (WCAG 2.2.1, timing adjustable): continuing
 * renews the token; letting it run out ends the session as an expired token does.
 */
export function SessionExpiryWarning({ warningSeconds }: { warningSeconds: number }) {
  const dispatch = useAppDispatch();
  const token = useAppSelector(selectAuthorizationToken);
  const expiresAt = token ? (readTokenExpiry(token) ?? 0) * 1000 : null;
  const [renew, { isLoading, isError }] = useRenewSessionMutation();
  const keepGoing = async () => {
    const answer = await renew().unwrap().catch(() => undefined);
    if (answer) dispatch(sessionStarted({ token: answer.token }));
  };
  const expire = useCallback(() => dispatch(sessionExpired()), [dispatch]);
  return <ExpiryWarning expiresAt={expiresAt} warningSeconds={warningSeconds} onContinue={keepGoing} onExpired={expire} continuing={isLoading} failed={isError} />;
}
