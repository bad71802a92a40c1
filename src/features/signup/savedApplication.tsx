import { useEffect, useMemo, useRef, type ComponentType } from 'react';
import { useIntl } from 'react-intl';
import { Navigate } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { LoadingButton } from '../../components';
import { describeMessages } from '../../i18n/messages';
import type { ApiError } from '../../services/baseQuery';
import { selectAuthorizationToken, sessionExpired } from '../../state/sessionSlice';
import { answersOf, EMPTY_ANSWERS, type Answers } from '../../onboarding/answers';
import { isClosedApplication, onboardingApi, useGetApplicationQuery, type ApplicationView } from './onboardingApi';

const selectApplication = onboardingApi.endpoints.getApplication.select();

const messages = describeMessages({
  failed: { id: 'onboarding.application.loadFailed', defaultMessage: 'We could not load your application' },
  failedText: { id: 'onboarding.application.loadFailedText', defaultMessage: 'Check your connection and try again: nothing you saved is lost.' },
  retry: { id: 'onboarding.application.retry', defaultMessage: 'Try again' },
});

/**
 * The answers the application has saved, over empty values: what the wizard's screens start from. Empty before
 * the application exists (the sign-up and its code) and once it is closed.
 */
export function useSavedAnswers(): Answers {
  // Read from what was fetched, never fetched from here: the sign-up has no application to ask for.
  const { data } = useAppSelector(selectApplication);
  return useMemo(() => (data && !isClosedApplication(data) ? answersOf(data.answers, data.personType) : EMPTY_ANSWERS), [data]);
}

/** What the bank asked this applicant to change, while they change it (its reopened steps and its words). */
export function useRequestedChanges(): ApplicationView['requestedChanges'] {
  const { data } = useAppSelector(selectApplication);
  return data && !isClosedApplication(data) ? data.requestedChanges : undefined;
}

/** Said when the application could not be read: the screen cannot start from what was saved, so it waits for it. */
function ApplicationUnavailable({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  const intl = useIntl();
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);
  return (
    <section className="dv-step">
      <div role="alert">
        <h1 className="dv-screen-title" tabIndex={-1} ref={title}>
          {intl.formatMessage(messages.failed)}
        </h1>
        <p className="dv-step__lead">{intl.formatMessage(messages.failedText)}</p>
      </div>
      <div className="dv-step__actions">
        <LoadingButton type="button" loading={retrying} onClick={onRetry}>
          {intl.formatMessage(messages.retry)}
        </LoadingButton>
      </div>
    </section>
  );
}

/**
 * A wizard screen drawn once the application is read (`getApplication`, once per page load), so its fields start
 * with what the server saved, here or on another device. A signed application (another tab, another device) ends
 * the journey at /welcome.
 */
export function withApplication(Screen: ComponentType): ComponentType {
  function WithApplication() {
    // Without a session there is nothing to read (it just ended: the page is leaving).
    const session = useAppSelector(selectAuthorizationToken);
    const { data, error, isError, isFetching, refetch } = useGetApplicationQuery(undefined, { skip: !session });
    // The server refuses the session (revoked, or signed with a key it no longer has): trying again cannot help, so
    // it ends as an expired one does, back to /signUp with who was signing up kept.
    const refused = (error as ApiError | undefined)?.status === 401;
    const dispatch = useAppDispatch();
    useEffect(() => {
      if (refused) dispatch(sessionExpired());
    }, [refused, dispatch]);
    if (data && isClosedApplication(data)) return <Navigate to="/welcome" replace />;
    if (data) return <Screen />;
    if (isError && !refused) return <ApplicationUnavailable retrying={isFetching} onRetry={() => void refetch()} />;
    return null;
  }
  WithApplication.displayName = `WithApplication(${Screen.displayName ?? Screen.name})`;
  return WithApplication;
}
