import { useEffect } from 'react';
import { useAppDispatch, useAppStore } from '../../app/hooks';
import { RouteTitle } from '../../routing/RouteTitle';
import { authReset } from '../../state/authSlice';
import { formActions } from '../../state/formSlice';
import { sessionCleared } from '../../state/sessionSlice';
import { loginApi } from './loginApi';

/** Signs out (the server revokes the session and its cookie), forgets everything, then goes to login, which says so. */
export function LogoutScreen() {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const [logout] = loginApi.useLogoutMutation();
  useEffect(() => {
    let active = true;
    // Signing out locally does not wait for the server: a failed call must not keep the user signed in here.
    void logout()
      .catch(() => undefined)
      .finally(() => {
        dispatch(sessionCleared());
        dispatch(authReset());
        dispatch(formActions.formReset());
        if (active) store.navigation.navigate('/login', { replace: true, state: { loggedOut: true } });
      });
    return () => {
      active = false;
    };
  }, [dispatch, logout, store]);
  return <RouteTitle name="logout" />;
}
