import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * Why a login did not go through, as the form says it: the ID or the password is wrong (never which), the person
 * is blocked for a while (until when, when the server says), the service could not be reached, or the captcha
 * refused the attempt, or the SMS budgets (of the phone, the customer, the connection) are spent for now. In the
 * last four the password may well have been right.
 */
export type LoginProblem =
  | { kind: 'credentials' }
  | { kind: 'blocked'; until: number | null }
  | { kind: 'tooManyMessages'; until: number }
  | { kind: 'unreachable' }
  | { kind: 'notSent' }
  | { kind: 'captcha' };

/** The answer of a sign-in: the masked phone the SMS went to, the session token, and the status. */
interface SignInResult {
  phone: string;
  token: string;
  status: number;
  /** When a new SMS code may be asked for (epoch ms). */
  resendAvailableAt: number | null;
}

/** What the login form submits once the captcha has answered. */
interface LoginRequest {
  userId: string;
  password: string;
  captchaToken: string;
}

/** A password recovery under way: whose, and when a new code may be asked for. */
interface RecoveryState {
  userId: string;
  resendAvailableAt: number | null;
}

interface AuthState {
  signInResult: SignInResult | null;
  /** Why the last login did not go through, shown on the form until the next attempt. */
  loginProblem: LoginProblem | null;
  recovery: RecoveryState | null;
  /** True from submit until the login flow has ended, whatever its outcome. */
  signingIn: boolean;
}

const initialAuthState: AuthState = { signInResult: null, loginProblem: null, recovery: null, signingIn: false };

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    loginRequested: {
      reducer(state) {
        state.signingIn = true;
        state.loginProblem = null;
      },
      prepare: (request: LoginRequest) => ({ payload: request }),
    },
    loginFailed(state, action: PayloadAction<LoginProblem>) {
      state.loginProblem = action.payload;
    },
    loginFinished(state) {
      state.signingIn = false;
    },
    signInSucceeded(state, action: PayloadAction<SignInResult>) {
      state.signInResult = action.payload;
    },
    codeResent(state, action: PayloadAction<{ phone: string; resendAvailableAt: number }>) {
      if (state.signInResult) Object.assign(state.signInResult, action.payload);
    },
    recoveryStarted(state, action: PayloadAction<RecoveryState>) {
      state.recovery = action.payload;
    },
    recoveryFinished(state) {
      state.recovery = null;
    },
    authReset() {
      return initialAuthState;
    },
  },
});

export const { loginRequested, loginFailed, loginFinished, signInSucceeded, codeResent, recoveryStarted, recoveryFinished, authReset } =
  authSlice.actions;
export const authReducer = authSlice.reducer;

export const selectSignInResult = (state: { auth: AuthState }) => state.auth.signInResult;
export const selectRecovery = (state: { auth: AuthState }) => state.auth.recovery;
export const selectLoginProblem = (state: { auth: AuthState }) => state.auth.loginProblem;
export const selectSigningIn = (state: { auth: AuthState }) => state.auth.signingIn;
