// A wizard step reloaded once the application is signed (in another tab, on another device): the server shows
// the token the status only, and the applicant lands on the end of the journey instead of a step.
import { screen, waitFor } from '@testing-library/react';
import { setRuntimeConfig } from '../../../../src/config';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { liveToken } from '../../tokens';

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url.endsWith('/onboarding-management-private/application')) return json(res, 200, { id: 'application-1', status: 'pending-review' });
    json(res, 409, { code: 'APPLICATION_CLOSED', message: 'This application can no longer change', currentStep: 'welcome' });
  });
});
afterAll(() => server.close());

it('sends a reloaded step of a signed application to /welcome, and ends the session there', async () => {
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
  const { store, router } = renderApp('/personal-info', { state: { session: { ...initialSessionState, authorizationToken: liveToken() } } });
  await waitFor(() => expect(router.state.location.pathname).toBe('/welcome'), { timeout: 5000 });
  expect(await screen.findByText('Your contract is signed and your application is with our team.')).toBeInTheDocument();
  expect(screen.queryByLabelText('First name')).not.toBeInTheDocument();
  await waitFor(() => expect(store.getState().session.authorizationToken).toBeFalsy());
});
