import { screen, waitFor, within } from '@testing-library/react';
import { buildDiagnosticsDump, stateFromDiagnosticsDump } from '../../../src/app/diagnostics';
import { setRuntimeConfig } from '../../../src/config';
import { initialSessionState } from '../../../src/state/sessionSlice';
import { loadItem, StorageKey } from '../../../src/storage/browserStorage';
import { json, startTestServer } from '../services/testServer';
import { testRuntimeConfig } from '../testConfig';
import { expiredToken, liveToken } from '../tokens';
import { renderApp } from './renderApp';

let server: Awaited<ReturnType<typeof startTestServer>>;
let authenticated = false;

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url.endsWith('/user-authorization-management/logout')) {
      authenticated = false;
      return json(res, 204, {});
    }
    if (request.url.endsWith('/user-authorization-management/get-session')) {
      return authenticated ? json(res, 200, { authenticated: true }) : json(res, 401, { code: 'NO_SESSION' });
    }
    if (request.url.endsWith('/onboarding-management-private/application')) {
      return json(res, 200, { id: 'a-1', status: 'in-progress', personType: 'company', currentStep: 'royal-owners', completedSteps: [], answers: { cif: 'B12345674' }, maskedEmail: 'a***@example.es' });
    }
    json(res, 404, { code: 'NOT_FOUND' });
  });
});
afterAll(() => server.close());
/** The hint the server sets beside the session cookie at login (not HttpOnly: the app reads it). */
const signedIn = () => {
  document.cookie = 'divilo_signed_in=1; path=/';
};
beforeEach(() => {
  localStorage.clear();
  document.cookie = 'divilo_signed_in=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  authenticated = false;
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });
const session = (authorizationToken: string | null) => ({ session: { ...initialSessionState, authorizationToken } });

describe('routes', () => {
  it('/ goes to /login with the query', async () => {
    const { router } = renderApp('/?promo=SPRING');
    expect(await heading('Log in')).toBeInTheDocument();
    expect(router.state.location).toMatchObject({ pathname: '/login', search: '?promo=SPRING' });
  });

  it('an unknown path goes to signUp', async () => {
    const { router } = renderApp('/no/such/page');
    expect(await heading('Open your Divilo account')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signUp');
  });
});

describe('guards', () => {
  it('an onboarding step without a token goes to signUp, carrying the query', async () => {
    const { router } = renderApp('/royal-owners?promotionalCode=AUTONOMO25');
    expect(await heading('Open your Divilo account')).toBeInTheDocument();
    expect(router.state.location).toMatchObject({ pathname: '/signUp', search: '?promotionalCode=AUTONOMO25' });
  });

  it('with a live token shows the step and remembers it', async () => {
    const { store } = renderApp('/royal-owners', { state: session(liveToken()) });
    expect(await heading('Beneficial owners')).toBeInTheDocument();
    expect(store.getState().session.currentPage).toBe('royal-owners');
    expect(loadItem(StorageKey.CURRENT_PAGE)).toBe('royal-owners');
  });

  it('with an expired token shows the translated session-expired modal on signUp; accepting clears it', async () => {
    const { router, store, user } = renderApp('/personal-info', { state: session(expiredToken()), locale: 'es' });
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Por tu seguridad, tu sesión ha caducado');
    expect(router.state.location.pathname).toBe('/signUp');
    expect(store.getState().session.authorizationToken).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Aceptar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(store.getState().session.error).toBeNull();
  });

  it('the login SMS step is not held to the onboarding token: its own flow state lets it show', async () => {
    const { router } = renderApp('/login/confirm-telephone', {
      state: { auth: { signInResult: { phone: '***', token: 't', status: 200, resendAvailableAt: null }, loginProblem: null, recovery: null, signingIn: false } },
    });
    expect(await heading("Confirm it's you")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login/confirm-telephone');
  });
});

describe('start-up', () => {
  it('a browser that already holds a customer session is sent to the main app', async () => {
    authenticated = true;
    signedIn();
    const { navigation } = renderApp('/login');
    await waitFor(() => expect(navigation.leaveApp).toHaveBeenCalledWith('http://localhost:8080/app'));
  });

  it('a browser that never signed in does not ask for a session: no 401 on /signUp', async () => {
    server.requests.length = 0;
    const { navigation, store } = renderApp('/signUp');
    expect(await heading('Open your Divilo account')).toBeInTheDocument();
    // A query is registered in the store as soon as a screen subscribes to it: none was.
    expect(Object.keys(store.getState().api.queries)).not.toContainEqual(expect.stringContaining('getSession'));
    expect(server.requests.map((request) => request.url)).not.toContainEqual(expect.stringContaining('get-session'));
    expect(navigation.leaveApp).not.toHaveBeenCalled();
  });

  it('a browser whose session has ended asks once and stays', async () => {
    signedIn();
    server.requests.length = 0;
    const { navigation } = renderApp('/signUp');
    expect(await heading('Open your Divilo account')).toBeInTheDocument();
    await waitFor(() => expect(server.requests.map((request) => request.url)).toContainEqual(expect.stringContaining('get-session')));
    expect(navigation.leaveApp).not.toHaveBeenCalled();
  });

  it('on /logout asks no session first: it signs out, then goes to login in place of the logout entry', async () => {
    authenticated = true;
    server.requests.length = 0;
    const { navigation, router } = renderApp('/logout');
    expect(await heading('Log in')).toBeInTheDocument();
    const calls = server.requests.map((r) => r.url.split('/').pop());
    expect(calls.indexOf('logout')).toBeLessThan(calls.indexOf('get-session') === -1 ? Infinity : calls.indexOf('get-session'));
    expect(calls[0]).toBe('logout');
    expect(navigation.navigate).toHaveBeenCalledWith('/login', { replace: true, state: { loggedOut: true } });
    expect(router.state.historyAction).toBe('REPLACE');
    // The login page says the customer has logged out.
    expect(await screen.findByRole('status')).toHaveTextContent('You have logged out.');
    expect(navigation.leaveApp).not.toHaveBeenCalled();
  });
});

describe('support diagnostics', () => {
  it('a store built from the dump shows the same screen the customer saw', async () => {
    const token = liveToken();
    const original = renderApp('/royal-owners', { state: session(token) });
    await heading('Beneficial owners');
    const seen = screen.getByRole('main').textContent;
    const dump = buildDiagnosticsDump(original.store.recorder, original.store.getState());
    expect(dump).not.toContain(token);
    original.unmount();

    const replayedState = stateFromDiagnosticsDump(dump) as Parameters<typeof renderApp>[1] extends infer O ? O extends { state?: infer S } ? S : never : never;
    const page = (replayedState as { session: { currentPage: string } }).session.currentPage;
    // The dump redacts the token, so support staff replay it with one of their own.
    renderApp(`/${page}`, { state: { ...replayedState, ...session(liveToken()) } });
    await heading('Beneficial owners');
    expect(screen.getByRole('main').textContent).toBe(seen);
  });
});
