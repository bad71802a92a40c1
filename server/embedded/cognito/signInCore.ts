// What every step of a sign-in shares, below the challenges that use it (the password in authFlows.ts,
// newPasswordChallenge.ts, mfaChallenges.ts): each Session answered once, the lockout, the pre-token-generation
// hook and the tokens. A challenge module asks and answers its own step and hands the user on; none calls another.
import { createHmac, randomUUID } from 'node:crypto';
import { clientNetwork } from '../../services/messaging/budget';
import { authSessionId } from './authSession';
import type { PoolContext, PoolUser } from './context';
import { errors, type AwsError } from './errors';
import type { JsonObject } from './input';
import { groupsOf } from './poolUsers';
import type { IdentityExecutor } from './repository';
import { createRefreshToken } from './tokens';

export const CLIENT_ID = { max: 128, pattern: /^[\w+]+$/ };
export const USERNAME_MAX = 128;

export function checkClient(context: PoolContext, clientId: string): void {
  if (clientId !== context.settings.clientId) throw errors.resourceNotFound(`User pool client ${clientId} does not exist.`);
}

/** What answering a Session writes besides marking it answered, in the same transaction. */
export type AnswerRecord = (executor: IdentityExecutor) => Promise<void>;
export type Answer = (record?: AnswerRecord) => Promise<void>;

/**
 * What the pool asks once a step is passed (a new password, the second factor) or the tokens: each step ends by
 * calling it with the user, and the answer that writes what the step proved, once.
 */
export type NextStep = (user: PoolUser, now: number, answer: Answer, clearFailures: AnswerRecord | undefined) => Promise<JsonObject>;

/** Answers a Session, once, whatever the answer: marking it so is part of the one write each answer makes. */
export function answerOnce(context: PoolContext, session: string, expiresAt: number): Answer {
  return async (record) => {
    if (!(await context.repository.sessions.answer(authSessionId(session), expiresAt, record))) throw errors.expiredSession();
  };
}

/** The key a client's failures count under: an HMAC of its address (its /64 for IPv6, which one host holds whole). */
export function clientOf(context: PoolContext, address: string): string {
  return createHmac('sha256', context.keys.srpSession).update(`client:${clientNetwork(address)}`).digest('hex');
}

/**
 * One more failure of the name, counted towards the lockout as a wrong password is: at the name (every client
 * together), and for the client of the call at the name and at every name.
 */
export function recordFailure(context: PoolContext, username: string, now: number): AnswerRecord {
  const { maxFailures, lockSeconds, nameMaxFailures, clientMaxFailures } = context.settings.lockout;
  const { client } = context;
  return async (executor) => {
    await context.repository.failures.record(username, now, client === undefined ? maxFailures : nameMaxFailures, lockSeconds, executor);
    if (client !== undefined) await context.repository.clientFailures.record(username, client, now, { perName: maxFailures, perClient: clientMaxFailures, lockSeconds }, executor);
  };
}

/**
 * Whether the name refuses the call's client now, and whether that client failed at it: the client is locked out
 * of the name or of every name, or the name is locked (too many failures from every client together) and this
 * client is one that failed at it. A client that never failed at the name is judged even then: the right answer
 * from the member's own device goes through whatever strangers did.
 */
export async function standingOf(
  context: PoolContext,
  username: string,
  nameLocked: boolean,
  now: number,
  executor?: IdentityExecutor,
): Promise<{ refused: boolean; clientFailed: boolean }> {
  if (context.client === undefined) return { refused: nameLocked, clientFailed: false };
  const { locked, hasFailed } = await context.repository.clientFailures.standing(username, context.client, now, executor);
  return { refused: locked || (nameLocked && hasFailed), clientFailed: hasFailed };
}

/** What a right answer clears: the name's count, and the client's count at the name (never its count at every name). */
export function clearingFailures(context: PoolContext, username: string, failed: { name: boolean; client: boolean }): AnswerRecord | undefined {
  const { client } = context;
  if (!failed.name && !(failed.client && client !== undefined)) return undefined;
  return async (executor) => {
    if (failed.name) await context.repository.failures.clear(username, executor);
    if (failed.client && client !== undefined) await context.repository.clientFailures.clear(username, client, executor);
  };
}

/** Thrown within a right answer's transaction when the name was locked after the answer was judged. */
class LockedMeanwhile extends Error {}

/**
 * The answer to a right password or code, written only if the name is not locked when it commits. Guesses sent
 * at the same moment are all judged against the lock state read before any of them was counted: without this, a
 * right one among them would sign in past the lockout. Refused, it counts as a failure, as a locked name's
 * answer always does, and gets the same error.
 */
export function unlessLockedMeanwhile(context: PoolContext, username: string, now: number, answer: Answer): Answer {
  return async (record) => {
    try {
      await answer(async (executor) => {
        const nameLocked = await context.repository.failures.isLocked(username, now, executor);
        if ((await standingOf(context, username, nameLocked, now, executor)).refused) throw new LockedMeanwhile();
        await record?.(executor);
      });
    } catch (error) {
      if (!(error instanceof LockedMeanwhile)) throw error;
      await answer(recordFailure(context, username, now));
      throw errors.attemptsExceeded();
    }
  };
}

/**
 * The user a later step's Session was made for, as they stand now: refused (the Session used up) when the name
 * answered is not the Session's, when they are gone or locked, or disabled since.
 */
export async function userOfStep(
  context: PoolContext,
  state: { username: string; userSub: string },
  username: string,
  now: number,
  answer: Answer,
): Promise<{ user: PoolUser; hasFailures: boolean; clientFailed: boolean }> {
  const found = await context.repository.users.findForSignIn(state.username, now);
  const user = found && found.user.sub === state.userSub ? found.user : undefined;
  if (username !== state.username || !found || !user) {
    await answer();
    throw errors.notAuthorized();
  }
  const standing = await standingOf(context, user.username, found.locked, now);
  if (standing.refused) {
    await answer();
    throw errors.attemptsExceeded();
  }
  if (!user.enabled) {
    await answer();
    throw errors.notAuthorized('User is disabled.');
  }
  return { user, hasFailures: found.hasFailures, clientFailed: standing.clientFailed };
}

/**
 * The pool's pre-token-generation hook, as Cognito runs its trigger: whenever tokens are about to be issued (a
 * sign-in once every factor is proven, a renewal), never before the password. Its refusal, if any.
 */
export async function tokenRefusal(context: PoolContext, user: PoolUser): Promise<AwsError | undefined> {
  const hook = context.preTokenGeneration();
  const verdict = hook && (await hook({ username: user.username, sub: user.sub, attributes: { ...user.attributes } }));
  return verdict && typeof verdict.code === 'string' ? errors.preTokenGeneration(verdict.code) : undefined;
}

/** The last step of every sign-in: the hook's verdict, then a refresh token recorded with the answer, and the tokens. */
export async function issueTokens(
  context: PoolContext,
  user: PoolUser,
  clientId: string,
  now: number,
  answer: Answer,
  clearFailures: AnswerRecord | undefined,
): Promise<JsonObject> {
  // Refused here, the answer is still recorded (the Session is used, the count of wrong answers cleared).
  let refusal: AwsError | undefined;
  try {
    refusal = await tokenRefusal(context, user);
  } catch (error) {
    await answer(clearFailures);
    throw error;
  }
  if (refusal) {
    await answer(clearFailures);
    throw refusal;
  }
  const originJti = randomUUID();
  const authTime = Math.floor(now / 1000);
  const refreshToken = createRefreshToken();
  await answer(async (executor) => {
    await clearFailures?.(executor);
    await context.repository.refreshTokens.insert(
      {
        tokenHash: refreshToken.hash,
        userSub: user.sub,
        clientId,
        originJti,
        authTime,
        expiresAt: now + context.settings.lifetimes.refreshTokenSeconds * 1000,
        revoked: false,
      },
      now,
      executor,
    );
  });
  const issued = await context.tokens.issue({ ...user, groups: await groupsOf(context, user.sub) }, { authTime, originJti });
  return {
    AccessToken: issued.accessToken,
    ExpiresIn: issued.expiresIn,
    TokenType: 'Bearer',
    RefreshToken: refreshToken.token,
    IdToken: issued.idToken,
  };
}
