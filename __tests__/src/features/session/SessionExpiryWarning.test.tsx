import { screen, waitFor, within } from '@testing-library/react';
import { setRuntimeConfig } from '../../../../src/config';
import { initialSessionState } from '../../../../src/features/session/sessionSlice';
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
beforeEach(() => {
  localStorage.clear();
  server.requests.length = 0;
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api`, sessionWarningSeconds: 60 }));
});

const expiringIn = (seconds: number) => ({ session: { ...initialSessionState, authorizationToken: tokenExpiringAt(Math.floor(Date.now() / 1000) + seconds) } });

describe('the session expiry warning', () => {
  it('warns before the token expires; continuing renews it with the current token', async () => {
    const { store, user } = renderApp('/personal-info', { state: expiringIn(20) });
    const dialog = await screen.findByRole('alertdialog', { name: 'Are you still there?' });
    expect(dialog).toHaveTextContent(/your session will end in (20|19|18) seconds/);
    const oldToken = store.getState().session.authorizationToken;
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(store.getState().session.authorizationToken).toBe(renewed);
    expect(server.requests.find((r) => r.url.endsWith('/session/renew'))?.headers.authorization).toBe(`Bearer ${oldToken}`);
    expect(screen.getByRole('heading', { level: 1, name: 'About you' })).toBeInTheDocument();
  });

  it('says nothing while the token has time left', async () => {
    renderApp('/personal-info', { state: expiringIn(600) });
    await screen.findByRole('heading', { level: 1, name: 'About you' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('left to run out, it ends the session: session-expired message and signUp', async () => {
    const { router } = renderApp('/personal-info', { state: expiringIn(2), locale: 'es' });
    expect(await screen.findByRole('alertdialog', { name: '¿Sigues ahí?' })).toBeInTheDocument();
    const expired = await screen.findByText(/Por tu seguridad, tu sesión ha caducado/, {}, { timeout: 5000 });
    expect(expired).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/signUp'));
  });
});
