import { createBrowserRouter, createMemoryRouter, redirect, type RouteObject } from 'react-router';
import { selectLocale } from '../features/ui/uiSlice';
import { loadMessages } from '../i18n/locale';
import { carryQuery } from '../routing/query';
import { ROUTES, type RouteArea, type RouteName } from '../routing/routes';
import { AppShell } from './AppShell';
import { RouteLoadError } from './RouteLoadError';
import { guardRoute } from './guards';
import { areaLoaders } from './screens/areas';
import type { AppStore } from './store';

/** Routes that only redirect render nothing: their loader has already moved on. */
const Redirecting = () => null;

/** What a screen area needs beyond its code before it shows (the wizard's texts, in the browser). */
export type AreaNeeds = (area: RouteArea) => Promise<unknown> | undefined;

export function buildRoutes(store: AppStore, areaNeeds: AreaNeeds = () => undefined): RouteObject[] {
  const carry = (to: string) => ({ request }: { request: Request }) => redirect(carryQuery(to, new URL(request.url).search));
  return [
    {
      path: '/',
      element: <AppShell />,
      // A screen's code that does not arrive (a dropped connection, a new release): say so, offer to try again.
      errorElement: <RouteLoadError />,
      // Screens load with their bundle; until the first one arrives the page stays as it is.
      HydrateFallback: Redirecting,
      children: [
        { index: true, loader: carry('/login'), Component: Redirecting },
        ...ROUTES.map(
          (route): RouteObject => ({
            id: route.name,
            path: route.path,
            loader: ({ request }) => guardRoute(store, route, request.url),
            lazy: async () => {
              const [{ screens }] = await Promise.all([areaLoaders[route.area](), areaNeeds(route.area)]);
              return { Component: screens[route.name as RouteName] };
            },
          }),
        ),
        { path: '*', loader: carry('/signUp'), Component: Redirecting },
      ],
    },
  ];
}

export function createAppRouter(store: AppStore) {
  // The wizard's screens need its texts: a login page carried only the login journey's (src/i18n/locale.ts).
  return createBrowserRouter(buildRoutes(store, (area) => (area === 'onboarding' ? loadMessages(selectLocale(store.getState())) : undefined)));
}

/** For tests: the same routes in memory, with whatever texts the test provides. */
export function createAppMemoryRouter(store: AppStore, initialPath: string, areaNeeds?: AreaNeeds) {
  return createMemoryRouter(buildRoutes(store, areaNeeds), { initialEntries: [initialPath] });
}
