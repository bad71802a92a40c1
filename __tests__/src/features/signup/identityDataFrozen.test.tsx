// The personal data screen once the identity check has started: the server keeps the data the check compared,
// and the screen says why instead of blaming the connection.
import { screen } from '@testing-library/react';
import { setRuntimeConfig } from '../../../../src/config';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { liveToken } from '../../tokens';

const PERSON = { firstName: 'Lucía', firstSurname: 'Martín', secondSurname: 'Núñez', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '14/03/1990' };
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
        answers: PERSON,
        maskedEmail: 'l***@example.com',
      });
    }
    if (request.url.endsWith('/onboarding-management-private/personal-info')) {
      return json(res, 409, { code: 'IDENTITY_DATA_FROZEN', message: 'The identity data were checked already and can no longer change' });
    }
    json(res, 401, { code: 'NO_SESSION' });
  });
});
afterAll(() => server.close());

it('says that checked identity data can no longer change, and keeps the screen', async () => {
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
  const { user, router } = renderApp('/personal-info', { state: { session: { ...initialSessionState, authorizationToken: liveToken() } } });
  const name = await screen.findByLabelText('First name');
  expect(name).toHaveValue('Lucía');
  await user.clear(name);
  await user.type(name, 'Lucas');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
  expect(await screen.findByText(/We have already checked your identity with these details/)).toBeInTheDocument();
  expect(screen.queryByText(/check your connection/)).not.toBeInTheDocument();
  expect(router.state.location.pathname).toBe('/personal-info');
});
