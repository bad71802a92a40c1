import { Component, lazy, Suspense, useEffect, useMemo, type ComponentType, type ReactNode } from 'react';
import { Outlet, Route, Routes, useLocation, useNavigate, type NavigateFunction } from 'react-router';
import { pageVisited, sessionExpired } from '../state/sessionSlice';
import { selectLocale } from '../state/uiSlice';
import { loadMessages } from '../i18n/locale';
import { carryQuery } from '../routing/query';
import { ROUTES, routeByPath, type RouteArea, type RouteName } from '../routing/routes';
import { AppShell } from './AppShell';
import { useAppDispatch, useAppStore } from './hooks';
import { RouteLoadError } from './RouteLoadError';
import { guardRoute } from './guards';
import { areaLoaders } from './screens/areas';
import type { AppStore } from './store';

/** What a screen area needs beyond its code before it shows (the wizard's texts, in the browser). */
type AreaNeeds = (area: RouteArea) => Promise<unknown> | undefined;

export type RouteScreens = Record<RouteName, ComponentType>;

/**
 * Each route's screen, fetched with its area's code (and what the area needs) the first time it shows. Made once
 * per app: a screen that has arrived renders at once afterwards. Navigations are transitions (react-router's own),
 * so the screen on show stays until the next one has arrived.
 */
export function lazyScreens(areaNeeds: AreaNeeds = () => undefined): RouteScreens {
  const screens: Partial<RouteScreens> = Object.fromEntries(
    ROUTES.map((route) => [
      route.name,
      lazy(async () => {
        const [{ screens }] = await Promise.all([areaLoaders[route.area](), areaNeeds(route.area)]);
        return { default: screens[route.name]! };
      }),
    ]),
  );
  return screens as RouteScreens;
}

/**
 * The wizard's screens need its texts: a login page carried only the login journey's (src/i18n/locale.ts). The
 * back office's need them too (its pages show the wizard's labels), and its state in the store.
 */
export function browserAreaNeeds(store: AppStore): AreaNeeds {
  return (area) => {
    if (area === 'onboarding') return loadMessages(selectLocale(store.getState()));
    if (area !== 'back-office') return undefined;
    return Promise.all([loadMessages(selectLocale(store.getState())), areaLoaders[area]().then(({ features }) => features?.forEach(store.addFeature))]);
  };
}

/** Goes on to `to` in place of the current entry, `before` first; shows nothing meanwhile. */
function Redirect({ to, before }: { to: string; before?: () => void }) {
  const navigate = useNavigate();
  useEffect(() => {
    before?.();
    void navigate(to, { replace: true });
  }, [navigate, to, before]);
  return null;
}

/** A path that only leads elsewhere, with the query carried. */
function CarryTo({ to }: { to: string }) {
  const { search } = useLocation();
  return <Redirect to={carryQuery(to, search)} />;
}

/** Remembers a token page as it is entered (CURRENT_PAGE), so a reload or a new tab resumes it. */
function PageVisited({ name }: { name: RouteName }) {
  const dispatch = useAppDispatch();
  useEffect(() => {
    dispatch(pageVisited(name));
  }, [dispatch, name]);
  return null;
}

/**
 * The frame of every screen behind its route's guard (guards.ts). The guard decides once per entry into a page,
 * before anything of it shows: a page the guard turns away shows nothing, not even the frame, on its way out.
 */
function GuardedShell() {
  const store = useAppStore();
  const dispatch = useAppDispatch();
  const { pathname, search, key } = useLocation();
  // Every path under this layout is one of ROUTES.
  const route = routeByPath(pathname)!;
  // Decided per entry (the location's key), not again when the frame re-renders for another reason.
  const outcome = useMemo(() => guardRoute(store.getState(), route, search), [store, route, search, key]); // eslint-disable-line react-hooks/exhaustive-deps
  const expire = useMemo(() => () => dispatch(sessionExpired()), [dispatch]);
  if ('redirect' in outcome) return <Redirect to={outcome.redirect} before={outcome.expired ? expire : undefined} />;
  // The back office has a frame of its own (its screens': the staff member, their session), not the customers'.
  if (route.access === 'staff') return <Outlet />;
  return (
    <>
      {outcome.remember && <PageVisited name={route.name as RouteName} />}
      <AppShell />
    </>
  );
}

/** A screen's code that does not arrive (a dropped connection, a new release): say so, offer to try again. */
class RouteErrorBoundary extends Component<{ pathname: string; children: ReactNode }, { failed: boolean; pathname: string }> {
  state = { failed: false, pathname: this.props.pathname };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  // Another page is another chance.
  static getDerivedStateFromProps(props: { pathname: string }, state: { failed: boolean; pathname: string }) {
    return props.pathname === state.pathname ? null : { failed: false, pathname: props.pathname };
  }

  render() {
    return this.state.failed ? <RouteLoadError /> : this.props.children;
  }
}

/** Hands the router's navigate to code outside React (the store's listeners), again whenever it changes. */
function Navigator({ onNavigator }: { onNavigator: (navigate: NavigateFunction) => void }) {
  const navigate = useNavigate();
  useEffect(() => {
    onNavigator(navigate);
  }, [navigate, onNavigator]);
  return null;
}

/**
 * The app's routes, inside a router (BrowserRouter in the browser, MemoryRouter in tests): `/` goes to /login and an
 * unknown path to /signUp, both with the query; every route of ROUTES shows in the frame, behind its guard.
 */
export function AppRoutes({ screens, onNavigator }: { screens: RouteScreens; onNavigator?: (navigate: NavigateFunction) => void }) {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary pathname={pathname}>
      {onNavigator && <Navigator onNavigator={onNavigator} />}
      {/* Until the first screen arrives the page stays as it is. */}
      <Suspense fallback={null}>
        <Routes>
        <Route index element={<CarryTo to="/login" />} />
        <Route element={<GuardedShell />}>
          {ROUTES.map(({ name, path }) => {
            const Screen = screens[name];
            return <Route key={name} path={path} element={<Screen />} />;
          })}
        </Route>
        <Route path="*" element={<CarryTo to="/signUp" />} />
        </Routes>
      </Suspense>
    </RouteErrorBoundary>
  );
}
