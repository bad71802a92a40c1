import { createBrowserRouter, createMemoryRouter, redirect, type RouteObject } from 'react-router';
import { carryQuery } from '../routing/query';
import { ROUTES, type RouteName } from '../routing/routes';
import { AppShell } from './AppShell';
import { RouteLoadError } from './RouteLoadError';
import { guardRoute } from './guards';
import { areaLoaders } from './screens/areas';
import type { AppStore } from './store';

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
              const { screens } = await areaLoaders[route.area]();
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
