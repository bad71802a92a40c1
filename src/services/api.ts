import { createApi } from '@reduxjs/toolkit/query/react';
import { apiBaseQuery } from './baseQuery';

/**
 * The one API slice; every feature injects its own endpoints (`api.injectEndpoints`). Tags: `Application`, the
 * applicant's application the wizard's screens read; `Documents`, its checked documents.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery: apiBaseQuery,
  tagTypes: ['Application', 'Documents'],
  endpoints: () => ({}),
});
