import { createBrowserRouter, createMemoryRouter, redirect, type RouteObject } from 'react-router';
import { carryQuery } from '../routing/query';
import { ROUTES, type RouteArea, type RouteName } from '../routing/routes';
import type { ScreenMap } from '../routing/screenMap';
import { AppShell } from './AppShell';
import { RouteLoadError } from './RouteLoadError';
import { guardRoute } from './guards';
import type { AppStore } from './store';

// One chunk per area: the login bundle never carries the onboarding wizard (or its upload code).
const loaders: Record<RouteArea, () => Promise<{ screens: ScreenMap }>> = {
  login: () => import(/* webpackChunkName: "login" */ './screens/loginArea'),
  onboarding: () => import(/* webpackChunkName: "onboarding" */ './screens/onboardingArea'),
};

/** Routes that only redirect render nothing: their loader has already moved on. */
const Redirecting = () => null;

export function buildRoutes(store: AppStore): RouteObject[] {
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
              const { screens } = await loaders[route.area]();
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
  return createBrowserRouter(buildRoutes(store));
}

/** For tests and diagnostics replays: the same routes in memory. */
export function createAppMemoryRouter(store: AppStore, initialPath: string) {
  return createMemoryRouter(buildRoutes(store), { initialEntries: [initialPath] });
}
