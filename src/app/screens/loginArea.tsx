import { ClientVerificationScreen } from '../../features/login/ClientVerificationScreen';
import { ConfirmTelephoneScreen } from '../../features/login/ConfirmTelephoneScreen';
import { LoginScreen } from '../../features/login/LoginScreen';
import { LogoutScreen } from '../../features/login/LogoutScreen';
import { RecoverConfirmScreen } from '../../features/recovery/RecoverConfirmScreen';
import { RecoverInitScreen } from '../../features/recovery/RecoverInitScreen';
import { RecoverSuccessScreen } from '../../features/recovery/RecoverSuccessScreen';
import type { ScreenMap } from '../../routing/screenMap';

/** The login area's screens (one chunk): login, the SMS step, recovery, sign-out. */
export const screens: ScreenMap = {
  login: LoginScreen,
  logout: LogoutScreen,
  'login-confirm-telephone': ConfirmTelephoneScreen,
  'client-verification': ClientVerificationScreen,
  'recover-password-init': RecoverInitScreen,
  'recover-password-confirm': RecoverConfirmScreen,
  'recover-password-success': RecoverSuccessScreen,
};
