import { useEffect, useState, type ComponentType } from 'react';
import { Navigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { formActions } from '../form/formSlice';
import { isClosedApplication, onboardingApi } from './onboardingApi';

/** Whether this page load has read the application from the server already (once is enough: saves keep it in step). */
let readThisLoad = false;

/**
 * A wizard screen that first reads the saved application from the server, once per page load: a reload shows the
 * answers the server has, even those the browser had not yet written to USER_FORM when the page went away. Until
 * the answer comes (or fails: the browser's copy is used) the screen is not drawn, so its fields start filled.
 */
export function withSavedApplication(Screen: ComponentType): ComponentType {
  function WithSavedApplication() {
    const dispatch = useAppDispatch();
    const [closed, setClosed] = useState(false);
    const [ready, setReady] = useState(readThisLoad);
    useEffect(() => {
      if (readThisLoad) return undefined;
      let mounted = true;
      const request = dispatch(onboardingApi.endpoints.getApplication.initiate(undefined, { subscribe: false }));
      request
        .unwrap()
        .then((application) => {
          // Signed (another tab, another device): the journey is over, and its end is the page to show.
          if (isClosedApplication(application)) {
            if (mounted) setClosed(true);
          } else dispatch(formActions.applicationSynced({ ...application.answers, personType: application.personType ?? '' }));
        })
        .catch(() => undefined)
        .finally(() => {
          readThisLoad = true;
          if (mounted) setReady(true);
        });
      return () => {
        mounted = false;
      };
    }, [dispatch]);
    if (closed) return <Navigate to="/welcome" replace />;
    return ready ? <Screen /> : null;
  }
  WithSavedApplication.displayName = `WithSavedApplication(${Screen.displayName ?? Screen.name})`;
  return WithSavedApplication;
}
