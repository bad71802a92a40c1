import { titledScreens, type ScreenMap } from '../../routing/titledScreens';
import { ConfirmTelephoneScreen } from './ConfirmTelephoneScreen';
import { LoginScreen } from './LoginScreen';

/** The login area's screens, by route name. */
export const screens: ScreenMap = {
  ...titledScreens('login'),
  login: LoginScreen,
  'login-confirm-telephone': ConfirmTelephoneScreen,
};
