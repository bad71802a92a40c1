import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setRuntimeConfig } from '../../../../src/config';
import { initialSessionState, sessionStarted } from '../../../../src/features/session/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { tokenExpiringAt } from '../../tokens';

let server: Awaited<ReturnType<typeof startTestServer>>;
const renewed = tokenExpiringAt(Math.floor(Date.now() / 1000) + 3600);

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url.endsWith('/session/renew')) return json(res, 200, { token: renewed, expiresIn: 1800 });
    json(res, 401, { code: 'NO_SESSION' });
  });
});
afterAll(() => server.close());
afterEach(() => jest.useRealTimers());
// The page's clock is Jest's (timers and Date.now): the countdown moves only when a test moves it. Network I/O
// and promises stay real, so the renewal really reaches the test server.
beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  localStorage.clear();
  server.requests.length = 0;
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api`, sessionWarningSeconds: 60 }));
});

const expiringIn = (seconds: number) => ({ session: { ...initialSessionState, authorizationToken: tokenExpiringAt(Math.floor(Date.now() / 1000) + seconds) } });

/** Moves the page's clock on by `ms`, running what falls due. */
const elapse = (ms: number) => act(() => jest.advanceTimersByTime(ms));

/**
 * The wizard's page, ready with a session far from its end; then, with the clock on a whole second, a token that
 * ends `seconds` later. (Waiting for the page moves Jest's clock by an amount that depends on the machine: from
 * here on, only the test moves it.)
 */
async function sessionEndingIn(seconds: number, locale: 'en' | 'es' = 'en') {
  const view = renderApp('/personal-info', { state: expiringIn(3600), locale });
  await screen.findByRole('heading', { level: 1 });
  jest.setSystemTime(Math.ceil(Date.now() / 1000) * 1000 + 1000);
  act(() => {
    view.store.dispatch(sessionStarted({ token: tokenExpiringAt(Date.now() / 1000 + seconds) }));
  });
  return view;
}

describe('the session expiry warning', () => {
  it('warns before the token expires and counts down; continuing renews it with the current token', async () => {
    const { store } = await sessionEndingIn(20);
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    elapse(0);
    const dialog = screen.getByRole('alertdialog', { name: 'Are you still there?' });
    expect(dialog).toHaveTextContent('your session will end in 20 seconds');
    elapse(5000);
    expect(dialog).toHaveTextContent('your session will end in 15 seconds');
    const oldToken = store.getState().session.authorizationToken;
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(store.getState().session.authorizationToken).toBe(renewed);
    expect(server.requests.find((r) => r.url.endsWith('/session/renew'))?.headers.authorization).toBe(`Bearer ${oldToken}`);
    expect(screen.getByRole('heading', { level: 1, name: 'About you' })).toBeInTheDocument();
  });

  it('says nothing until the warning time before the end, then warns', async () => {
    await sessionEndingIn(600);
    // The warning is due 60 s before the end: at 540 s.
    elapse(539_999);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    elapse(1);
    expect(screen.getByRole('alertdialog', { name: 'Are you still there?' })).toHaveTextContent('your session will end in 60 seconds');
  });

  it('left to run out, it ends the session: session-expired message and signUp', async () => {
    const { router } = await sessionEndingIn(2, 'es');
    elapse(0);
    expect(screen.getByRole('alertdialog', { name: '¿Sigues ahí?' })).toBeInTheDocument();
    expect(screen.queryByText(/Por tu seguridad, tu sesión ha caducado/)).not.toBeInTheDocument();
    elapse(2000);
    expect(await screen.findByText(/Por tu seguridad, tu sesión ha caducado/)).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/signUp'));
  });
});
