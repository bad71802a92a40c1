// The SigV4-signed administrative calls the API server makes through @aws-sdk/client-cognito-identity-provider.
import { randomUUID } from 'node:crypto';
import type { PoolContext, PoolUser } from './context';
import { errors } from './errors';
import { attributeList, optionalBoolean, optionalString, requireString, type AttributeInput, type JsonObject } from './input';
import { checkPasswordPolicy } from './passwords';
import { mfaSettingsOf } from './poolUsers';
import { createPasswordVerifier } from './srp';

const USERNAME = { max: 128, pattern: /^[\p{L}\p{M}\p{S}\p{N}\p{P}]+$/u };
const STANDARD_ATTRIBUTES = new Set([
  'address', 'birthdate', 'email', 'email_verified', 'family_name', 'gender', 'given_name', 'locale', 'middle_name', 'name',
  'nickname', 'phone_number', 'phone_number_verified', 'picture', 'preferred_username', 'profile', 'updated_at', 'website', 'zoneinfo',
]);
const E164 = /^\+[1-9]\d{3,14}$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

function checkPool(context: PoolContext, body: JsonObject): void {
  const poolId = requireString(body, 'UserPoolId', { max: 55, pattern: /^[\w-]+_[0-9a-zA-Z]+$/ });
  if (poolId !== context.settings.poolId) throw errors.resourceNotFound(`User pool ${poolId} does not exist.`);
}

export async function existingUser(context: PoolContext, body: JsonObject): Promise<PoolUser> {
  checkPool(context, body);
  const username = requireString(body, 'Username', USERNAME);
  const user = await context.repository.users.findByUsername(username);
  if (!user) throw errors.userNotFound();
  return user;
}

/** Applies attribute changes as Cognito does: known names only, checked formats, sub immutable. */
function applyAttributes(current: Record<string, string>, changes: AttributeInput[]): Record<string, string> {
  const next = { ...current };
  for (const { Name, Value } of changes) {
    if (Name === 'sub') throw errors.invalidParameter('Cannot modify the non-mutable attribute sub');
    if (!STANDARD_ATTRIBUTES.has(Name) && !/^custom:[\w.-]{1,20}$/.test(Name)) {
      throw errors.invalidParameter(`Attribute does not exist in the schema: ${Name}`);
    }
    if (Name === 'phone_number' && !E164.test(Value)) throw errors.invalidParameter('Invalid phone number format.');
    if (Name === 'email' && !EMAIL.test(Value)) throw errors.invalidParameter('Invalid email address format.');
    if (Name.endsWith('_verified') && Value !== 'true' && Value !== 'false') throw errors.invalidParameter(`Invalid value for ${Name}.`);
    next[Name] = Value;
  }
  // A changed phone number or e-mail is unverified unless the same call says otherwise, as in Cognito.
  for (const name of ['phone_number', 'email']) {
    const changed = changes.some((change) => change.Name === name) && current[name] !== next[name];
    if (changed && !changes.some((change) => change.Name === `${name}_verified`)) next[`${name}_verified`] = 'false';
  }
  return next;
}

function describe(user: PoolUser) {
  return {
    Username: user.username,
    Attributes: [{ Name: 'sub', Value: user.sub }, ...Object.entries(user.attributes).map(([Name, Value]) => ({ Name, Value }))],
    UserCreateDate: user.createdAt / 1000,
    UserLastModifiedDate: user.updatedAt / 1000,
    Enabled: user.enabled,
    UserStatus: user.status,
  };
}

export async function adminCreateUser(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  checkPool(context, body);
  const username = requireString(body, 'Username', USERNAME);
  const temporaryPassword = optionalString(body, 'TemporaryPassword', { max: 256 });
  const messageAction = optionalString(body, 'MessageAction', { max: 16 });
  if (messageAction !== 'SUPPRESS') {
    throw errors.invalidParameter('The embedded user pool sends no messages: MessageAction must be SUPPRESS.');
  }
  const attributes = applyAttributes({}, attributeList(body, 'UserAttributes'));
  if (temporaryPassword !== undefined) checkPasswordPolicy(context.settings.passwordPolicy, temporaryPassword);
  const now = context.now();
  const user: PoolUser = {
    sub: randomUUID(),
    username,
    attributes,
    salt: null,
    verifier: null,
    status: 'FORCE_CHANGE_PASSWORD',
    enabled: true,
    createdAt: now,
    updatedAt: now,
    passwordSetAt: null,
    // The user chooses their own at the first sign-in (NEW_PASSWORD_REQUIRED), before it expires.
    ...(temporaryPassword !== undefined && { ...createPasswordVerifier(context.settings.poolName, username, temporaryPassword), passwordSetAt: now }),
  };
  if (!(await context.repository.users.insert(user))) throw errors.usernameExists();
  return { User: describe(user) };
}

export async function adminSetUserPassword(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  const password = requireString(body, 'Password', { max: 256 });
  const permanent = optionalBoolean(body, 'Permanent') ?? false;
  checkPasswordPolicy(context.settings.passwordPolicy, password);
  const { salt, verifier } = createPasswordVerifier(context.settings.poolName, user.username, password);
  const now = context.now();
  await context.repository.users.update(user.username, { salt, verifier, status: permanent ? 'CONFIRMED' : 'FORCE_CHANGE_PASSWORD', passwordSetAt: now }, now);
  // An administrator setting a new password is the way out of a lockout, the name's and every client's at it.
  await context.repository.failures.clear(user.username);
  await context.repository.clientFailures.endFor(user.username, now);
  return {};
}

export async function adminGetUser(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const found = await existingUser(context, body);
  const { Attributes, ...user } = describe(found);
  return { ...user, UserAttributes: Attributes, ...(await mfaSettingsOf(context, found.sub)) };
}

export async function adminUpdateUserAttributes(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  const changes = attributeList(body, 'UserAttributes');
  if (body.UserAttributes === undefined) {
    throw errors.invalidParameter(
      "1 validation error detected: Value null at 'userAttributes' failed to satisfy constraint: Member must not be null",
    );
  }
  await context.repository.users.update(user.username, { attributes: applyAttributes(user.attributes, changes) }, context.now());
  return {};
}

export async function adminDisableUser(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  await context.repository.users.update(user.username, { enabled: false }, context.now());
  // Cognito revokes the user's tokens when it deactivates the account.
  await context.repository.refreshTokens.revokeAllOf(user.sub);
  return {};
}

export async function adminEnableUser(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  await context.repository.users.update(user.username, { enabled: true }, context.now());
  return {};
}

export async function adminUserGlobalSignOut(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  await context.repository.refreshTokens.revokeAllOf(user.sub);
  return {};
}

export async function adminDeleteUser(context: PoolContext, body: JsonObject): Promise<JsonObject> {
  const user = await existingUser(context, body);
  await context.repository.users.delete(user);
  return {};
}
