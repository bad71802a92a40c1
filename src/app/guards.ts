import { carryQuery } from '../routing/query';
import { routeByName, type RouteInfo } from '../routing/routes';
import { isTokenExpired } from '../storage/browserStorage';
import type { RootState } from './store';

/** Where a route's guard sends the user instead, and whether the session expired on the way; or that the page shows. */
type GuardOutcome = { redirect: string; expired: boolean } | { remember: boolean };

/**
 * The navigation guard of a route, decided before the route renders (router.tsx acts on it):
 * no token → signUp; an expired token → error.sessionExpired, the session forgotten, signUp;
 * otherwise the page is remembered (CURRENT_PAGE) so a reload or a new tab resumes it.
 * The refusal page of a closed application needs no token: it stays after its session ended. Only the
 * onboarding steps are guarded here: the back office's pages check the staff session themselves.
 */
export function guardRoute(state: RootState, route: RouteInfo, search: string): GuardOutcome {
  if (route.access !== 'token') return { remember: false };
  if (state.session.closedApplication?.page === route.name) return { remember: false };
  const token = state.session.authorizationToken;
  if (!token) return { redirect: carryQuery('/signUp', search), expired: false };
  if (isTokenExpired(token)) return { redirect: carryQuery('/signUp', search), expired: true };
  return { remember: true };
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
