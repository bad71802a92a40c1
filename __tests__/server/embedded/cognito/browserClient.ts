// The unmodified browser library, driven from Node as the SPA drives it.
import {
  AuthenticationDetails,
  CognitoUser,
  CognitoUserPool,
  type CognitoUserSession,
  type ICognitoStorage,
} from 'amazon-cognito-identity-js';
import { CLIENT_ID, POOL_ID } from './harness';

export interface ClientError {
  code: string;
  name: string;
  message: string;
}

/** Each test user gets its own storage, as each browser would. */
function memoryStorage(): ICognitoStorage {
  const items = new Map<string, string>();
  return {
    setItem: (key, value) => void items.set(key, value),
    getItem: (key) => items.get(key) ?? null,
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

export function browserUser(endpoint: string, username: string, { poolId = POOL_ID, clientId = CLIENT_ID } = {}): CognitoUser {
  const pool = new CognitoUserPool({ UserPoolId: poolId, ClientId: clientId, endpoint, Storage: memoryStorage() });
  return new CognitoUser({ Username: username, Pool: pool, Storage: memoryStorage() });
}

export function authenticate(user: CognitoUser, username: string, password: string): Promise<CognitoUserSession> {
  return new Promise((resolve, reject) => {
    user.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), {
      onSuccess: resolve,
      onFailure: reject,
      newPasswordRequired: () => reject(new Error('unexpected NEW_PASSWORD_REQUIRED')),
      mfaRequired: () => reject(new Error('unexpected MFA')),
    });
  });
}

export async function signIn(endpoint: string, username: string, password: string): Promise<CognitoUserSession> {
  return authenticate(browserUser(endpoint, username), username, password);
}

/** The error the client reports, reduced to what an app can see. */
export async function signInError(endpoint: string, username: string, password: string): Promise<ClientError> {
  try {
    await signIn(endpoint, username, password);
  } catch (error) {
    const { code, name, message } = error as ClientError;
    return { code, name, message };
  }
  throw new Error(`sign-in of ${username} unexpectedly succeeded`);
}

export function refresh(user: CognitoUser, session: CognitoUserSession): Promise<CognitoUserSession> {
  return new Promise((resolve, reject) => {
    user.refreshSession(session.getRefreshToken(), (error: unknown, next: CognitoUserSession) => (error ? reject(error) : resolve(next)));
  });
}

export function globalSignOut(user: CognitoUser): Promise<void> {
  return new Promise((resolve, reject) => {
    user.globalSignOut({ onSuccess: () => resolve(), onFailure: reject });
  });
}
