import { AboutYou, Closing, Code, Contract, Freelance, Identity, Outcome, SignUp } from '../../features/signup/screens';
import { titledScreens, type ScreenMap } from '../../routing/titledScreens';
import { withSavedApplication } from '../../features/signup/withSavedApplication';

/**
 * The onboarding wizard's screens (one chunk, with its upload code). The steps of an application read it from the
 * server on a page load (withSavedApplication); the sign-up, its code and the ends of the journey have none to
 * read. The company path's steps show their title until they are built.
 */
export const screens: ScreenMap = {
  ...titledScreens('onboarding'),
  signUp: SignUp.SignUpScreen,
  'reg-code': Code.RegCodeScreen,
  'personal-info': withSavedApplication(AboutYou.PersonalInfoScreen),
  'contact-phone': withSavedApplication(AboutYou.ContactPhoneScreen),
  'confirm-telephone': withSavedApplication(Code.ConfirmTelephoneStepScreen),
  'already-exists': Outcome.AlreadyExistsScreen,
  'forbidden-user': Outcome.ForbiddenUserScreen,
  'register-as': withSavedApplication(AboutYou.RegisterAsScreen),
  'requirements-freelance': withSavedApplication(Freelance.RequirementsFreelanceScreen),
  'your-activity': withSavedApplication(Freelance.YourActivityScreen),
  'fiscal-address': withSavedApplication(Freelance.FiscalAddressScreen),
  'tax-registration-income': withSavedApplication(Freelance.TaxRegistrationScreen),
  'tell-us-more-freelance': withSavedApplication(Closing.TellUsMoreFreelanceScreen),
  'divilo-password': withSavedApplication(Closing.DiviloPasswordScreen),
  'check-identity': withSavedApplication(Identity.CheckIdentityScreen),
  'check-identity-waiting': withSavedApplication(Identity.CheckIdentityWaitingScreen),
  'docu-sign': withSavedApplication(Contract.DocuSignScreen),
  welcome: Outcome.WelcomeScreen,
};
