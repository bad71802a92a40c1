// The one way the API server manages and checks identities: the same AWS SDK calls and token checks against
// Amazon Cognito and against the embedded pool (only the endpoint and the issuer differ).
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminDeleteSoftwareTokenCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminListGroupsForUserCommand,
  AdminRemoveUserFromGroupCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import { awsServiceOrigin } from '../../src/config/awsPartition';
import { awsClient, fetchDeadline, FETCH_TIMEOUT_MS } from './outboundCalls';

interface IdentityConfig {
  region: string;
  userPoolId: string;
  clientId: string;
  /** The embedded pool's URL (e.g. `http://127.0.0.1:3000/cognito`); absent against AWS. */
  endpoint?: string;
  /** Base of the token issuer; default AWS's, `https://cognito-idp.<region>.<the partition's DNS suffix>`. */
  issuerBaseUrl?: string;
  /** Where to fetch the JWKS when it is not `<issuer>/.well-known/jwks.json` as seen from this server. */
  jwksUrl?: string;
  /** Where a failure to fetch the signing keys is reported (once per run of failures); default nowhere. */
  log?: KeysLog;
  /** A JWKS already at hand (tests, air-gapped deployments) instead of fetching one. */
  jwks?: JSONWebKeySet;
  /** Absent: the SDK's default provider chain (environment, instance role...). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

type UserStatus = 'FORCE_CHANGE_PASSWORD' | 'CONFIRMED' | string;

export interface IdentityUser {
  username: string;
  sub: string;
  attributes: Record<string, string>;
  enabled: boolean;
  status: UserStatus;
  createdAt: Date | undefined;
  /** The second factors the user has set up (`SOFTWARE_TOKEN_MFA`: an authenticator app); empty for none. */
  mfa: string[];
}

export interface IdTokenClaims extends JWTPayload {
  sub: string;
  'cognito:username': string;
  token_use: 'id';
}

/** `UNAVAILABLE`: the token could not be checked because the pool's signing keys could not be fetched. */
type IdentityErrorCode = 'USERNAME_EXISTS' | 'USER_NOT_FOUND' | 'INVALID_PASSWORD' | 'INVALID_PARAMETER' | 'INVALID_TOKEN' | 'UNAVAILABLE';

/** The part of a pino logger the key fetch reports to. */
export interface KeysLog {
  error(details: object, message: string): void;
  info(details: object, message: string): void;
}

export class IdentityError extends Error {
  constructor(
    readonly code: IdentityErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IdentityError';
  }
}

const SDK_ERRORS: Record<string, IdentityErrorCode> = {
  UsernameExistsException: 'USERNAME_EXISTS',
  UserNotFoundException: 'USER_NOT_FOUND',
  InvalidPasswordException: 'INVALID_PASSWORD',
  InvalidParameterException: 'INVALID_PARAMETER',
};

/** Turns the SDK's exceptions the callers handle into IdentityError; anything else (network, auth) stays as is. */
async function translated<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    const code = error instanceof Error ? SDK_ERRORS[error.name] : undefined;
    if (code) throw new IdentityError(code, (error as Error).message);
    throw error;
  }
}

function toAttributeList(attributes: Record<string, string>) {
  return Object.entries(attributes).map(([Name, Value]) => ({ Name, Value }));
}

export function createIdentityService(config: IdentityConfig) {
  const client = awsClient(CognitoIdentityProviderClient, {
    region: config.region,
    ...(config.endpoint !== undefined && { endpoint: config.endpoint }),
    ...(config.credentials !== undefined && { credentials: config.credentials }),
  });
  const UserPoolId = config.userPoolId;
  const issuer = `${(config.issuerBaseUrl ?? awsServiceOrigin('cognito-idp', config.region)).replace(/\/+$/, '')}/${UserPoolId}`;
  const jwksUrl = new URL(config.jwksUrl ?? `${issuer}/.well-known/jwks.json`);
  const keys = config.jwks ? createLocalJWKSet(config.jwks) : reportedKeys(createRemoteJWKSet(jwksUrl, { timeoutDuration: FETCH_TIMEOUT_MS }), jwksUrl, config.log);

  return {
    issuer,
    jwksUrl: config.jwks ? undefined : jwksUrl.href,

    /** Whether the signing keys can be fetched now (one request, no token involved): /health's probe. */
    async keysReachable(): Promise<boolean> {
      if (config.jwks) return true;
      try {
        const answer = await fetch(jwksUrl, { signal: fetchDeadline(), headers: { accept: 'application/json' } });
        const body = (await answer.json().catch(() => undefined)) as { keys?: unknown } | undefined;
        return answer.ok && Array.isArray(body?.keys);
      } catch {
        return false;
      }
    },

    /**
     * Creates the pool user without sending any message. A customer has a phone, and their password comes next with
     * setPassword; a member of the staff has none, and is made with a temporary password that their first sign-in
     * replaces (NEW_PASSWORD_REQUIRED).
     */
    async createUser(
      username: string,
      phone: string | undefined,
      attributes: Record<string, string> = {},
      { temporaryPassword }: { temporaryPassword?: string } = {},
    ): Promise<{ sub: string }> {
      const result = await translated(
        client.send(
          new AdminCreateUserCommand({
            UserPoolId,
            Username: username,
            MessageAction: 'SUPPRESS',
            ...(temporaryPassword !== undefined && { TemporaryPassword: temporaryPassword }),
            UserAttributes: toAttributeList(phone === undefined ? attributes : { ...attributes, phone_number: phone }),
          }),
        ),
      );
      const sub = result.User?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
      if (!sub) throw new Error('AdminCreateUser answered without a sub');
      return { sub };
    },

    async setPassword(username: string, password: string, permanent = true): Promise<void> {
      await translated(client.send(new AdminSetUserPasswordCommand({ UserPoolId, Username: username, Password: password, Permanent: permanent })));
    },

    /** The user, or undefined when there is none. */
    async getUser(username: string): Promise<IdentityUser | undefined> {
      try {
        const result = await translated(client.send(new AdminGetUserCommand({ UserPoolId, Username: username })));
        const attributes = Object.fromEntries((result.UserAttributes ?? []).map((attribute) => [attribute.Name!, attribute.Value ?? '']));
        const { sub = '', ...rest } = attributes;
        return {
          username: result.Username ?? username,
          sub,
          attributes: rest,
          enabled: result.Enabled ?? false,
          status: result.UserStatus ?? 'UNKNOWN',
          createdAt: result.UserCreateDate,
          mfa: result.UserMFASettingList ?? [],
        };
      } catch (error) {
        if (error instanceof IdentityError && error.code === 'USER_NOT_FOUND') return undefined;
        throw error;
      }
    },

    async updateAttributes(username: string, attributes: Record<string, string>): Promise<void> {
      await translated(
        client.send(new AdminUpdateUserAttributesCommand({ UserPoolId, Username: username, UserAttributes: toAttributeList(attributes) })),
      );
    },

    async disableUser(username: string): Promise<void> {
      await translated(client.send(new AdminDisableUserCommand({ UserPoolId, Username: username })));
    },

    async enableUser(username: string): Promise<void> {
      await translated(client.send(new AdminEnableUserCommand({ UserPoolId, Username: username })));
    },

    /** Revokes every refresh token of the user, so no session can be renewed. */
    async globalSignOut(username: string): Promise<void> {
      await translated(client.send(new AdminUserGlobalSignOutCommand({ UserPoolId, Username: username })));
    },

    /** Adds the user to a group of the pool; already in it is no error. */
    async addToGroup(username: string, group: string): Promise<void> {
      await translated(client.send(new AdminAddUserToGroupCommand({ UserPoolId, Username: username, GroupName: group })));
    },

    /** Forgets the user's authenticator app: in a pool that requires one, their next sign-in enrols another. */
    async deleteSoftwareToken(username: string): Promise<void> {
      await translated(client.send(new AdminDeleteSoftwareTokenCommand({ UserPoolId, Username: username })));
    },

    async removeFromGroup(username: string, group: string): Promise<void> {
      await translated(client.send(new AdminRemoveUserFromGroupCommand({ UserPoolId, Username: username, GroupName: group })));
    },

    /** The names of the user's groups, every page of them. */
    async groupsOf(username: string): Promise<string[]> {
      const names: string[] = [];
      let NextToken: string | undefined;
      do {
        const page = await translated(client.send(new AdminListGroupsForUserCommand({ UserPoolId, Username: username, NextToken })));
        names.push(...(page.Groups ?? []).flatMap((group) => (group.GroupName ? [group.GroupName] : [])));
        NextToken = page.NextToken;
      } while (NextToken);
      return names;
    },

    async deleteUser(username: string): Promise<void> {
      await translated(client.send(new AdminDeleteUserCommand({ UserPoolId, Username: username })));
    },

    /** The claims of a valid id token of this pool and client; IdentityError INVALID_TOKEN otherwise. */
    async verifyIdToken(token: string): Promise<IdTokenClaims> {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          algorithms: ['RS256'],
          issuer,
          audience: config.clientId,
          requiredClaims: ['sub', 'exp', 'iat', 'token_use'],
        }));
      } catch (error) {
        if (error instanceof KeysUnavailable) throw new IdentityError('UNAVAILABLE', 'The signing keys of the identity service cannot be fetched.');
        throw new IdentityError('INVALID_TOKEN', 'The id token is not valid.');
      }
      if (payload.token_use !== 'id' || typeof payload['cognito:username'] !== 'string') {
        throw new IdentityError('INVALID_TOKEN', 'The id token is not valid.');
      }
      return payload as IdTokenClaims;
    },

    destroy(): void {
      client.destroy();
    },
  };
}

export type IdentityService = ReturnType<typeof createIdentityService>;

/** The keys could not be fetched (network, time-out, an answer that is no key set): not the token's fault. */
class KeysUnavailable extends Error {}

type KeyLookup = JWTVerifyGetKey;

/**
 * The remote key set, with its failures told apart from a token's: a token naming an unknown key is the
 * token's problem, anything else means no token can be checked. The first failure of a run is logged (the
 * address and the reason, never a token), and the first success after it; the failures between are not.
 */
function reportedKeys(remote: KeyLookup, url: URL, log: KeysLog | undefined): KeyLookup {
  let failing = false;
  return async (header, token) => {
    try {
      const key = await remote(header, token);
      if (failing) log?.info({ jwksUrl: url.href }, "the identity service's signing keys are fetched again");
      failing = false;
      return key;
    } catch (error) {
      if (error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWKSMultipleMatchingKeys) throw error;
      if (!failing) log?.error({ jwksUrl: url.href, reason: describe(error) }, "the identity service's signing keys cannot be fetched: no login can be checked until they can");
      failing = true;
      throw new KeysUnavailable(describe(error));
    }
  };
}

/** An error's name, message and the network code behind a failed fetch (ECONNREFUSED, ENOTFOUND...). */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return `${error.name}: ${error.message}${cause ? ` (${cause})` : ''}`;
}
