import type { RuntimeConfig } from '../../config';
import { memoryStorage } from '../../storage/memoryStorage';

/** What the identity client rejects with: its code and message (e.g. "PreTokenGeneration failed with error ERR-2809."). */
export interface SignInFailure {
  code: string;
  message: string;
}

/**
 * Signs in with the secure remote password flow through amazon-cognito-identity-js (loaded on first use,
 * not with the login page) and answers the id token.
 */
export async function signInWithPassword(userId: string, password: string, identity: RuntimeConfig['identity']): Promise<string> {
  const { AuthenticationDetails, CognitoUser, CognitoUserPool } = await import(/* webpackChunkName: "identity" */ 'amazon-cognito-identity-js');
  const storage = memoryStorage();
  const pool = new CognitoUserPool({ UserPoolId: identity.userPoolId, ClientId: identity.clientId, endpoint: identity.endpoint, Storage: storage });
  const user = new CognitoUser({ Username: userId, Pool: pool, Storage: storage });
  return new Promise((resolve, reject) => {
    const unsupported = (step: string) => reject({ code: 'UnsupportedChallenge', message: `Sign-in step ${step} is not supported` } satisfies SignInFailure);
    user.authenticateUser(new AuthenticationDetails({ Username: userId, Password: password }), {
      onSuccess: (session) => resolve(session.getIdToken().getJwtToken()),
      onFailure: (error: { code?: string; name?: string; message?: string }) =>
        reject({ code: error.code ?? error.name ?? 'Unknown', message: error.message ?? 'Authentication Error' } satisfies SignInFailure),
      newPasswordRequired: () => unsupported('NEW_PASSWORD_REQUIRED'),
      mfaRequired: () => unsupported('SMS_MFA'),
      totpRequired: () => unsupported('SOFTWARE_TOKEN_MFA'),
      customChallenge: () => unsupported('CUSTOM_CHALLENGE'),
      mfaSetup: () => unsupported('MFA_SETUP'),
      selectMFAType: () => unsupported('SELECT_MFA_TYPE'),
    });
  });
}
