import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { errorRaised, sessionIdAssigned } from '../services/requestEvents';

/**
 * An application the bank cannot serve: the page that says why, and the CIF's entity letter that page names
 * ('' for a person). It outlives the session, so a reload or a language switch shows the same page again.
 */
export interface ClosedApplication {
  page: 'forbidden-user' | 'company-error';
  entity: string;
}

interface SessionState {
  /** The onboarding session token (JWT), mirrored in storage under JWT. */
  authorizationToken: string | null;
  /** Generated in the browser, uuid-like, mirrored in storage under SESSION_ID. */
  sessionId: string | null;
  /** Message id of the error the global modal shows, e.g. `error.sessionExpired`. */
  error: string | null;
  /** Name of the route the user is on, as remembered under CURRENT_PAGE. */
  currentPage: string | null;
  closedApplication: ClosedApplication | null;
}

export const initialSessionState: SessionState = {
  authorizationToken: null,
  sessionId: null,
  error: null,
  currentPage: null,
  closedApplication: null,
};

const sessionSlice = createSlice({
  name: 'session',
  initialState: initialSessionState,
  reducers: {
    sessionStarted(state, action: PayloadAction<{ token: string }>) {
      state.authorizationToken = action.payload.token;
      state.closedApplication = null;
    },
    /** The server closed the application: its refusal page stays, whatever else is forgotten. */
    applicationClosed(state, action: PayloadAction<ClosedApplication>) {
      state.closedApplication = action.payload;
    },
    errorDismissed(state) {
      state.error = null;
    },
    pageVisited(state, action: PayloadAction<string>) {
      state.currentPage = action.payload;
    },
    /** The stored token expired: everything but the error the user must see is dropped. */
    sessionExpired(state) {
      return { ...initialSessionState, error: 'error.sessionExpired', closedApplication: state.closedApplication };
    },
    /** Signing out or opening the login page starts from a clean session (a refusal stays where it was). */
    sessionCleared(state) {
      return { ...initialSessionState, closedApplication: state.closedApplication };
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(sessionIdAssigned, (state, action) => {
        state.sessionId = action.payload;
      })
      .addCase(errorRaised, (state, action) => {
        state.error = action.payload;
      });
  },
});

export { errorRaised };
export const {
  sessionStarted,
  applicationClosed,
  errorDismissed,
  pageVisited,
  sessionExpired,
  sessionCleared,
} = sessionSlice.actions;

export const sessionReducer = sessionSlice.reducer;

type WithSession = { session: SessionState };
export const selectAuthorizationToken = (state: WithSession) => state.session.authorizationToken;
export const selectSessionError = (state: WithSession) => state.session.error;
export const selectClosedApplication = (state: WithSession) => state.session.closedApplication;
