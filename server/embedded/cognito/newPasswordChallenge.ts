// NEW_PASSWORD_REQUIRED, as Cognito asks it: a user whose password is temporary (AdminCreateUser's TemporaryPassword,
// AdminSetUserPassword without Permanent) proves it, then chooses their own; the sign-in goes on from there (the
// second factor where the pool has MFA, else the tokens).
import { openNewPasswordSession, sealNewPasswordSession, verifierHash } from './authSession';
import type { PoolContext, PoolUser } from './context';
import { errors } from './errors';
import { requireParameter, type JsonObject } from './input';
import { checkPasswordPolicy, temporaryPasswordExpired } from './passwords';
import { answerOnce, clearingFailures, unlessLockedMeanwhile, userOfStep, USERNAME_MAX, type Answer, type AnswerRecord, type NextStep } from './signInCore';
import { createPasswordVerifier } from './srp';

/** Cognito's longest password. */
const PASSWORD_MAX = 256;
const ATTRIBUTE_PREFIX = 'userAttributes.';

/**
 * The temporary password was right: the Session for choosing a new one. Its parameters are Cognito's: the user's
 * attributes, and the required ones they lack (none: the pool requires none the user has not).
 */
export async function askNewPassword(context: PoolContext, user: PoolUser, now: number, answer: Answer, clearFailures: AnswerRecord | undefined): Promise<JsonObject> {
  await answer(clearFailures);
  const Session = sealNewPasswordSession(context.keys.srpSession, {
    username: user.username,
    userSub: user.sub,
    verifierHash: verifierHash(user.verifier ?? ''),
    expiresAt: now + context.settings.authSessionSeconds * 1000,
  });
  return {
    ChallengeName: 'NEW_PASSWORD_REQUIRED',
    Session,
    ChallengeParameters: { USER_ID_FOR_SRP: user.username, requiredAttributes: '[]', userAttributes: JSON.stringify(user.attributes) },
  };
}

/**
 * The new password: checked against the policy before the Session is used (a refused one is said, and another may
 * be tried with the same Session), then set in the same write as the Session's answer, and only in place of the
 * temporary password the Session proved. The sign-in goes on with `next`.
 */
export async function respondToNewPassword(context: PoolContext, session: string, responses: Record<string, string>, next: NextStep): Promise<JsonObject> {
  const username = requireParameter(responses, 'USERNAME', USERNAME_MAX);
  const password = requireParameter(responses, 'NEW_PASSWORD', PASSWORD_MAX);
  const now = context.now();
  const state = openNewPasswordSession(context.keys.srpSession, session, now);
  if (!state) throw errors.expiredSession();
  // Attributes given with the password are written with it in Cognito, where the app client may write them: the
  // product's clients write none.
  if (Object.keys(responses).some((key) => key.startsWith(ATTRIBUTE_PREFIX))) throw errors.notAuthorized('A client attempted to write unauthorized attribute');
  checkPasswordPolicy(context.settings.passwordPolicy, password);

  const answer = answerOnce(context, session, state.expiresAt);
  const { user, hasFailures, clientFailed } = await userOfStep(context, state, username, now, answer);
  // An administrator set another password since this one was proven.
  if (!user.verifier || verifierHash(user.verifier) !== state.verifierHash) {
    await answer();
    throw errors.expiredSession();
  }
  if (temporaryPasswordExpired(context.settings.passwordPolicy, user, now)) {
    await answer();
    throw errors.temporaryPasswordExpired();
  }

  const temporaryVerifier = user.verifier;
  const chosen = createPasswordVerifier(context.settings.poolName, user.username, password);
  const answerRight = unlessLockedMeanwhile(context, user.username, now, answer);
  // Whatever the next step writes (its Session's answer, the refresh token), the new password is written with it.
  const answerWithPassword: Answer = (record) =>
    answerRight(async (executor) => {
      if (!(await context.repository.users.replaceTemporaryPassword(user.username, temporaryVerifier, chosen, now, executor))) throw errors.expiredSession();
      await record?.(executor);
    });
  const confirmed: PoolUser = { ...user, ...chosen, status: 'CONFIRMED', passwordSetAt: now };
  const clearFailures: AnswerRecord | undefined =
    context.settings.mfa !== 'ON' ? clearingFailures(context, user.username, { name: hasFailures, client: clientFailed }) : undefined;
  return next(confirmed, now, answerWithPassword, clearFailures);
}
