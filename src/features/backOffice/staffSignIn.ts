// A staff member's sign-in to the staff pool with the unmodified amazon-cognito-identity-js (SRP): the password,
// a new one for a temporary password, an authenticator app enrolled at the first sign-in (the pool's MFA is on),
// its code at the next ones. Each step answers what the pool asks next, ending with the ID token the page trades
// for a back-office session. The library keeps its tokens in memory only, forgotten with the sign-in.
import type { CognitoUser, CognitoUserSession, IAuthenticationCallback } from 'amazon-cognito-identity-js';
import { memoryStorage } from '../../storage/memoryStorage';
import type { SignInConfig } from './backOfficeApi';

/** What the identity client rejects with: the staff pool's code and message. */
export interface SignInFailure {
  code: string;
  message: string;
}

/** What the staff pool asks for next, or the ID token of a finished sign-in. */
export type SignInStep =
  | { step: 'new-password' }
  /** The secret of the authenticator app to enrol (a QR code of `otpauthUri` and the secret typed by hand). */
  | { step: 'enrol'; secret: string }
  | { step: 'code' }
  | { step: 'signed-in'; idToken: string };

/** The name the enrolled authenticator has in the staff pool. */
const DEVICE_NAME = 'Divilo back office';

/** The address authenticator apps read from the QR code (the Key Uri Format). */
export function otpauthUri(username: string, secret: string): string {
  return `otpauth://totp/Divilo:${encodeURIComponent(username)}?secret=${encodeURIComponent(secret)}&issuer=Divilo`;
}

/** The secret in groups of four, as it is typed into an app by hand. */
export const groupedSecret = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

const failureOf = (error: { code?: string; name?: string; message?: string }): SignInFailure => ({
  code: error.code ?? error.name ?? 'Unknown',
  message: error.message ?? 'Authentication Error',
});

export interface StaffSignIn {
  password(username: string, password: string): Promise<SignInStep>;
  newPassword(password: string): Promise<SignInStep>;
  enrol(code: string): Promise<SignInStep>;
  code(code: string): Promise<SignInStep>;
  /** Forgets the library's tokens and the user: once the session is made, or on a new start. */
  forget(): void;
}

/** A sign-in to the staff pool, one step at a time; a refused step rejects with the pool's code (SignInFailure). */
export function staffSignIn(config: SignInConfig): StaffSignIn {
  const storage = memoryStorage();
  let user: CognitoUser | undefined;

  /** The callbacks of a step: each of the pool's answers resolves to the step that follows. */
  const answers = (resolve: (next: SignInStep) => void, reject: (failure: SignInFailure) => void, current: CognitoUser): IAuthenticationCallback => {
    const callbacks: IAuthenticationCallback = {
      onSuccess: (session: CognitoUserSession) => resolve({ step: 'signed-in', idToken: session.getIdToken().getJwtToken() }),
      onFailure: (error: { code?: string; name?: string; message?: string }) => reject(failureOf(error)),
      newPasswordRequired: () => resolve({ step: 'new-password' }),
      mfaSetup: () =>
        current.associateSoftwareToken({
          associateSecretCode: (secret: string) => resolve({ step: 'enrol', secret }),
          onFailure: (error: { code?: string; name?: string; message?: string }) => reject(failureOf(error)),
        }),
      totpRequired: () => resolve({ step: 'code' }),
      // Offered a choice, the staff take the authenticator app: the pool has no other second factor for them.
      selectMFAType: () => current.sendMFASelectionAnswer('SOFTWARE_TOKEN_MFA', callbacks),
      mfaRequired: () => reject({ code: 'UnsupportedChallenge', message: 'Sign-in step SMS_MFA is not supported' }),
      customChallenge: () => reject({ code: 'UnsupportedChallenge', message: 'Sign-in step CUSTOM_CHALLENGE is not supported' }),
    };
    return callbacks;
  };

  const step = (work: (current: CognitoUser, callbacks: IAuthenticationCallback) => void) =>
    new Promise<SignInStep>((resolve, reject) => {
      if (!user) return reject({ code: 'NoSignIn', message: 'Sign in with the password first' } satisfies SignInFailure);
      work(user, answers(resolve, reject, user));
    });

  return {
    async password(username, password) {
      const { AuthenticationDetails, CognitoUser, CognitoUserPool } = await import(/* webpackChunkName: "identity" */ 'amazon-cognito-identity-js');
      storage.clear();
      const pool = new CognitoUserPool({ UserPoolId: config.userPoolId, ClientId: config.clientId, endpoint: config.endpoint, Storage: storage });
      user = new CognitoUser({ Username: username, Pool: pool, Storage: storage });
      return step((current, callbacks) => current.authenticateUser(new AuthenticationDetails({ Username: username, Password: password }), callbacks));
    },
    newPassword: (password) => step((current, callbacks) => current.completeNewPasswordChallenge(password, {}, callbacks)),
    enrol: (code) => step((current, callbacks) => current.verifySoftwareToken(code, DEVICE_NAME, callbacks)),
    code: (code) => step((current, callbacks) => current.sendMFACode(code, callbacks, 'SOFTWARE_TOKEN_MFA')),
    forget() {
      user = undefined;
      storage.clear();
    },
  };
}
