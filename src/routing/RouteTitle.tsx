import { useEffect, useRef } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { dismissFirstScreen, takeCarriedFocus } from './firstScreen';
import type { RouteName } from './routes';
import { routeTitle } from './titles';

/**
 * A screen's heading. It takes focus when the screen appears so screen-reader users hear where they are
 * after every navigation (the SPA does not reload the page), unless the focus was carried over from the login
 * screen the page drew before the app ran.
 */
export function RouteTitle({ name, id }: { name: RouteName; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  const intl = useIntl();
  useEffect(() => {
    // Any screen but the login (which takes it over) replaces what the page drew before the app ran.
    dismissFirstScreen();
    // Someone who was typing into that first screen keeps typing where they were.
    if (takeCarriedFocus()) return;
    ref.current?.focus();
  }, [name]);
  // Each screen names the page too (WCAG 2.4.2): the browser tab, history and a screen reader's page title.
  useEffect(() => {
    document.title = `${intl.formatMessage(routeTitle(name))} · Divilo`;
  }, [intl, name]);
  return (
    <h1 ref={ref} id={id} tabIndex={-1} className="dv-screen-title">
      <FormattedMessage {...routeTitle(name)} />
    </h1>
  );
}
