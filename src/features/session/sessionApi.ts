import { api } from '../../services/api';

interface GetSessionResponse {
  authenticated: boolean;
}

export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Whether the browser already holds a live customer session (a session cookie set at login). */
    getSession: build.query<GetSessionResponse, void>({
      query: () => ({ url: 'user-authorization-management/get-session', noAuth: true }),
    }),
    /** A new onboarding session token for the one in use (the applicant chose to continue). */
    renewSession: build.mutation<{ token: string; expiresIn: number }, void>({
      query: () => ({ url: 'onboarding-management-private/session/renew', method: 'POST' }),
    }),
  }),
});

export const { useGetSessionQuery, useRenewSessionMutation } = sessionApi;
