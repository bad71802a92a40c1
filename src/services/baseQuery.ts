import type { BaseQueryFn } from '@reduxjs/toolkit/query/react';
import { getRuntimeConfig, REQUEST_TIMEOUT_MS } from '../config';
import { errorRaised } from './requestEvents';
import { ensureSessionId } from './sessionId';

/** What an endpoint asks the base query for. */
interface ApiRequest {
  url: string;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: Record<string, unknown>;
  params?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** Calls that must go without a token or session id (public key, captcha, locale). */
  noAuth?: boolean;
}

/** A failed call, with the seed's texts: "Request failed with status code {n}", "Network Error", ... */
export interface ApiError {
  status: number | 'NETWORK_ERROR' | 'TIMEOUT' | 'ABORTED';
  message: string;
  /** The server's stable error code, when it sent one. */
  errorCode?: string;
  data?: unknown;
}

interface ApiExtraOptions {
  /** Message id shown in the global modal when the call fails (onboarding calls use error.errorSendingData). */
  failureMessageId?: string;
}

interface StateWithSession {
  session: { authorizationToken: string | null; sessionId: string | null };
  ui?: { locale?: string };
}


function buildUrl(base: string, path: string, params?: ApiRequest['params']): string {
  const joined = `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params ?? {})) {
    if (value !== undefined) query.set(key, String(value));
  }
  const qs = query.toString();
  return qs ? `${joined}?${qs}` : joined;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * The common behaviour of every API call: base URL from the runtime configuration, a 20 s time-out, the
 * bearer token when there is one, otherwise the browser's session id in the body, the app's language as
 * Accept-Language, a loading flag, and failures turned into plain messages.
 */
export const apiBaseQuery: BaseQueryFn<ApiRequest | string, unknown, ApiError, ApiExtraOptions> = async (
  args,
  api,
  extraOptions,
) => {
  const request: ApiRequest = typeof args === 'string' ? { url: args } : args;
  const method = request.method ?? (request.body ? 'POST' : 'GET');
  const state = api.getState() as StateWithSession;
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  // The app's language, not the browser's: the server writes its SMS in it.
  if (state.ui?.locale) headers['accept-language'] = state.ui.locale;
  let body = request.body;

  if (!request.noAuth) {
    const token = state.session.authorizationToken;
    if (token) {
      headers.authorization = `Bearer ${token}`;
    } else if (method !== 'GET') {
      body = { ...body, sessionId: ensureSessionId(state, api.dispatch) };
    }
  }
  if (body !== undefined) headers['content-type'] = 'application/json';

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort();
  api.signal.addEventListener('abort', onCallerAbort);

  try {
    const response = await fetch(buildUrl(getRuntimeConfig().apiBaseUrl, request.url, request.params), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal: controller.signal,
    });
    const data = await readBody(response);
    if (!response.ok) {
      const errorCode =
        typeof data === 'object' && data !== null && 'code' in data ? String((data as { code: unknown }).code) : undefined;
      return fail({ status: response.status, message: `Request failed with status code ${response.status}`, errorCode, data });
    }
    return { data, meta: { status: response.status } };
  } catch {
    if (timedOut) return fail({ status: 'TIMEOUT', message: `Request did not complete within ${REQUEST_TIMEOUT_MS} ms` });
    if (api.signal.aborted) return fail({ status: 'ABORTED', message: 'Request aborted' });
    return fail({ status: 'NETWORK_ERROR', message: 'Network Error' });
  } finally {
    clearTimeout(timer);
    api.signal.removeEventListener('abort', onCallerAbort);
  }

  function fail(error: ApiError) {
    if (extraOptions?.failureMessageId) api.dispatch(errorRaised(extraOptions.failureMessageId));
    return { error };
  }
};
