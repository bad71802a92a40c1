// The activity pickers through the whole app: an applicant types their activity in their own words (or its code as
// the tax forms write it), sees it first in the list, picks it, and the step sends its code.
import { screen, waitFor, within } from '@testing-library/react';
import type { RootState } from '../../../../src/app/store';
import { setRuntimeConfig } from '../../../../src/config';
import { initialFormState } from '../../../../src/state/formSlice';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import type { ApplicationView } from '../../../../src/features/signup/onboardingApi';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer, type RecordedRequest } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { liveToken } from '../../tokens';

const FREELANCE = 'onboarding-management-private/legalperson/freelance';
const LEGAL_INFO = 'onboarding-management-private/legalperson/company/legal-info';
const APPLICATION = 'onboarding-management-private/application';

let server: Awaited<ReturnType<typeof startTestServer>>;
/** The application the server holds for the test's applicant (midWizard). */
let application: ApplicationView;
const pathOf = (request: RecordedRequest) => request.url.split('?')[0].replace(/^\/api\//, '');
const requestsTo = (path: string) => server.requests.filter((request) => pathOf(request) === path);

/** The application as saved so far; every step's save answers as the server does: the next step, with what was sent saved. */
beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (pathOf(request) === APPLICATION) return json(res, 200, application);
    const next = { [FREELANCE]: 'fiscal-address', [LEGAL_INFO]: 'about-company-address' }[pathOf(request)];
    if (!next) return json(res, 404, { code: 'NOT_FOUND' });
    const personType = next === 'fiscal-address' ? 'freelance' : 'company';
    json(res, 200, { next, application: { id: 'a-1', status: 'in-progress', personType, currentStep: next, completedSteps: [], answers: request.body, maskedEmail: 'a***@example.com' } });
  });
});
afterAll(() => server.close());
beforeEach(() => {
  localStorage.clear();
  server.requests.length = 0;
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

/** An applicant signed up with a DNI, on the activity step of their path, with the application the server holds. */
function midWizard(personType: 'freelance' | 'company', saved: Record<string, unknown> = {}): Partial<RootState> {
  const signedUp = { idType: 'nif', id: '12345678Z' } as const;
  const currentStep = personType === 'freelance' ? 'your-activity' : 'about-company-info';
  application = { id: 'a-1', status: 'in-progress', personType, currentStep, completedSteps: [], answers: { ...signedUp, ...saved }, maskedEmail: 'a***@example.com' };
  return {
    session: { ...initialSessionState, authorizationToken: liveToken() },
    form: { ...initialFormState, ...signedUp, _persist: { version: -1, rehydrated: true } },
  };
}

/** The options the activity picker lists (the legal form's select has options of its own). */
const options = () => within(screen.getByRole('listbox')).getAllByRole('option');

describe('/your-activity (IAE)', () => {
  it('finds "plumber" — in no Spanish title — as the plumbing epígrafe, first, and sends its code', async () => {
    const { user, router } = renderApp('/your-activity', { state: midWizard('freelance') });
    const activity = await screen.findByRole('combobox', { name: 'Activity (IAE epigraph)' });
    await user.type(activity, 'plumber');
    await waitFor(() => expect(options()[0]).toHaveTextContent('1.504.2Instalaciones de fontanería'));
    // The grupo says what the epígrafe belongs to.
    expect(within(options()[0]).getByText('Instalaciones y montajes')).toBeInTheDocument();
    await user.click(options()[0]);
    expect(activity).toHaveValue('1.504.2 Instalaciones de fontanería');
    await user.type(screen.getByLabelText('Date you started the activity'), '01/02/2024');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/fiscal-address'));
    expect(requestsTo(FREELANCE)[0].body).toMatchObject({ selfEmployedId: '12345678Z', selfEmployedActivity: '1.504.2', selfEmployedDate: '01/02/2024' });
  });

  it('takes the epígrafe as the tax forms write it, without the section or the dot', async () => {
    const { user } = renderApp('/your-activity', { state: midWizard('freelance'), locale: 'es' });
    const activity = await screen.findByRole('combobox', { name: 'Actividad (epígrafe del IAE)' });
    await user.type(activity, '6732');
    expect(options()).toHaveLength(1);
    expect(options()[0]).toHaveTextContent('1.673.2otros cafés y bares');
    await user.keyboard('{Enter}');
    expect(activity).toHaveValue('1.673.2 otros cafés y bares');
    await user.type(screen.getByLabelText('Fecha de inicio de la actividad'), '01/02/2024');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    await waitFor(() => expect(requestsTo(FREELANCE)).toHaveLength(1));
    expect(requestsTo(FREELANCE)[0].body).toMatchObject({ selfEmployedActivity: '1.673.2' });
  });
});

describe('/about-company-info (CNAE-2025)', () => {
  it('finds "creadores de contenido" as class 60.39, first, in Spanish, and sends its code', async () => {
    const { user, router } = renderApp('/about-company-info', { state: midWizard('company', { cif: 'B12345674' }), locale: 'es' });
    const cnae = await screen.findByRole('combobox', { name: 'Actividad principal (CNAE-2025)' });
    await user.type(cnae, 'creadores de contenido');
    await waitFor(() => expect(options()[0]).toHaveTextContent('60.39Otras actividades de distribución de contenidos'));
    await user.click(options()[0]);
    await user.type(screen.getByLabelText('Denominación social'), 'Contenidos Lucía S.L.');
    await user.selectOptions(screen.getByLabelText('Forma jurídica'), 'SL');
    await user.type(screen.getByLabelText('Fecha de constitución'), '10/01/2023');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/about-company-address'));
    expect(requestsTo(LEGAL_INFO)[0].body).toMatchObject({ cnae: '60.39', legalForm: 'SL', socialDenomination: 'Contenidos Lucía S.L.' });
  });

  it('finds "software" and "influencer" on the English page, and the class by its code without the dot', async () => {
    const { user } = renderApp('/about-company-info', { state: midWizard('company', { cif: 'B12345674' }) });
    const cnae = await screen.findByRole('combobox', { name: 'Main activity (CNAE-2025)' });
    await user.type(cnae, 'software');
    await waitFor(() => expect(options()[0]).toHaveTextContent('62.10Computer programming activities'));
    await user.clear(cnae);
    await user.type(cnae, 'influencer');
    await waitFor(() => expect(options()[0]).toHaveTextContent('60.39Other content distribution activities'));
    await user.clear(cnae);
    await user.type(cnae, '6039{Enter}');
    expect(cnae).toHaveValue('60.39 Other content distribution activities');
    await user.type(screen.getByLabelText('Company name'), 'Influence Lab S.L.');
    await user.selectOptions(screen.getByLabelText('Legal form'), 'SL');
    await user.type(screen.getByLabelText('Date of incorporation'), '10/01/2023');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(requestsTo(LEGAL_INFO)).toHaveLength(1));
    expect(requestsTo(LEGAL_INFO)[0].body).toMatchObject({ cnae: '60.39' });
  });
});
