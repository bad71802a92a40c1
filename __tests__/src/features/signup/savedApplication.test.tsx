// A reload of a wizard step reads the application from the server before drawing the step: what the server
// saved shows even when the browser's copy (USER_FORM) missed it.
import { screen } from '@testing-library/react';
import { setRuntimeConfig } from '../../../../src/config';
import { initialSessionState } from '../../../../src/features/session/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { liveToken } from '../../tokens';

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url.endsWith('/onboarding-management-private/application')) {
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

it("fills a reloaded step with the server's answers, asked once per page load", async () => {
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
  const { store, router, user } = renderApp('/personal-info', { state: { session: { ...initialSessionState, authorizationToken: liveToken() } } });
  expect(await screen.findByLabelText('First name')).toHaveValue('Lucía');
  expect(screen.getByLabelText('Date of birth')).toHaveValue('14/03/1990');
  expect(store.getState().form.firstSurname).toBe('Martín');

  // Another step of the same page load does not ask again.
  await router.navigate('/contact-phone');
  await screen.findByLabelText('Mobile number');
  await user.click(screen.getByRole('link', { name: 'Back' }));
  await screen.findByLabelText('First name');
  expect(server.requests.filter((request) => request.url.endsWith('/application'))).toHaveLength(1);
});
