import { api } from './api';

/** The server's check of a captcha token; a success is bound to the browser's session id, single use. */
export const captchaApi = api.injectEndpoints({
  endpoints: (build) => ({
    verifyCaptcha: build.query<{ success: boolean }, { response: string; sessionId: string }>({
      query: ({ response, sessionId }) => ({ url: 'captcha/verify', params: { response, sessionId }, noAuth: true }),
      keepUnusedDataFor: 0,
    }),
  }),
});
