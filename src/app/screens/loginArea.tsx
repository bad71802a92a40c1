import { ApplicationRejectedScreen } from '../../features/login/ApplicationRejectedScreen';
import { ClientVerificationScreen } from '../../features/login/ClientVerificationScreen';
import { LoginScreen } from '../../features/login/LoginScreen';
import { LogoutScreen } from '../../features/login/LogoutScreen';
import type { ScreenMap } from '../../routing/screenMap';

/** The login area's screens (one chunk): the login form, sign-out, the review notice and the rejection. */
export const screens: ScreenMap = {
  login: LoginScreen,
  logout: LogoutScreen,
  'client-verification': ClientVerificationScreen,
  'application-rejected': ApplicationRejectedScreen,
};
