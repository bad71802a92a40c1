import { isAnyOf } from '@reduxjs/toolkit';
import type { AppStartListening } from '../../app/listenerMiddleware';
import { api } from '../../services/api';
import { formActions } from '../../state/formSlice';
import { sessionCleared, sessionExpired } from '../../state/sessionSlice';

/**
 * When the journey ends (a last page, a logout, a session that ran out) the browser forgets the application it
 * read: the next applicant of this tab cannot see it, and a new session reads its own.
 */
export function addOnboardingListeners(startListening: AppStartListening): void {
  startListening({
    actionCreator: formActions.formReset,
    effect: (_action, { dispatch }) => {
      dispatch(api.util.invalidateTags(['Application', 'Documents']));
    },
  });
  // A session that ended forgets every answer read with it, a request still on its way included: its answer, when
  // it comes, finds no entry to fill (invalidating would read the application again, with no session, while the
  // page is still leaving).
  startListening({
    matcher: isAnyOf(sessionCleared, sessionExpired),
    effect: (_action, { dispatch }) => {
      dispatch(api.util.resetApiState());
    },
  });
}
