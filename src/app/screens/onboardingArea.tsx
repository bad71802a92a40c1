import { AboutYou, Closing, Code, Company, Contract, Freelance, Identity, Outcome, Owners, SignUp } from '../../features/signup/screens';
import type { ComponentType } from 'react';
import type { OutcomeId, StepId } from '../../onboarding/flow';
import { withApplication } from '../../features/signup/savedApplication';

/**
 * The onboarding wizard's screens (one chunk, with its upload code). The steps of an application read it from the
 * server on a page load (withApplication); the sign-up, its code and the ends of the journey have none to
 * read. Every step and outcome of the flow has its screen here, or this does not compile.
 */
export const screens = {
  signUp: SignUp.SignUpScreen,
  'reg-code': Code.RegCodeScreen,
  'personal-info': withApplication(AboutYou.PersonalInfoScreen),
  'contact-phone': withApplication(AboutYou.ContactPhoneScreen),
  'confirm-telephone': withApplication(Code.ConfirmTelephoneStepScreen),
  'already-exists': Outcome.AlreadyExistsScreen,
  'forbidden-user': Outcome.ForbiddenUserScreen,
  'register-as': withApplication(AboutYou.RegisterAsScreen),
  'requirements-freelance': withApplication(Freelance.RequirementsFreelanceScreen),
  'your-activity': withApplication(Freelance.YourActivityScreen),
  'fiscal-address': withApplication(Freelance.FiscalAddressScreen),
  'tax-registration-income': withApplication(Freelance.TaxRegistrationScreen),
  'tell-us-more-freelance': withApplication(Closing.TellUsMoreFreelanceScreen),
  'requirements-company': withApplication(Company.RequirementsCompanyScreen),
  'about-company': withApplication(Company.AboutCompanyScreen),
  'company-error': Outcome.CompanyErrorScreen,
  'about-company-info': withApplication(Company.AboutCompanyInfoScreen),
  'about-company-address': withApplication(Company.AboutCompanyAddressScreen),
  'articles-of-association': withApplication(Company.ArticlesOfAssociationScreen),
  'corporate-tax': withApplication(Company.CorporateTaxScreen),
  'about-company-numbers': withApplication(Company.AboutCompanyNumbersScreen),
  'royal-owners': withApplication(Owners.RoyalOwnersScreen),
  'tell-us-more-company': withApplication(Closing.TellUsMoreCompanyScreen),
  'divilo-password': withApplication(Closing.DiviloPasswordScreen),
  'check-identity': withApplication(Identity.CheckIdentityScreen),
  'check-identity-waiting': withApplication(Identity.CheckIdentityWaitingScreen),
  'docu-sign': withApplication(Contract.DocuSignScreen),
  welcome: Outcome.WelcomeScreen,
} satisfies Record<StepId | OutcomeId, ComponentType>;
