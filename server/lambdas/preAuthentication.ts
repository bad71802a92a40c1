// The Amazon Cognito pre-authentication trigger: refuses sign-in to users whose onboarding is not complete.
// Cognito answers the sign-in with "PreAuthentication failed with error ERR-2809." (ERR-2810 for a rejected
// application), exactly as the embedded pool does. Bundle with `npm run build:lambdas` (dist-lambdas/preAuthentication.js, handler `handler`).
import { signInRefusal } from '../services/onboardingGate';

/** The part of Cognito's PreAuthentication_Authentication event the check reads. */
export interface PreAuthenticationEvent {
  triggerSource: string;
  userName: string;
  request: { userAttributes: Record<string, string> };
  response: Record<string, unknown>;
}

export async function handler<E extends PreAuthenticationEvent>(event: E): Promise<E> {
  const refusal = signInRefusal(event.request.userAttributes ?? {});
  // The message is what the client sees: the code only, never the user's data.
  if (refusal) throw new Error(refusal);
  return event;
}
