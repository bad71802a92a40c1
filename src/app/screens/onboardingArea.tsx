import { titledScreens, type ScreenMap } from '../../routing/titledScreens';

/** The onboarding wizard's screens (one chunk, with its upload code): each shows its title until built. */
export const screens: ScreenMap = titledScreens('onboarding');
