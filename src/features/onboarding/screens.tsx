import { titledScreens, type ScreenMap } from '../../routing/titledScreens';

/** The onboarding wizard's screens, by route name. */
export const screens: ScreenMap = titledScreens('onboarding');
