// Enrolling and choosing an authenticator app (TOTP): by the signed-in user's access token, or by the Session of
// an MFA_SETUP challenge; an administrator may forget a user's. Only pools whose MFA is ON offer it.
import { existingUser } from './adminOps';
import { openMfaSession, type MfaSessionState } from './authSession';
import type { PoolContext, PoolUser } from './context';
import { errors } from './errors';
import { optionalString, requireString, type JsonObject } from './input';
import { mfaSession } from './mfaChallenges';
import { userOfAccessToken } from './poolUsers';
import { answerOnce } from './signInCore';
import { acceptedStep, createTotpSecret, openTotpSecret, sealTotpSecret } from './totp';

const ACCESS_TOKEN = { max: 8192, pattern: /^[A-Za-z0-9\-_=.]+$/ };
const SESSION = { min: 20, max: 2048 };

interface Caller {
  user: PoolUser;
  /** Set when the call answers an MFA_SETUP Session, which it uses up. */
  session?: MfaSessionState;
}

/** The user an AccessToken or an MFA_SETUP Session (at `stage`) names: one of the two, never both. */
async function callerOf(context: PoolContext, body: JsonObject, stage: MfaSessionState['stage']): Promise<Caller> {
  if (context.settings.mfa !== 'ON') throw errors.softwareTokenNotEnabled();
  const accessToken = optionalString(body, 'AccessToken', ACCESS_TOKEN);
  const session = optionalString(body, 'Session', SESSION);
  if ((accessToken === undefined) === (session === undefined)) throw errors.invalidParameter('Exactly one of AccessToken and Session is required.');
  if (accessToken !== undefined) return { user: await userOfAccessToken(context, accessToken) };
  const now = context.now();
  const state = openMfaSession(context.keys.srpSession, session!, now);
  if (!state || state.stage !== stage) throw errors.expiredSession();
  await answerOnce(context, session!, state.expiresAt)();
  const user = await context.repository.users.findBySub(state.userSub);
  if (!user) throw errors.expiredSession();
  return { user, session: state };
}

export async function associateSoftwareToken(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const { user, session } = await callerOf(context, body, 'MFA_SETUP');
  const now = context.now();
  const secret = createTotpSecret();
  await context.repository.softwareTokens.associate(user.sub, sealTotpSecret(context.keys.softwareTokens, user.sub, secret), now);
  if (!session) return { SecretCode: secret };
  return { SecretCode: secret, Session: mfaSession(context, { ...session, stage: 'MFA_SETUP_ASSOCIATED' }, now) };
}

/** The first code of the associated app makes it the user's; a wrong one counts as a wrong password does. */
export async function verifySoftwareToken(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const code = requireString(body, 'UserCode', { min: 6, max: 6, pattern: /^[0-9]+$/ });
  optionalString(body, 'FriendlyDeviceName', { min: 0, max: 131_072 });
  const { user, session } = await callerOf(context, body, 'MFA_SETUP_ASSOCIATED');
  const now = context.now();
  const token = await context.repository.softwareTokens.find(user.sub);
  const pending = token?.sealedPendingSecret;
  const secret = pending ? openTotpSecret(context.keys.softwareTokens, user.sub, pending) : undefined;
  const step = secret === undefined ? undefined : acceptedStep(secret, code, now);
  if (step === undefined || !pending) {
    const { maxFailures, lockSeconds } = context.settings.lockout;
    await context.repository.failures.record(user.username, now, maxFailures, lockSeconds);
    throw errors.softwareTokenMismatch();
  }
  if (!(await context.repository.softwareTokens.verify(user.sub, pending, step, now))) throw errors.softwareTokenMismatch();
  if (!session) return { Status: 'SUCCESS' };
  return { Status: 'SUCCESS', Session: mfaSession(context, { ...session, stage: 'MFA_SETUP_VERIFIED' }, now) };
}

/** SoftwareTokenMfaSettings as Cognito takes them; SMS and e-mail codes are not offered here. */
async function applyPreference(context: PoolContext, user: PoolUser, body: JsonObject): Promise<JsonObject> {
  for (const field of ['SMSMfaSettings', 'EmailMfaSettings']) {
    const settings = body[field] as JsonObject | undefined;
    if (settings?.Enabled === true || settings?.PreferredMfa === true) throw errors.invalidParameter(`${field} are not offered by this user pool.`);
  }
  const settings = body.SoftwareTokenMfaSettings;
  if (settings === undefined || settings === null) return {};
  if (typeof settings !== 'object' || Array.isArray(settings)) throw errors.serialization();
  const { Enabled: enabled, PreferredMfa: preferred } = settings as JsonObject;
  if ((enabled !== undefined && typeof enabled !== 'boolean') || (preferred !== undefined && typeof preferred !== 'boolean')) throw errors.serialization();
  const token = await context.repository.softwareTokens.find(user.sub);
  if ((enabled === true || preferred === true) && !token?.sealedSecret) throw errors.invalidParameter('User has not verified software token mfa');
  if (token) await context.repository.softwareTokens.setPreference(user.sub, { enabled, preferred }, context.now());
  return {};
}

export async function setUserMFAPreference(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  if (context.settings.mfa !== 'ON') throw errors.softwareTokenNotEnabled();
  const user = await userOfAccessToken(context, requireString(body, 'AccessToken', ACCESS_TOKEN));
  return applyPreference(context, user, body);
}

export async function adminSetUserMFAPreference(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  if (context.settings.mfa !== 'ON') throw errors.softwareTokenNotEnabled();
  return applyPreference(context, user, body);
}

/**
 * AdminDeleteSoftwareToken: the user's authenticator app is forgotten (a lost phone), and their next sign-in in a
 * pool whose MFA is ON enrols a new one (MFA_SETUP). Nothing else changes: their password, their tokens.
 */
export async function adminDeleteSoftwareToken(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  if (context.settings.mfa !== 'ON') throw errors.softwareTokenNotEnabled();
  await context.repository.softwareTokens.delete(user.sub);
  return {};
}

