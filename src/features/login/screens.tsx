import { titledScreens, type ScreenMap } from '../../routing/titledScreens';
import { LoginScreen } from './LoginScreen';

/** The login area's screens, by route name. */
export const screens: ScreenMap = { ...titledScreens('login'), login: LoginScreen };
