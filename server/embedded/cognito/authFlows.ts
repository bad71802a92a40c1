// The operations the browser's amazon-cognito-identity-js sends: SRP sign-in, refresh, sign-out, revoke. The
// password is the sign-in's first step; what follows it is a challenge module's own (newPasswordChallenge.ts,
// mfaChallenges.ts), chosen here, each built on signInCore.ts.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { openAuthSession, sealAuthSession, verifierHash } from './authSession';
import type { PoolContext, PoolUser } from './context';
import { errors, type AwsError } from './errors';
import { requireParameter, requireString, stringMap, type JsonObject } from './input';
import { askSecondFactor, respondToMfaChallenge } from './mfaChallenges';
import { askNewPassword, respondToNewPassword } from './newPasswordChallenge';
import { temporaryPasswordExpired } from './passwords';
import { groupsOf, mfaSettingsOf, userOfAccessToken } from './poolUsers';
import {
  answerOnce,
  checkClient,
  clearingFailures,
  CLIENT_ID,
  issueTokens,
  recordFailure,
  standingOf,
  tokenRefusal,
  unlessLockedMeanwhile,
  USERNAME_MAX,
  type AnswerRecord,
  type NextStep,
} from './signInCore';
import { N, isValidClientPublic, parseSrpTimestamp, passwordClaimSignature, serverSessionKey, signaturesMatch } from './srp';
import { hashRefreshToken } from './tokens';

/** 3072 bits are 768 hex digits; a little slack for leading zeros. */
const SRP_A = /^[0-9a-fA-F]{1,800}$/;
const AUTH_FLOWS = [
  'USER_SRP_AUTH', 'REFRESH_TOKEN_AUTH', 'REFRESH_TOKEN', 'CUSTOM_AUTH', 'ADMIN_NO_SRP_AUTH', 'USER_PASSWORD_AUTH',
  'ADMIN_USER_PASSWORD_AUTH', 'USER_AUTH',
];

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

export async function respondToAuthChallenge(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const clientId = requireString(body, 'ClientId', CLIENT_ID);
  const challengeName = requireString(body, 'ChallengeName', { max: 64 });
  const session = requireString(body, 'Session', { min: 20, max: 2048 });
  const responses = stringMap(body, 'ChallengeResponses');
  checkClient(context, clientId);
  if (challengeName === 'PASSWORD_VERIFIER') return respondToPasswordVerifier(context, clientId, session, responses);
  if (challengeName === 'NEW_PASSWORD_REQUIRED') return respondToNewPassword(context, session, responses, afterNewPassword(context, clientId));
  if ((challengeName === 'SOFTWARE_TOKEN_MFA' || challengeName === 'MFA_SETUP') && context.settings.mfa === 'ON') {
    return respondToMfaChallenge(context, clientId, challengeName, session, responses);
  }
  throw errors.invalidParameter(`Challenge ${challengeName.slice(0, 64)} is not supported by this user pool.`);
}

/** What the pool asks once the right password is proven: a new one in place of a temporary one, then as below. */
function afterPassword(context: PoolContext, clientId: string): NextStep {
  const afterNew = afterNewPassword(context, clientId);
  return (user, now, answer, clearFailures) =>
    user.status === 'FORCE_CHANGE_PASSWORD' ? askNewPassword(context, user, now, answer, clearFailures) : afterNew(user, now, answer, clearFailures);
}

/** Once the password is the user's own: the second factor where the pool has MFA, else the tokens. */
function afterNewPassword(context: PoolContext, clientId: string): NextStep {
  return async (user, now, answer, clearFailures) => {
    if (context.settings.mfa === 'ON') return askSecondFactor(context, user, now, answer);
    return { ChallengeParameters: {}, AuthenticationResult: await issueTokens(context, user, clientId, now, answer, clearFailures) };
  };
}

/** PASSWORD_VERIFIER: the SRP proof of the password, judged the same way for known, unknown and locked names. */
async function respondToPasswordVerifier(context: PoolContext, clientId: string, session: string, responses: Record<string, string>): Promise<JsonObject> {
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
  // Asked for known and unknown names alike: the client's failures are counted for both.
  const standing = await standingOf(context, bound.username, found?.locked ?? false, now);
  const sameVerifier = verifierHash(user?.verifier ?? '') === bound.verifierHash;
  const expected = passwordClaimSignature(bound.key, context.settings.poolName, bound.username, Buffer.from(bound.secretBlock, 'base64'), timestamp);
  const passwordMatches = signaturesMatch(expected, signature) && sameVerifier;

  if (standing.refused || !user || !user.salt || !user.verifier || !passwordMatches) {
    // Recorded for unknown and locked names too: the same write every time, so the answer time tells nothing.
    await answer(recordFailure(context, bound.username, now));
    throw standing.refused ? errors.attemptsExceeded() : errors.notAuthorized();
  }
  const answerRight = unlessLockedMeanwhile(context, user.username, now, answer);
  // With a second factor, only its right code clears the count: else the password would reset the wrong codes.
  const clearFailures: AnswerRecord | undefined =
    context.settings.mfa !== 'ON' ? clearingFailures(context, user.username, { name: found?.hasFailures ?? false, client: standing.clientFailed }) : undefined;

  // Only someone who knows the password learns that the account is disabled, that a temporary password has
  // expired (or a refusal of the pre-token-generation hook).
  const refusal = refusalOf(context, user, now);
  if (refusal) {
    await answerRight(clearFailures);
    throw refusal;
  }
  return afterPassword(context, clientId)(user, now, answerRight, clearFailures);
}

/** Why a user who proved the password may not sign in, if anything: disabled, or a temporary password expired. */
function refusalOf(context: PoolContext, user: PoolUser, now: number): AwsError | undefined {
  if (!user.enabled) return errors.notAuthorized('User is disabled.');
  if (temporaryPasswordExpired(context.settings.passwordPolicy, user, now)) return errors.temporaryPasswordExpired();
  return undefined;
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
