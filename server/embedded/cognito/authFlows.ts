// The operations the browser's amazon-cognito-identity-js sends: SRP sign-in, refresh, sign-out, revoke.
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { authSessionId, openAuthSession, sealAuthSession, verifierHash } from './authSession';
import type { PoolContext, PoolUser } from './context';
import { errors, type AwsError } from './errors';
import { groupsOf } from './groupOps';
import { requireParameter, requireString, stringMap, type JsonObject } from './input';
import { askSecondFactor, mfaSettingsOf, respondToMfaChallenge } from './mfaChallenges';
import type { IdentityExecutor } from './repository';
import { N, isValidClientPublic, parseSrpTimestamp, passwordClaimSignature, serverSessionKey, signaturesMatch } from './srp';
import { createRefreshToken, hashRefreshToken } from './tokens';

const CLIENT_ID = { max: 128, pattern: /^[\w+]+$/ };
export const USERNAME_MAX = 128;
/** 3072 bits are 768 hex digits; a little slack for leading zeros. */
const SRP_A = /^[0-9a-fA-F]{1,800}$/;
const AUTH_FLOWS = [
  'USER_SRP_AUTH', 'REFRESH_TOKEN_AUTH', 'REFRESH_TOKEN', 'CUSTOM_AUTH', 'ADMIN_NO_SRP_AUTH', 'USER_PASSWORD_AUTH',
  'ADMIN_USER_PASSWORD_AUTH', 'USER_AUTH',
];

function checkClient(context: PoolContext, clientId: string): void {
  if (clientId !== context.settings.clientId) throw errors.resourceNotFound(`User pool client ${clientId} does not exist.`);
}

/**
 * The salt and verifier an unknown user would have: derived from the username with a server key, so asking twice
 * gives the same SALT, exactly as for a real user, and nothing tells the two apart.
 */
function fakeCredentials(context: PoolContext, username: string): { salt: string; verifier: bigint; verifierHex: string } {
  const derive = (label: string) => createHmac('sha256', context.keys.fakeUser).update(`${label}\0${username}`, 'utf8').digest();
  const salt = derive('salt').subarray(0, 16).toString('hex');
  const blocks = Array.from({ length: 12 }, (_, i) => derive(`verifier-${i}`));
  const reduced = BigInt(`0x${Buffer.concat(blocks).toString('hex')}`) % N;
  const verifier = reduced < 2n ? 2n : reduced;
  return { salt, verifier, verifierHex: verifier.toString(16) };
}

function credentialsOf(context: PoolContext, username: string, user: PoolUser | undefined) {
  if (user?.salt && user.verifier) return { salt: user.salt, verifier: BigInt(`0x${user.verifier}`), verifierHex: user.verifier };
  return fakeCredentials(context, username);
}

export async function initiateAuth(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const authFlow = requireString(body, 'AuthFlow', { max: 64 });
  if (!AUTH_FLOWS.includes(authFlow)) {
    throw errors.invalidParameter(
      `1 validation error detected: Value '${authFlow.slice(0, 64)}' at 'authFlow' failed to satisfy constraint: ` +
        `Member must satisfy enum value set: [${AUTH_FLOWS.join(', ')}]`,
    );
  }
  const clientId = requireString(body, 'ClientId', CLIENT_ID);
  const parameters = stringMap(body, 'AuthParameters');
  checkClient(context, clientId);
  if (authFlow === 'USER_SRP_AUTH') return startSrp(context, parameters);
  if (authFlow === 'REFRESH_TOKEN_AUTH' || authFlow === 'REFRESH_TOKEN') return refresh(context, clientId, parameters);
  throw errors.invalidParameter(`${authFlow} flow not enabled for this client`);
}

/**
 * All of the server's SRP maths happens here, for known and unknown names alike: B, and the key K the client's
 * proof will be checked against. The Session carries K sealed, so nothing is written until it is answered.
 */
async function startSrp(context: PoolContext, parameters: Record<string, string>): Promise<JsonObject> {
  const username = requireParameter(parameters, 'USERNAME', USERNAME_MAX);
  const srpA = requireParameter(parameters, 'SRP_A', 800);
  if (!SRP_A.test(srpA)) throw errors.invalidParameter('SRP_A is not a valid hexadecimal number.');
  const A = BigInt(`0x${srpA}`);
  if (!isValidClientPublic(A) || A >= N) throw errors.invalidParameter('SRP_A is not a valid public value.');

  const now = context.now();
  const user = await context.repository.users.findByUsername(username);
  const { salt, verifier, verifierHex } = credentialsOf(context, username, user);
  const { B, key } = serverSessionKey(A, verifier);
  const secretBlock = randomBytes(64).toString('base64');
  const session = sealAuthSession(context.keys.srpSession, {
    username,
    userSub: user?.sub ?? null,
    key,
    secretBlock,
    verifierHash: verifierHash(verifierHex),
    expiresAt: now + context.settings.authSessionSeconds * 1000,
  });
  return {
    ChallengeName: 'PASSWORD_VERIFIER',
    Session: session,
    ChallengeParameters: { SALT: salt, SRP_B: B.toString(16), SECRET_BLOCK: secretBlock, USER_ID_FOR_SRP: username, USERNAME: username },
  };
}

/** What answering a Session writes besides marking it answered, in the same transaction. */
export type AnswerRecord = (executor: IdentityExecutor) => Promise<void>;
export type Answer = (record?: AnswerRecord) => Promise<void>;

/** Answers a Session, once, whatever the answer: marking it so is part of the one write each answer makes. */
export function answerOnce(context: PoolContext, session: string, expiresAt: number): Answer {
  return async (record) => {
    if (!(await context.repository.sessions.answer(authSessionId(session), expiresAt, record))) throw errors.expiredSession();
  };
}

/** One more failure of the name, counted towards the lockout as a wrong password is. */
export function recordFailure(context: PoolContext, username: string, now: number): AnswerRecord {
  const { maxFailures, lockSeconds } = context.settings.lockout;
  return (executor) => context.repository.failures.record(username, now, maxFailures, lockSeconds, executor).then(() => undefined);
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
        if (await context.repository.failures.isLocked(username, now, executor)) throw new LockedMeanwhile();
        await record?.(executor);
      });
    } catch (error) {
      if (!(error instanceof LockedMeanwhile)) throw error;
      await answer(recordFailure(context, username, now));
      throw errors.notAuthorized();
    }
  };
}

export async function respondToAuthChallenge(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const clientId = requireString(body, 'ClientId', CLIENT_ID);
  const challengeName = requireString(body, 'ChallengeName', { max: 64 });
  const session = requireString(body, 'Session', { min: 20, max: 2048 });
  const responses = stringMap(body, 'ChallengeResponses');
  checkClient(context, clientId);
  if ((challengeName === 'SOFTWARE_TOKEN_MFA' || challengeName === 'MFA_SETUP') && context.settings.mfa === 'ON') {
    return respondToMfaChallenge(context, clientId, challengeName, session, responses);
  }
  if (challengeName !== 'PASSWORD_VERIFIER') {
    throw errors.invalidParameter(`Challenge ${challengeName.slice(0, 64)} is not supported by this user pool.`);
  }

  const username = requireParameter(responses, 'USERNAME', USERNAME_MAX);
  const secretBlock = requireParameter(responses, 'PASSWORD_CLAIM_SECRET_BLOCK', 4096);
  const timestamp = requireParameter(responses, 'TIMESTAMP', 64);
  const signature = requireParameter(responses, 'PASSWORD_CLAIM_SIGNATURE', 128);
  const now = context.now();
  const claimedTime = parseSrpTimestamp(timestamp);
  if (claimedTime === undefined) throw errors.invalidParameter('TIMESTAMP is not in the format "EEE MMM d HH:mm:ss UTC yyyy".');
  // A wrong device clock is not a wrong password: it is reported as such and not counted as a failure.
  if (Math.abs(claimedTime - now) > context.settings.maxClockSkewSeconds * 1000) {
    throw errors.invalidParameter('TIMESTAMP is too far from the server time; check the device clock.');
  }

  const bound = openAuthSession(context.keys.srpSession, session, now);
  if (!bound) throw errors.expiredSession();
  const answer = answerOnce(context, session, bound.expiresAt);
  const sameBlock = Buffer.from(secretBlock, 'utf8');
  const boundBlock = Buffer.from(bound.secretBlock, 'utf8');
  if (username !== bound.username || sameBlock.length !== boundBlock.length || !timingSafeEqual(sameBlock, boundBlock)) {
    await answer();
    throw errors.notAuthorized();
  }

  // Looked up by name for known and unknown users alike, so both cost the same query and the same checks.
  const found = await context.repository.users.findForSignIn(bound.username, now);
  const user = found && found.user.sub === bound.userSub ? found.user : undefined;
  const locked = found?.locked ?? false;
  const sameVerifier = verifierHash(user?.verifier ?? '') === bound.verifierHash;
  const expected = passwordClaimSignature(bound.key, context.settings.poolName, bound.username, Buffer.from(bound.secretBlock, 'base64'), timestamp);
  const passwordMatches = signaturesMatch(expected, signature) && sameVerifier;

  if (locked || !user || !user.salt || !user.verifier || !passwordMatches) {
    // Recorded for unknown and locked names too: the same write every time, so the answer time tells nothing.
    await answer(recordFailure(context, bound.username, now));
    throw errors.notAuthorized();
  }
  const answerRight = unlessLockedMeanwhile(context, user.username, now, answer);
  // With a second factor, only its right code clears the count: else the password would reset the wrong codes.
  const clearFailures: AnswerRecord | undefined =
    found?.hasFailures && context.settings.mfa !== 'ON' ? (executor) => context.repository.failures.clear(user.username, executor) : undefined;

  // Only someone who knows the password learns that the account is disabled (or refused: signIn's hook).
  const refusal = refusalOf(user);
  if (refusal) {
    await answerRight(clearFailures);
    throw refusal;
  }
  if (context.settings.mfa === 'ON') return askSecondFactor(context, user, now, answerRight);
  return { ChallengeParameters: {}, AuthenticationResult: await signIn(context, user, clientId, now, answerRight, clearFailures) };
}

/** Why a user who proved the password may not sign in, if anything: disabled, or a password to reset. */
function refusalOf(user: PoolUser): AwsError | undefined {
  if (!user.enabled) return errors.notAuthorized('User is disabled.');
  if (user.status !== 'CONFIRMED') return errors.passwordResetRequired();
  return undefined;
}

/**
 * The pool's pre-token-generation hook, as Cognito runs its trigger: whenever tokens are about to be issued (a
 * sign-in once every factor is proven, a renewal), never before the password. Its refusal, if any.
 */
async function tokenRefusal(context: PoolContext, user: PoolUser): Promise<AwsError | undefined> {
  const hook = context.preTokenGeneration();
  const verdict = hook && (await hook({ username: user.username, sub: user.sub, attributes: { ...user.attributes } }));
  return verdict && typeof verdict.code === 'string' ? errors.preTokenGeneration(verdict.code) : undefined;
}

export async function signIn(
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

async function refresh(context: PoolContext, clientId: string, parameters: Record<string, string>): Promise<JsonObject> {
  const token = requireParameter(parameters, 'REFRESH_TOKEN', 4096);
  const now = context.now();
  const record = await context.repository.refreshTokens.find(hashRefreshToken(token));
  if (!record || record.clientId !== clientId) throw errors.notAuthorized('Invalid Refresh Token');
  if (record.revoked) throw errors.notAuthorized('Refresh Token has been revoked');
  if (record.expiresAt <= now) throw errors.notAuthorized('Refresh Token has expired');
  const user = await context.repository.users.findBySub(record.userSub);
  if (!user) throw errors.notAuthorized('Invalid Refresh Token');
  if (!user.enabled) throw errors.notAuthorized('User is disabled.');
  const refusal = await tokenRefusal(context, user);
  if (refusal) throw refusal;
  const groups = await groupsOf(context, user.sub);
  const issued = await context.tokens.issue({ ...user, groups }, { authTime: record.authTime, originJti: record.originJti });
  return {
    ChallengeParameters: {},
    AuthenticationResult: { AccessToken: issued.accessToken, ExpiresIn: issued.expiresIn, TokenType: 'Bearer', IdToken: issued.idToken },
  };
}

/** The user of a live access token, or the error Cognito gives for a bad or revoked one. */
export async function userOfAccessToken(context: PoolContext, accessToken: string): Promise<PoolUser> {
  const claims = await context.tokens.verifyAccessToken(accessToken);
  if (!claims) throw errors.notAuthorized('Invalid Access Token');
  if (!(await context.repository.refreshTokens.isOriginActive(claims.origin_jti, context.now()))) {
    throw errors.notAuthorized('Access Token has been revoked');
  }
  const user = await context.repository.users.findBySub(claims.sub);
  if (!user) throw errors.userNotFound();
  return user;
}

/** GetUser: the signed-in user's name and attributes, `sub` first, for the holder of a live access token. */
export async function getUser(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const accessToken = requireString(body, 'AccessToken', { max: 8192, pattern: /^[A-Za-z0-9\-_=.]+$/ });
  const user = await userOfAccessToken(context, accessToken);
  return {
    Username: user.username,
    UserAttributes: [{ Name: 'sub', Value: user.sub }, ...Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value }))],
    ...(await mfaSettingsOf(context, user.sub)),
  };
}

export async function globalSignOut(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const accessToken = requireString(body, 'AccessToken', { max: 8192, pattern: /^[A-Za-z0-9\-_=.]+$/ });
  const user = await userOfAccessToken(context, accessToken);
  await context.repository.refreshTokens.revokeAllOf(user.sub);
  return {};
}

export async function revokeToken(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const token = requireString(body, 'Token', { max: 4096 });
  const clientId = requireString(body, 'ClientId', CLIENT_ID);
  checkClient(context, clientId);
  const record = await context.repository.refreshTokens.find(hashRefreshToken(token));
  // Like Cognito, an unknown token is not an error: revoking is idempotent and reveals nothing.
  if (record && record.clientId === clientId) await context.repository.refreshTokens.revoke(record.tokenHash);
  return {};
}
