// What the operations read about a user besides their row: the user a live access token names, their groups, and
// their authenticator app as GetUser and AdminGetUser report it.
import type { PoolContext, PoolUser } from './context';
import { errors } from './errors';
import type { JsonObject } from './input';

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

/** The `cognito:groups` of a user's tokens; no query in a pool without groups. */
export async function groupsOf(context: PoolContext, userSub: string): Promise<string[] | undefined> {
  if (context.settings.groups.length === 0) return undefined;
  const names = new Set(await context.repository.groups.listOf(userSub));
  return context.settings.groups.filter((name) => names.has(name));
}

/** GetUser's and AdminGetUser's MFA fields, in a pool whose MFA is ON; nothing elsewhere (no query either). */
export async function mfaSettingsOf(context: PoolContext, userSub: string): Promise<JsonObject> {
  if (context.settings.mfa !== 'ON') return {};
  const token = await context.repository.softwareTokens.find(userSub);
  if (!token?.sealedSecret || !token.enabled) return {};
  return { UserMFASettingList: ['SOFTWARE_TOKEN_MFA'], ...(token.preferred && { PreferredMfaSetting: 'SOFTWARE_TOKEN_MFA' }) };
}
