import { RecoverConfirmScreen } from '../../features/recovery/RecoverConfirmScreen';
import { RecoverInitScreen } from '../../features/recovery/RecoverInitScreen';
import { RecoverSuccessScreen } from '../../features/recovery/RecoverSuccessScreen';
import type { ScreenMap } from '../../routing/screenMap';

/** Password recovery's screens (one chunk). */
export const screens: ScreenMap = {
  'recover-password-init': RecoverInitScreen,
  'recover-password-confirm': RecoverConfirmScreen,
  'recover-password-success': RecoverSuccessScreen,
};
