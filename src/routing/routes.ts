import { OUTCOME_IDS, STEPS } from '../onboarding/flow';

/**
 * Every route of the app with its name and what it needs:
 * - `none`: public, no session needed;
 * - `flow`: part of a flow that carries its own proof instead of the onboarding token (the login SMS step,
 *   the recovery steps): the screen checks its flow state itself, the token guard does not apply;
 * - `token`: an onboarding step, needs a live onboarding session token;
 * - `staff`: a page of the bank's back office: the onboarding token plays no part, the page checks the staff
 *   member's own session (GET /staff-api/session) and sends them to its sign-in without one.
 */
export type RouteAccess = 'none' | 'flow' | 'token' | 'staff';

/**
 * Which bundle a screen ships in (src/app/screens/areas.ts): /login's bundle carries only the login form; the
 * SMS step, recovery, the onboarding wizard and the bank's back office come with their own.
 */
export type RouteArea = 'login' | 'login-code' | 'recovery' | 'onboarding' | 'back-office';

export interface RouteInfo {
  name: string;
  /** A fixed path, or one with named parts (`/back-office/applications/:id`). */
  path: string;
  access: RouteAccess;
  area: RouteArea;
}

const token = <N extends string>(name: N) => ({ name, path: `/${name}`, access: 'token', area: 'onboarding' }) as const;

export const ROUTES = [
  { name: 'signUp', path: '/signUp', access: 'none', area: 'onboarding' },
  { name: 'login', path: '/login', access: 'none', area: 'login' },
  { name: 'logout', path: '/logout', access: 'none', area: 'login' },
  { name: 'recover-password-init', path: '/recover-password/init', access: 'none', area: 'recovery' },
  { name: 'recover-password-confirm', path: '/recover-password/confirm', access: 'flow', area: 'recovery' },
  { name: 'recover-password-success', path: '/recover-password/success', access: 'flow', area: 'recovery' },
  { name: 'login-confirm-telephone', path: '/login/confirm-telephone', access: 'flow', area: 'login-code' },
  { name: 'client-verification', path: '/client-verification', access: 'none', area: 'login' },
  { name: 'application-rejected', path: '/application-rejected', access: 'none', area: 'login' },
  // The onboarding wizard after /signUp: its steps, in the flow's order, and the pages its rules lead to.
  ...STEPS.filter((step) => step.id !== 'signUp').map((step) => token(step.id)),
  ...OUTCOME_IDS.map(token),
  // The bank's back office: its sign-in, the queue and one application.
  { name: 'back-office', path: '/back-office', access: 'staff', area: 'back-office' },
  { name: 'back-office-queue', path: '/back-office/queue', access: 'staff', area: 'back-office' },
  { name: 'back-office-application', path: '/back-office/applications/:id', access: 'staff', area: 'back-office' },
  { name: 'back-office-funnel', path: '/back-office/funnel', access: 'staff', area: 'back-office' },
  { name: 'back-office-templates', path: '/back-office/templates', access: 'staff', area: 'back-office' },
] as const satisfies readonly RouteInfo[];

export type RouteName = (typeof ROUTES)[number]['name'];

const byName = new Map<string, RouteInfo>(ROUTES.map((route) => [route.name, route]));
const byPath = new Map<string, RouteInfo>(ROUTES.filter((route) => !route.path.includes(':')).map((route) => [route.path.toLowerCase(), route]));
/** The paths with named parts, each as a pattern a part matches as one segment. */
const byPattern = ROUTES.filter((route) => route.path.includes(':')).map((route) => ({
  route: route as RouteInfo,
  pattern: new RegExp(`^${route.path.toLowerCase().replace(/:[a-z]+/gi, '[^/]+')}$`),
}));

export function routeByName(name: string): RouteInfo | undefined {
  return byName.get(name);
}

export function routeByPath(pathname: string): RouteInfo | undefined {
  const path = pathname.replace(/\/+$/, '').toLowerCase() || '/';
  return byPath.get(path) ?? byPattern.find(({ pattern }) => pattern.test(path))?.route;
}

/** The path of a route with named parts, each filled in (encoded). */
export function pathOf(route: RouteName, parts: Record<string, string> = {}): string {
  return byName.get(route)!.path.replace(/:([a-z]+)/gi, (_whole, name: string) => encodeURIComponent(parts[name] ?? ''));
}
