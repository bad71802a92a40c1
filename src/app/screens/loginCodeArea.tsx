import { ConfirmTelephoneScreen } from '../../features/login/ConfirmTelephoneScreen';
import type { ScreenMap } from '../../routing/screenMap';

/** The login's SMS step (one chunk, fetched while the password is checked). */
export const screens: ScreenMap = {
  'login-confirm-telephone': ConfirmTelephoneScreen,
};
