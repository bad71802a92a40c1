import { api } from '../../services/api';

interface CreateSessionAnswer {
  maskedPhone: string;
  token: string;
  /** Seconds until a new SMS code may be asked for. */
  resendAfterSeconds?: number;
  /** 200: an SMS code was sent; 201: the session is confirmed (already, or by this code). */
  status: number;
}

/** base64 of JSON { token, verificationCode }, as the server expects the SMS code. */
export function verificationSignature(token: string, verificationCode: string): string {
  return btoa(JSON.stringify({ token, verificationCode }));
}

export const loginApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * With the id token: starts a session and sends the SMS code. With the signature instead: confirms it
     * (the token of the first answer identifies the pending session, so the id token is not kept).
     */
    createSession: build.mutation<CreateSessionAnswer, { idToken?: string; sessionId: string; signature?: string }>({
      query: ({ idToken, sessionId, signature }) => ({
        url: 'user-authorization-management/create-session',
        method: 'POST',
        noAuth: true,
        headers: {
          'x-divilo-session-id': sessionId,
          ...(idToken ? { authorization: `Bearer ${idToken}` } : {}),
          ...(signature ? { 'x-divilo-verification-signature': signature } : {}),
        },
      }),
      transformResponse: (answer: Omit<CreateSessionAnswer, 'status'>, meta) => ({
        ...answer,
        status: (meta as { status?: number } | undefined)?.status ?? 200,
      }),
    }),
    /** Ends the customer session: the server revokes it and expires the cookie. */
    logout: build.mutation<void, void>({
      // An empty JSON body: the server takes a write its cookie authorises only as JSON (no form can send it).
      query: () => ({ url: 'user-authorization-management/logout', method: 'POST', noAuth: true, body: {} }),
    }),
    /** Sends a new SMS code for the pending session, once the cooldown has passed. */
    resendCode: build.mutation<{ maskedPhone: string; resendAfterSeconds: number }, { token: string; sessionId: string }>({
      query: ({ token, sessionId }) => ({
        url: 'user-authorization-management/resend-code',
        method: 'POST',
        noAuth: true,
        headers: { 'x-divilo-session-id': sessionId },
        body: { token },
      }),
    }),
  }),
});
