// A reload of a wizard step reads the application from the server before drawing the step: the answers come
// from there (the browser keeps none), once per page load.
import { screen, waitFor } from '@testing-library/react';
import { setRuntimeConfig } from '../../../../src/config';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { liveToken } from '../../tokens';

let server: Awaited<ReturnType<typeof startTestServer>>;
/** How many reads of the application fail before one is answered. */
let failuresLeft = 0;
/** Whether the server refuses the session itself. */
let refused = false;

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url.endsWith('/onboarding-management-private/application')) {
      if (refused) return json(res, 401, { code: 'INVALID_TOKEN', message: 'The onboarding session is not valid' });
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        return json(res, 503, { code: 'UNAVAILABLE' });
      }
      return json(res, 200, {
        id: 'application-1',
        status: 'in-progress',
        personType: null,
        currentStep: 'contact-phone',
        completedSteps: ['signUp', 'reg-code', 'personal-info'],
        answers: { firstName: 'Lucía', firstSurname: 'Martín', birthDate: '14/03/1990', residenceCountry: 'ES' },
        maskedEmail: 'l***@example.com',
      });
    }
    json(res, 401, { code: 'NO_SESSION' });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  failuresLeft = 0;
  refused = false;
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

const reads = () => server.requests.filter((request) => request.url.endsWith('/application')).length;

it("fills a reloaded step with the server's answers, asked once per page load", async () => {
  const { store, router, user } = renderApp('/personal-info', { state: { session: { ...initialSessionState, authorizationToken: liveToken() } } });
  expect(await screen.findByLabelText('First name')).toHaveValue('Lucía');
  expect(screen.getByLabelText('Date of birth')).toHaveValue('14/03/1990');
  expect(screen.getByLabelText('First surname')).toHaveValue('Martín');
  expect(JSON.stringify(store.getState().form)).not.toContain('Martín');

  // Another step of the same page load does not ask again.
  await router.navigate('/contact-phone');
  await screen.findByLabelText('Mobile number');
  await user.click(screen.getByRole('link', { name: 'Back' }));
  await screen.findByLabelText('First name');
  expect(reads()).toBe(1);
});

it('says so when the application cannot be read, draws no empty step, and reads it again on Try again', async () => {
  failuresLeft = 1;
  const { user } = renderApp('/personal-info', { state: { session: { ...initialSessionState, authorizationToken: liveToken() } } });
  expect(await screen.findByRole('alert')).toHaveTextContent(/We could not load your application.*Check your connection and try again/);
  await waitFor(() => expect(screen.getByRole('heading', { level: 1, name: 'We could not load your application' })).toHaveFocus());
  expect(screen.queryByLabelText('First name')).toBeNull();
  await user.click(screen.getByRole('button', { name: 'Try again' }));
  expect(await screen.findByLabelText('First name')).toHaveValue('Lucía');
  expect(reads()).toBe(2);
});

it('forgets the application when the journey ends: the next session of the tab reads its own', async () => {
  const { store, router } = renderApp('/personal-info', { state: { session: { ...initialSessionState, authorizationToken: liveToken() } } });
  await screen.findByLabelText('First name');
  await router.navigate('/forbidden-user');
  await screen.findByRole('heading', { name: "We can't open your account" });
  await waitFor(() => expect(Object.keys(store.getState().api.queries).filter((key) => key.startsWith('getApplication'))).toEqual([]));
});

it('a session the server refuses ends as an expired one: back to /signUp, no Try again that cannot help', async () => {
  refused = true;
  const { router, store } = renderApp('/personal-info', { state: { session: { ...initialSessionState, authorizationToken: liveToken() } } });
  await waitFor(() => expect(router.state.location.pathname).toBe('/signUp'));
  expect(store.getState().session.authorizationToken).toBeNull();
  expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
});
