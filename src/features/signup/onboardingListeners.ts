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
    matcher: isAnyOf(formActions.formReset, formActions.formResetForResume, sessionCleared, sessionExpired),
    effect: (_action, { dispatch }) => {
      dispatch(api.util.invalidateTags(['Application', 'Documents']));
    },
  });
}
