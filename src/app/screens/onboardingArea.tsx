import { AboutYou, Closing, Code, Company, Contract, Freelance, Identity, Outcome, Owners, SignUp } from '../../features/signup/screens';
import type { ComponentType } from 'react';
import type { OutcomeId, StepId } from '../../onboarding/flow';
import { withSavedApplication } from '../../features/signup/withSavedApplication';

/**
 * The onboarding wizard's screens (one chunk, with its upload code). The steps of an application read it from the
 * server on a page load (withSavedApplication); the sign-up, its code and the ends of the journey have none to
 * read. Every step and outcome of the flow has its screen here, or this does not compile.
 */
export const screens = {
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
  'requirements-company': withSavedApplication(Company.RequirementsCompanyScreen),
  'about-company': withSavedApplication(Company.AboutCompanyScreen),
  'company-error': Outcome.CompanyErrorScreen,
  'about-company-info': withSavedApplication(Company.AboutCompanyInfoScreen),
  'about-company-address': withSavedApplication(Company.AboutCompanyAddressScreen),
  'articles-of-association': withSavedApplication(Company.ArticlesOfAssociationScreen),
  'corporate-tax': withSavedApplication(Company.CorporateTaxScreen),
  'about-company-numbers': withSavedApplication(Company.AboutCompanyNumbersScreen),
  'royal-owners': withSavedApplication(Owners.RoyalOwnersScreen),
  'tell-us-more-company': withSavedApplication(Closing.TellUsMoreCompanyScreen),
  'divilo-password': withSavedApplication(Closing.DiviloPasswordScreen),
  'check-identity': withSavedApplication(Identity.CheckIdentityScreen),
  'check-identity-waiting': withSavedApplication(Identity.CheckIdentityWaitingScreen),
  'docu-sign': withSavedApplication(Contract.DocuSignScreen),
  welcome: Outcome.WelcomeScreen,
} satisfies Record<StepId | OutcomeId, ComponentType>;
