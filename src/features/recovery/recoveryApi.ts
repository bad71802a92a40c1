import { api } from '../../services/api';
import type { ServerPublicKey } from './sealForServer';

export const recoveryApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Sends a recovery code by SMS; the answer is the same whether or not the user exists. */
    startRecovery: build.mutation<{ response: string; resendAfterSeconds?: number }, { userId: string }>({
      query: ({ userId }) => ({ url: 'credentials-management/password', method: 'POST', body: { userId } }),
    }),
    getPublicKey: build.query<ServerPublicKey, void>({
      query: () => ({ url: 'credentials-management/getKey', noAuth: true }),
      keepUnusedDataFor: 0,
    }),
    /** `data` is {userId, code, newPassword} sealed for the server. */
    resetPassword: build.mutation<{ response: string }, { data: string }>({
      query: ({ data }) => ({ url: 'credentials-management/password', method: 'PUT', body: { data }, noAuth: true }),
    }),
  }),
});
