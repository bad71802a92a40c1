import { AboutYou, Closing, Code, Contract, Freelance, Identity, Outcome, SignUp } from '../../features/signup/screens';
import { titledScreens, type ScreenMap } from '../../routing/titledScreens';

/**
 * The onboarding wizard's screens (one chunk, with its upload code). The company path's steps show their title
 * until they are built.
 */
export const screens: ScreenMap = {
  ...titledScreens('onboarding'),
  signUp: SignUp.SignUpScreen,
  'reg-code': Code.RegCodeScreen,
  'personal-info': AboutYou.PersonalInfoScreen,
  'contact-phone': AboutYou.ContactPhoneScreen,
  'confirm-telephone': Code.ConfirmTelephoneStepScreen,
  'already-exists': Outcome.AlreadyExistsScreen,
  'forbidden-user': Outcome.ForbiddenUserScreen,
  'register-as': AboutYou.RegisterAsScreen,
  'requirements-freelance': Freelance.RequirementsFreelanceScreen,
  'your-activity': Freelance.YourActivityScreen,
  'fiscal-address': Freelance.FiscalAddressScreen,
  'tax-registration-income': Freelance.TaxRegistrationScreen,
  'tell-us-more-freelance': Closing.TellUsMoreFreelanceScreen,
  'divilo-password': Closing.DiviloPasswordScreen,
  'check-identity': Identity.CheckIdentityScreen,
  'check-identity-waiting': Identity.CheckIdentityWaitingScreen,
  'docu-sign': Contract.DocuSignScreen,
  welcome: Outcome.WelcomeScreen,
};
