import type { RouteArea } from '../../routing/routes';
import type { ScreenMap } from '../../routing/screenMap';
import type { StoreFeature } from '../../state/storeFeature';

/** An area's code: its screens, and the state they bring into the store (the back office's API). */
export interface ScreenArea {
  screens: ScreenMap;
  features?: StoreFeature[];
}

/**
 * The code of each screen area, one chunk each: /login carries neither the SMS step, nor recovery, nor the
 * onboarding wizard (or its upload code), nor the back office. Asking twice for an area fetches it once.
 */
export const areaLoaders: Record<RouteArea, () => Promise<ScreenArea>> = {
  login: () => import(/* webpackChunkName: "login" */ './loginArea'),
  'login-code': () => import(/* webpackChunkName: "login-code" */ './loginCodeArea'),
  recovery: () => import(/* webpackChunkName: "recovery" */ './recoveryArea'),
  onboarding: () => import(/* webpackChunkName: "onboarding" */ './onboardingArea'),
  'back-office': () => import(/* webpackChunkName: "back-office" */ './backOfficeArea'),
};

/**
 * Starts fetching an area's code ahead of the navigation that needs it (the SMS step while the password is
 * checked), so the next screen shows without a wait. A failure here is left to the navigation, which shows it.
 */
export function prefetchArea(area: RouteArea): void {
  areaLoaders[area]().catch(() => undefined);
}
