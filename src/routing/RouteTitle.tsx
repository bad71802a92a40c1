import { useEffect, useRef } from 'react';
import { FormattedMessage } from 'react-intl';
import type { RouteName } from './routes';
import { routeTitles } from './titles';

/**
 * A screen's heading. It takes focus when the screen appears so screen-reader users hear where they are
 * after every navigation (the SPA does not reload the page).
 */
export function RouteTitle({ name, id }: { name: RouteName; id?: string }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [name]);
  return (
    <h1 ref={ref} id={id} tabIndex={-1} className="dv-screen-title">
      <FormattedMessage {...routeTitles[name]} />
    </h1>
  );
}
