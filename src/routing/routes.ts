import { OUTCOME_IDS, STEPS } from '../onboarding/flow';

/**
 * Every route of the app with its name and what it needs:
 * - `none`: public, no session needed;
 * - `flow`: part of a flow that carries its own proof instead of the onboarding token (the login SMS step,
 *   the recovery steps): the screen checks its flow state itself, the token guard does not apply;
 * - `token`: an onboarding step, needs a live onboarding session token.
 */
export type RouteAccess = 'none' | 'flow' | 'token';

/**
 * Which bundle a screen ships in (src/app/screens/areas.ts): /login's bundle carries only the login form; the
 * SMS step, recovery and the onboarding wizard come with their own.
 */
export type RouteArea = 'login' | 'login-code' | 'recovery' | 'onboarding';

export interface RouteInfo {
  name: string;
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
] as const satisfies readonly RouteInfo[];

export type RouteName = (typeof ROUTES)[number]['name'];

const byName = new Map<string, RouteInfo>(ROUTES.map((route) => [route.name, route]));
const byPath = new Map<string, RouteInfo>(ROUTES.map((route) => [route.path.toLowerCase(), route]));

export function routeByName(name: string): RouteInfo | undefined {
  return byName.get(name);
}

export function routeByPath(pathname: string): RouteInfo | undefined {
  return byPath.get(pathname.replace(/\/+$/, '').toLowerCase() || '/');
}
