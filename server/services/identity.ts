// The one way the API server manages and checks identities: the same AWS SDK calls and token checks against
// Amazon Cognito and against the embedded pool (only the endpoint and the issuer differ).
import {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AdminUpdateUserAttributesCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import { createLocalJWKSet, createRemoteJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from 'jose';

export interface IdentityConfig {
  region: string;
  userPoolId: string;
  clientId: string;
  /** The embedded pool's URL (e.g. `http://127.0.0.1:3000/cognito`); absent against AWS. */
  endpoint?: string;
  /** Base of the token issuer; default `https://cognito-idp.<region>.amazonaws.com` (AWS). */
  issuerBaseUrl?: string;
  /** Where to fetch the JWKS when it is not `<issuer>/.well-known/jwks.json` as seen from this server. */
  jwksUrl?: string;
  /** A JWKS already at hand (tests, air-gapped deployments) instead of fetching one. */
  jwks?: JSONWebKeySet;
  /** Absent: the SDK's default provider chain (environment, instance role...). */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
}

export type UserStatus = 'FORCE_CHANGE_PASSWORD' | 'CONFIRMED' | string;

export interface IdentityUser {
  username: string;
  sub: string;
  attributes: Record<string, string>;
  enabled: boolean;
  status: UserStatus;
  createdAt: Date | undefined;
}

export interface IdTokenClaims extends JWTPayload {
  sub: string;
  'cognito:username': string;
  token_use: 'id';
}

export type IdentityErrorCode = 'USERNAME_EXISTS' | 'USER_NOT_FOUND' | 'INVALID_PASSWORD' | 'INVALID_PARAMETER' | 'INVALID_TOKEN';

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
  const client = new CognitoIdentityProviderClient({
    region: config.region,
    ...(config.endpoint !== undefined && { endpoint: config.endpoint }),
    ...(config.credentials !== undefined && { credentials: config.credentials }),
  });
  const UserPoolId = config.userPoolId;
  const issuer = `${(config.issuerBaseUrl ?? `https://cognito-idp.${config.region}.amazonaws.com`).replace(/\/+$/, '')}/${UserPoolId}`;
  const keys = config.jwks
    ? createLocalJWKSet(config.jwks)
    : createRemoteJWKSet(new URL(config.jwksUrl ?? `${issuer}/.well-known/jwks.json`));

  return {
    issuer,

    /** Creates the pool user without sending any message; the password comes next with setPassword. */
    async createUser(username: string, phone: string, attributes: Record<string, string> = {}): Promise<{ sub: string }> {
      const result = await translated(
        client.send(
          new AdminCreateUserCommand({
            UserPoolId,
            Username: username,
            MessageAction: 'SUPPRESS',
            UserAttributes: toAttributeList({ ...attributes, phone_number: phone }),
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
      } catch {
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
