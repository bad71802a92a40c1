import { makeStore } from '../../../src/app/store';
import { setRuntimeConfig } from '../../../src/config';
import { initialSessionState } from '../../../src/state/sessionSlice';
import { localeChosen } from '../../../src/state/uiSlice';
import { api } from '../../../src/services/api';
import type { ApiError } from '../../../src/services/baseQuery';
import { loadItem, saveItem, StorageKey } from '../../../src/storage/browserStorage';
import { testRuntimeConfig } from '../testConfig';
import { expiredToken, liveToken } from '../tokens';
import { json, startTestServer, type RecordedRequest } from './testServer';

const testApi = api.injectEndpoints({
  endpoints: (build) => ({
    save: build.mutation<unknown, { path: string; body?: Record<string, unknown>; noAuth?: boolean; failureMessageId?: string }>({
      query: ({ path, body, noAuth }) => ({ url: path, method: 'POST', body, noAuth }),
      extraOptions: { failureMessageId: undefined },
    }),
    saveOnboarding: build.mutation<unknown, { path: string }>({
      query: ({ path }) => ({ url: path, method: 'POST', body: {} }),
      extraOptions: { failureMessageId: 'error.errorSendingData' },
    }),
  }),
});

let server: Awaited<ReturnType<typeof startTestServer>>;
let respond: (request: RecordedRequest, res: import('node:http').ServerResponse) => void;

beforeAll(async () => {
  server = await startTestServer((request, res) => respond(request, res));
});
afterAll(() => server.close());
beforeEach(() => {
  localStorage.clear();
  server.requests.length = 0;
  respond = (_req, res) => json(res, 200, { ok: true });
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api/` }));
});

function storeWith(token: string | null, navigate = jest.fn()) {
  const store = makeStore(
    { session: { ...initialSessionState, authorizationToken: token } },
    { persist: false, navigation: { navigate, leaveApp: jest.fn() } },
  );
  return { store, navigate };
}

describe('the base query', () => {
  it('sends the bearer token when there is one, and no session id', async () => {
    const token = liveToken();
    const { store } = storeWith(token);
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'things', body: { a: 1 } })).unwrap();
    const [request] = server.requests;
    expect(request.url).toBe('/api/things');
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expect(request.body).toEqual({ a: 1 });
  });

  it("sends the app's chosen language as Accept-Language, following a change", async () => {
    const { store } = storeWith(null);
    store.dispatch(localeChosen('es'));
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'one' })).unwrap();
    store.dispatch(localeChosen('en'));
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'two' })).unwrap();
    expect(server.requests.map((request) => request.headers['accept-language'])).toEqual(['es', 'en']);
  });

  it('without a token adds a generated uuid-like sessionId to the body, keeps it and reuses it', async () => {
    const { store } = storeWith(null);
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'one', body: { a: 1 } })).unwrap();
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'two' })).unwrap();
    const [first, second] = server.requests;
    const sessionId = (first.body as { sessionId: string }).sessionId;
    expect(sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.body).toEqual({ a: 1, sessionId });
    expect(first.headers.authorization).toBeUndefined();
    expect(second.body).toEqual({ sessionId });
    expect(store.getState().session.sessionId).toBe(sessionId);
    expect(loadItem(StorageKey.SESSION_ID)).toBe(sessionId);
  });

  it('reuses a session id the browser already stored', async () => {
    saveItem(StorageKey.SESSION_ID, 'stored-session-id');
    const { store } = storeWith(null);
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'x' })).unwrap();
    expect(server.requests[0].body).toEqual({ sessionId: 'stored-session-id' });
  });

  it('sends neither token nor session id for a no-auth call', async () => {
    const { store } = storeWith(liveToken());
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'key', body: { b: 2 }, noAuth: true })).unwrap();
    expect(server.requests[0].headers.authorization).toBeUndefined();
    expect(server.requests[0].body).toEqual({ b: 2 });
  });

  it('turns a non-2xx answer into "Request failed with status code {n}" with the server code', async () => {
    respond = (_req, res) => json(res, 409, { code: 'ALREADY_EXISTS', message: 'exists' });
    const { store } = storeWith(liveToken());
    const error = (await store.dispatch(testApi.endpoints.save.initiate({ path: 'x' })).unwrap().catch((e: ApiError) => e)) as ApiError;
    expect(error).toMatchObject({ status: 409, message: 'Request failed with status code 409', errorCode: 'ALREADY_EXISTS' });
  });

  it('reports "Network Error" when the server cannot be reached', async () => {
    setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: 'http://127.0.0.1:1/api' }));
    const { store } = storeWith(liveToken());
    const error = (await store.dispatch(testApi.endpoints.save.initiate({ path: 'x' })).unwrap().catch((e: ApiError) => e)) as ApiError;
    expect(error).toEqual({ status: 'NETWORK_ERROR', message: 'Network Error' });
  });

  it('reports "Request aborted" when the caller aborts', async () => {
    respond = () => undefined; // never answers
    const { store } = storeWith(liveToken());
    const call = store.dispatch(testApi.endpoints.save.initiate({ path: 'slow' }));
    await waitFor(() => server.requests.length === 1);
    call.abort();
    const result = await call;
    expect('error' in result && result.error).toMatchObject({ message: expect.stringMatching(/abort/i) });
  });

  it('gives up after 20000 ms with the time-out message', async () => {
    respond = () => undefined; // never answers
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      const { store } = storeWith(liveToken());
      const call = store.dispatch(testApi.endpoints.save.initiate({ path: 'slow' })).unwrap();
      let settled = false;
      const outcome = call.then(
        () => 'answered',
        (error: ApiError) => error,
      );
      void outcome.then(() => (settled = true));
      await jest.advanceTimersByTimeAsync(19999);
      expect(settled).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(await outcome).toEqual({ status: 'TIMEOUT', message: 'Request did not complete within 20000 ms' });
    } finally {
      jest.useRealTimers();
    }
  });

  it('raises error.errorSendingData when an onboarding call fails', async () => {
    respond = (_req, res) => json(res, 500, { code: 'INTERNAL_ERROR' });
    const { store } = storeWith(liveToken());
    await store.dispatch(testApi.endpoints.saveOnboarding.initiate({ path: 'onboarding-management/register' }));
    expect(store.getState().session.error).toBe('error.errorSendingData');
  });
});

describe('session expiry on a failed request', () => {
  it('with an expired token: error.sessionExpired, stored session cleared, sent to signUp', async () => {
    respond = (_req, res) => json(res, 401, { code: 'TOKEN_EXPIRED' });
    const token = expiredToken();
    saveItem(StorageKey.JWT, token);
    saveItem(StorageKey.CURRENT_PAGE, 'personal-info');
    saveItem(StorageKey.LOCALE, 'es');
    const { store, navigate } = storeWith(token);
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'x' }));
    expect(store.getState().session.error).toBe('error.sessionExpired');
    expect(store.getState().session.authorizationToken).toBeNull();
    expect(loadItem(StorageKey.JWT)).toBeUndefined();
    expect(loadItem(StorageKey.CURRENT_PAGE)).toBeUndefined();
    expect(loadItem(StorageKey.LOCALE)).toBe('es');
    expect(navigate).toHaveBeenCalledWith('/signUp');
  });

  it('with a live token a failure is only a failure', async () => {
    respond = (_req, res) => json(res, 500, {});
    const { store, navigate } = storeWith(liveToken());
    await store.dispatch(testApi.endpoints.save.initiate({ path: 'x' }));
    expect(store.getState().session.error).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 2000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
