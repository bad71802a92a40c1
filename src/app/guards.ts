import { redirect } from 'react-router';
import { pageVisited, sessionExpired } from '../features/session/sessionSlice';
import { carryQuery } from '../routing/query';
import { routeByName, type RouteInfo } from '../routing/routes';
import { isTokenExpired } from '../storage/browserStorage';
import type { AppStore } from './store';

/**
 * The navigation guard of a route, run before the route renders:
 * no token → signUp; an expired token → error.sessionExpired, the session forgotten, signUp;
 * otherwise the page is remembered (CURRENT_PAGE) so a reload or a new tab resumes it.
 * The refusal page of a closed application needs no token: it stays after its session ended.
 */
export function guardRoute(store: AppStore, route: RouteInfo, requestUrl: string): Response | null {
  if (route.access !== 'token') return null;
  if (store.getState().session.closedApplication?.page === route.name) return null;
  const search = new URL(requestUrl).search;
  const token = store.getState().session.authorizationToken;
  if (!token) return redirect(carryQuery('/signUp', search));
  if (isTokenExpired(token)) {
    store.dispatch(sessionExpired());
    return redirect(carryQuery('/signUp', search));
  }
  store.dispatch(pageVisited(route.name));
  return null;
}

/**
 * Entry paths from which the app resumes a remembered onboarding step. Opening a specific page (login,
 * recovery, a wizard step) is taken as meant: the user stays there.
 */
const RESUME_FROM = new Set(['/', '/signup']);

/**
 * On start, a remembered onboarding page that is still a valid route is where the user goes back to,
 * with the current query string; the guard then checks the token as usual.
 */
export function resumePath(currentPage: string | null, location: { pathname: string; search: string }): string | null {
  if (!currentPage) return null;
  const route = routeByName(currentPage);
  if (!route || route.access !== 'token') return null;
  const path = location.pathname.replace(/\/+$/, '').toLowerCase() || '/';
  if (!RESUME_FROM.has(path)) return null;
  return carryQuery(route.path, location.search);
}
