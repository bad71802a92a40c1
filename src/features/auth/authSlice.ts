import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/** The answer of a sign-in: the masked phone the SMS went to, the session token, and the status. */
export interface SignInResult {
  phone: string;
  token: string;
  status: number;
}

export interface AuthState {
  signInResult: SignInResult | null;
}

export const initialAuthState: AuthState = { signInResult: null };

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    signInSucceeded(state, action: PayloadAction<SignInResult>) {
      state.signInResult = action.payload;
    },
    authReset() {
      return initialAuthState;
    },
  },
});

export const { signInSucceeded, authReset } = authSlice.actions;
export const authReducer = authSlice.reducer;

export const selectSignInResult = (state: { auth: AuthState }) => state.auth.signInResult;
