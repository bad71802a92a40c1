import { isRejected } from '@reduxjs/toolkit';
import type { AppStartListening } from '../../app/listenerMiddleware';
import { api } from '../../services/api';
import { sessionIdAssigned } from '../../services/requestEvents';
import { clearStoredSession, isTokenExpired, removeItem, saveItem, StorageKey } from '../../storage/browserStorage';
import { formActions } from '../form/formSlice';
import { applicationClosed, pageVisited, sessionCleared, sessionExpired, sessionStarted } from './sessionSlice';
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

  startListening({
    actionCreator: sessionExpired,
    effect: (_action, { dispatch, extra }) => {
      clearStoredSession();
      dispatch(formActions.formReset());
      extra.navigation.navigate(withCurrentQuery('/signUp'));
    },
  });
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
