// Who may sign in: customers whose onboarding is complete. The same rule runs as the embedded pool's
// pre-token-generation trigger and as the Amazon Cognito pre-token-generation Lambda (server/lambdas).

/** The user attribute the onboarding keeps up to date: `complete` once the application is approved. */
export const ONBOARDING_STATUS_ATTRIBUTE = 'custom:onboarding_status';
/** The code a refused sign-in carries; the app sends such a customer to /client-verification. */
export const CLIENT_VERIFICATION_CODE = 'ERR-2809';

/** The code of a refused sign-in whose application the bank rejected; the app shows the rejection, not a review. */
export const APPLICATION_REJECTED_CODE = 'ERR-2810';

/** The refusal code for a user with these attributes, or undefined when the user may sign in. */
export function signInRefusal(attributes: Readonly<Record<string, string | undefined>>): string | undefined {
  const status = attributes[ONBOARDING_STATUS_ATTRIBUTE];
  if (status === 'complete') return undefined;
  return status === 'rejected' ? APPLICATION_REJECTED_CODE : CLIENT_VERIFICATION_CODE;
}
