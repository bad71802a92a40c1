import type { ComponentType } from 'react';
import { RouteTitle } from './RouteTitle';
import { ROUTES, type RouteArea, type RouteName } from './routes';

export type ScreenMap = Partial<Record<RouteName, ComponentType>>;

/** A screen per route of an area that shows only its title, for steps whose content is not built yet. */
export function titledScreens(area: RouteArea): ScreenMap {
  return Object.fromEntries(
    ROUTES.filter((route) => route.area === area).map((route) => {
      const Screen = () => <RouteTitle name={route.name} />;
      Screen.displayName = `Screen(${route.name})`;
      return [route.name, Screen];
    }),
  );
}
