import { titledScreens, type ScreenMap } from '../../routing/titledScreens';

/** The login area's screens, by route name. */
export const screens: ScreenMap = titledScreens('login');
