// The Amazon Cognito pre-token-generation trigger: refuses tokens to users whose onboarding is not complete.
// Cognito answers with "PreTokenGeneration failed with error ERR-2809." (ERR-2810 for a rejected application),
// exactly as the embedded pool does. It runs once the password is proven, never before: Cognito invokes its
// pre-authentication trigger at InitiateAuth, before the password (and, with PreventUserExistenceErrors, for
// names that do not exist), so a refusal there would tell anyone who types an ID number how its application
// stands. Bundle with `npm run build:lambdas` (dist-lambdas/preTokenGeneration.js, handler `handler`).
import { signInRefusal } from '../services/onboardingGate';

/** The part of Cognito's pre-token-generation event (version 1) the check reads. */
export interface PreTokenGenerationEvent {
  /** TokenGeneration_Authentication, _RefreshTokens, _NewPasswordChallenge, _AuthenticateDevice or _HostedAuth. */
  triggerSource: string;
  userName: string;
  request: { userAttributes: Record<string, string> };
  response: Record<string, unknown>;
}

export async function handler<E extends PreTokenGenerationEvent>(event: E): Promise<E> {
  // Every issue of tokens, renewals included: a customer rejected since their sign-in gets no new ones.
  const refusal = signInRefusal(event.request.userAttributes ?? {});
  // The message is what the client sees: the code only, never the user's data.
  if (refusal) throw new Error(refusal);
  return event;
}
