// The second factor of a sign-in in a pool whose MFA is ON: after the password (and a new one for a temporary
// password), SOFTWARE_TOKEN_MFA asks for the authenticator app's code, or MFA_SETUP has the user enrol one first
// (AssociateSoftwareToken, VerifySoftwareToken, mfaOps.ts). Its right answer ends the sign-in with the tokens.
import { openMfaSession, sealMfaSession, type MfaSessionState } from './authSession';
import type { PoolContext, PoolUser } from './context';
import { errors } from './errors';
import { requireParameter, type JsonObject } from './input';
import { answerOnce, clearingFailures, issueTokens, recordFailure, unlessLockedMeanwhile, userOfStep, USERNAME_MAX, type Answer, type AnswerRecord } from './signInCore';
import { acceptedStep, openTotpSecret } from './totp';

export const mfaSession = (context: PoolContext, state: Omit<MfaSessionState, 'expiresAt'>, now: number) =>
  sealMfaSession(context.keys.srpSession, { ...state, expiresAt: now + context.settings.authSessionSeconds * 1000 });

/** The password was right (and is not temporary): the sign-in goes on with the code of a verified app, or with enrolling one. */
export async function askSecondFactor(context: PoolContext, user: PoolUser, now: number, answer: Answer): Promise<JsonObject> {
  const token = await context.repository.softwareTokens.find(user.sub);
  const stage = token?.sealedSecret ? 'SOFTWARE_TOKEN_MFA' : 'MFA_SETUP';
  await answer();
  const Session = mfaSession(context, { username: user.username, userSub: user.sub, stage }, now);
  if (stage === 'SOFTWARE_TOKEN_MFA') return { ChallengeName: stage, Session, ChallengeParameters: { USER_ID_FOR_SRP: user.username } };
  return { ChallengeName: stage, Session, ChallengeParameters: { MFAS_CAN_SETUP: '["SOFTWARE_TOKEN_MFA"]', USER_ID_FOR_SRP: user.username } };
}

/**
 * The last step of the sign-in: MFA_SETUP once VerifySoftwareToken accepted the new app's code, SOFTWARE_TOKEN_MFA
 * with the code. A wrong code counts as a wrong password does; a code of a step already used is refused.
 */
export async function respondToMfaChallenge(
  context: PoolContext,
  clientId: string,
  challengeName: 'SOFTWARE_TOKEN_MFA' | 'MFA_SETUP',
  session: string,
  responses: Record<string, string>,
): Promise<JsonObject> {
  const username = requireParameter(responses, 'USERNAME', USERNAME_MAX);
  const now = context.now();
  const state = openMfaSession(context.keys.srpSession, session, now);
  const expectedStage = challengeName === 'MFA_SETUP' ? 'MFA_SETUP_VERIFIED' : 'SOFTWARE_TOKEN_MFA';
  if (!state || state.stage !== expectedStage) throw errors.expiredSession();
  const answer = answerOnce(context, session, state.expiresAt);
  const { user, hasFailures, clientFailed } = await userOfStep(context, state, username, now, answer);
  const clearFailures: AnswerRecord | undefined = clearingFailures(context, user.username, { name: hasFailures, client: clientFailed });
  if (challengeName === 'SOFTWARE_TOKEN_MFA') {
    const code = requireParameter(responses, 'SOFTWARE_TOKEN_MFA_CODE', 16);
    const token = await context.repository.softwareTokens.find(user.sub);
    const secret = token?.sealedSecret ? openTotpSecret(context.keys.softwareTokens, user.sub, token.sealedSecret) : undefined;
    const step = secret === undefined ? undefined : acceptedStep(secret, code, now);
    if (step === undefined) {
      await answer(recordFailure(context, user.username, now));
      throw errors.codeMismatch();
    }
    if (!(await context.repository.softwareTokens.useStep(user.sub, step, now))) {
      await answer();
      throw errors.codeUsed();
    }
  }
  const answerRight = unlessLockedMeanwhile(context, user.username, now, answer);
  return { ChallengeParameters: {}, AuthenticationResult: await issueTokens(context, user, clientId, now, answerRight, clearFailures) };
}
