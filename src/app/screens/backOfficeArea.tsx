import { ApplicationScreen } from '../../features/backOffice/ApplicationScreen';
import { FunnelScreen } from '../../features/backOffice/funnel/FunnelScreen';
import { TemplatesScreen } from '../../features/backOffice/templates/TemplatesScreen';
import { backOfficeFeatures } from '../../features/backOffice/backOfficeApi';
import { QueueScreen } from '../../features/backOffice/QueueScreen';
import { SignInScreen } from '../../features/backOffice/SignInScreen';
import type { ScreenMap } from '../../routing/screenMap';

/** The bank's back office (one chunk): its sign-in, the queue, one application, the funnel, the templates; its API joins the store with it. */
export const screens: ScreenMap = {
  'back-office': SignInScreen,
  'back-office-queue': QueueScreen,
  'back-office-application': ApplicationScreen,
  'back-office-funnel': FunnelScreen,
  'back-office-templates': TemplatesScreen,
};

export const features = backOfficeFeatures;
