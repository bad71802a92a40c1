import { isFulfilled, isRejected } from '@reduxjs/toolkit';
import type { AppStartListening } from '../../app/listenerMiddleware';
import { api } from '../../services/api';
import { sessionIdAssigned } from '../../services/requestEvents';
import { clearStoredSession, isTokenDueForRenewal, isTokenExpired, removeItem, saveItem, StorageKey } from '../../storage/browserStorage';
import { formActions } from '../../state/formSlice';
import { sessionApi } from './sessionApi';
import { applicationClosed, pageVisited, sessionCleared, sessionExpired, sessionStarted } from '../../state/sessionSlice';
import { withCurrentQuery } from '../../routing/query';

/** Side effects of the session: storage mirrors the state, and an expired token ends the session. */
export function addSessionListeners(startListening: AppStartListening): void {
  startListening({ actionCreator: sessionStarted, effect: ({ payload }) => saveItem(StorageKey.JWT, payload.token) });
  startListening({ actionCreator: sessionIdAssigned, effect: ({ payload }) => saveItem(StorageKey.SESSION_ID, payload) });
  startListening({ actionCreator: pageVisited, effect: ({ payload }) => saveItem(StorageKey.CURRENT_PAGE, payload) });
  startListening({ actionCreator: sessionCleared, effect: () => clearStoredSession() });
  startListening({ actionCreator: applicationClosed, effect: ({ payload }) => saveItem(StorageKey.CLOSED_APPLICATION, payload) });
  // A new sign-up or a renewed session is an application that is not closed (yet).
  startListening({ actionCreator: sessionStarted, effect: () => removeItem(StorageKey.CLOSED_APPLICATION) });

  // A failed request with an expired token: show error.sessionExpired, forget the session, go to signUp.
  startListening({
    predicate: (action, _current, previous) =>
      isApiFailure(action) && previous.session.authorizationToken !== null && isTokenExpired(previous.session.authorizationToken),
    effect: (_action, { dispatch }) => {
      dispatch(sessionExpired());
    },
  });

  // Someone who keeps saving is there: past half its life, the token is renewed quietly after a save, so the
  // "are you still there?" warning comes only after a real pause. One renewal at a time; a refused one changes
  // nothing (the warning still comes, and the session ends as before).
  let renewing = false;
  startListening({
    predicate: (action, current) =>
      isApiMutationDone(action) && current.session.authorizationToken !== null && isTokenDueForRenewal(current.session.authorizationToken),
    effect: async (_action, { dispatch, getState }) => {
      if (renewing) return;
      renewing = true;
      const before = getState().session.authorizationToken;
      try {
        const answer = await dispatch(sessionApi.endpoints.renewSession.initiate()).unwrap();
        // A session ended or replaced meanwhile is not brought back.
        if (getState().session.authorizationToken === before) dispatch(sessionStarted({ token: answer.token }));
      } catch {
        // Refused or unreachable: the warning before the end still gives the choice.
      } finally {
        renewing = false;
      }
    },
  });

  startListening({
    actionCreator: sessionExpired,
    effect: (_action, { dispatch, extra }) => {
      clearStoredSession();
      // The e-mail and the ID document stay (never a secret): starting again needs only the new code.
      dispatch(formActions.formResetForResume());
      extra.navigation.navigate(withCurrentQuery('/signUp'));
    },
  });
}

/** A request that changed something (a step saved, a code sent) answered, other than a renewal itself. */
function isApiMutationDone(action: unknown): boolean {
  if (!isFulfilled(action) || typeof action.type !== 'string' || !action.type.startsWith(`${api.reducerPath}/`)) return false;
  const arg = (action.meta as { arg?: { type?: string; endpointName?: string } }).arg;
  return arg?.type === 'mutation' && arg.endpointName !== 'renewSession';
}

function isApiFailure(action: unknown): boolean {
  return (
    isRejected(action) &&
    typeof action.type === 'string' &&
    action.type.startsWith(`${api.reducerPath}/`) &&
    // A query skipped because its result is cached is "rejected" by condition: not a failure.
    !(action.meta as { condition?: boolean }).condition
  );
}
