import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { altchaProvider } from '../../../../server/services/captcha/altcha';
import { areaLoaders } from '../../../../src/app/screens/areas';
import type { RootState } from '../../../../src/app/store';
import { setRuntimeConfig } from '../../../../src/config';
import { initialFormState, type OnboardingForm } from '../../../../src/state/formSlice';
import { onboardingApi } from '../../../../src/features/signup/onboardingApi';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer, type RecordedRequest } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { liveToken } from '../../tokens';

// The API's part is played by a local server that answers like the real one: the product's own captcha
// provider, and each step's `200 { next, application }` or the refusal a test gives it.
const captcha = altchaProvider({
  hmacSecret: 'test-secret',
  hmacKeySecret: 'test-key-secret',
  cost: 20,
  counterRange: [2, 8],
  ttlSeconds: 120,
  rememberSolved: async () => true,
});

type Answer = (request: RecordedRequest) => [number, unknown];

let server: Awaited<ReturnType<typeof startTestServer>>;
/** What the API answers at each path under /api/; the captcha and the session check answer by themselves unless given. */
let answers: Record<string, Answer>;

const pathOf = (request: RecordedRequest) => request.url.split('?')[0].replace(/^\/api\//, '');
const requestsTo = (path: string) => server.requests.filter((request) => pathOf(request) === path);

async function answer(request: RecordedRequest): Promise<[number, unknown]> {
  const path = pathOf(request);
  const given = answers[path];
  if (given) return given(request);
  if (path === 'user-authorization-management/get-session') return [401, { code: 'NO_SESSION' }];
  if (path === 'captcha/challenge') return [200, await captcha.createChallenge!()];
  if (path === 'captcha/verify') {
    const token = new URL(request.url, 'http://x').searchParams.get('response') ?? '';
    return [200, { success: (await captcha.verify(token, {})).success }];
  }
  return [404, { code: 'NOT_FOUND', message: `No answer for ${path}` }];
}

beforeAll(async () => {
  // The wizard's screens are a lazy area, loaded (and compiled, the first time) when a route first needs them:
  // loaded here, so the first test's queries wait for a render, not for that (seconds on a loaded machine,
  // past asyncUtilTimeout).
  await areaLoaders.onboarding();
  server = await startTestServer((request, res) =>
    void answer(request).then(
      ([status, body]) => json(res, status, body),
      (error: Error) => json(res, 500, { code: 'TEST_SERVER_ERROR', message: error.message }),
    ),
  );
});
afterAll(() => server.close());
beforeEach(() => {
  localStorage.clear();
  server.requests.length = 0;
  answers = {};
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

type PersonType = 'freelance' | 'company' | null;

/** The application as the API shows it, with these answers. */
function applicationWith(next: string, answersSaved: Record<string, unknown>, personType: PersonType = null) {
  return {
    id: 'application-1',
    status: 'in-progress',
    personType,
    currentStep: next,
    completedSteps: ['signUp', 'reg-code'],
    answers: answersSaved,
    maskedEmail: 'a***@example.com',
  };
}

/** A step's save, as the API answers it: the next route and the application with its answers. */
function saved(next: string, answersSaved: Record<string, unknown>, personType: PersonType = null): [number, unknown] {
  return [200, { next, application: applicationWith(next, answersSaved, personType) }];
}

const APPLICATION = 'onboarding-management-private/application';

/**
 * An applicant in the middle of the wizard: a live onboarding token, the application the API answers with the
 * answers saved so far, and the browser's form (who signed up, drafts) as storage held it.
 */
function midWizard(token: string, { personType = null, ...answersSaved }: Record<string, unknown> & { personType?: PersonType } = {}, form: Partial<OnboardingForm> = {}): Partial<RootState> {
  answers[APPLICATION] = () => [200, applicationWith('personal-info', answersSaved, personType)];
  return {
    session: { ...initialSessionState, authorizationToken: token },
    form: { ...initialFormState, ...form, _persist: { version: -1, rehydrated: true } },
  };
}

/** The application the page read or the last save answered. */
const applicationIn = (store: { getState(): RootState }) => onboardingApi.endpoints.getApplication.select()(store.getState()).data;

const PERSONAL_INFO = 'onboarding-management-private/personal-info';
const CORPORATE_TAX = 'onboarding-management-private/legalperson/company/tax';

async function fillPersonalInfo(user: UserEvent) {
  await user.type(await screen.findByLabelText('First name'), 'Ana');
  await user.type(screen.getByLabelText('First surname'), 'García');
  await user.type(screen.getByRole('combobox', { name: 'Country of birth' }), 'spain{Enter}');
  await user.type(screen.getByLabelText('Date of birth'), '24/05/1988');
}

describe('/signUp', () => {
  it('submitted empty, shows what is missing next to each field and moves focus to the e-mail', async () => {
    const { user } = renderApp('/signUp');
    await user.click(await screen.findByRole('button', { name: 'Send me the code' }));
    const email = screen.getByLabelText('E-mail');
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription(expect.stringContaining('This field is required'));
    const id = screen.getByLabelText('DNI or NIE number');
    expect(id).toHaveAttribute('aria-invalid', 'true');
    expect(id).toHaveAccessibleDescription(expect.stringContaining('This field is required'));
    for (const consent of [/privacy policy/, /pre-contract information/]) {
      const box = screen.getByRole('checkbox', { name: consent });
      expect(box).toHaveAttribute('aria-invalid', 'true');
      expect(box).toHaveAccessibleDescription('You need to accept this to continue');
    }
    expect(screen.getByLabelText('Promotional code (optional)')).not.toHaveAttribute('aria-invalid');
    expect(server.requests.filter((request) => pathOf(request).startsWith('captcha') || pathOf(request).includes('register'))).toHaveLength(0);
  });

  it('an ID error goes as soon as the number is right, while still typing, not when the field is left', async () => {
    const { user } = renderApp('/signUp');
    const id = await screen.findByLabelText('DNI or NIE number', {}, { timeout: 20_000 });
    await user.type(id, '12345678A');
    await user.tab();
    await waitFor(() => expect(id).toHaveAccessibleDescription(expect.stringContaining('Enter a valid DNI or NIE')));
    await user.click(id);
    await user.keyboard('{Backspace}Z');
    await waitFor(() => expect(id).not.toHaveAttribute('aria-invalid'));
    expect(id).toHaveFocus();
    expect(id).not.toHaveAccessibleDescription(expect.stringContaining('Enter a valid DNI or NIE'));
  });

  it('a passport asks for the country that issued it, and needs it', async () => {
    const { user } = renderApp('/signUp');
    await screen.findByLabelText('DNI or NIE number');
    expect(screen.queryByRole('combobox', { name: 'Country that issued the passport' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Passport' }));
    const country = await screen.findByRole('combobox', { name: 'Country that issued the passport' });
    expect(screen.getByLabelText('Passport number')).toBeInTheDocument();
    expect(screen.queryByLabelText('DNI or NIE number')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    await waitFor(() => expect(country).toHaveAttribute('aria-invalid', 'true'));
    expect(country).toHaveAccessibleDescription(expect.stringContaining('This field is required'));
  });

  it('takes the promotional code from the link, passes the captcha, registers, keeps the token and opens /reg-code', async () => {
    const token = liveToken();
    answers['onboarding-management/register'] = () => [200, { token, expiresIn: 600, maskedEmail: 'a***@example.com', resendAfterSeconds: 60 }];
    const { user, store, router } = renderApp('/signUp?promo=SUMMER26');
    const promo = await screen.findByLabelText('Promotional code (optional)');
    expect(promo).toHaveValue('SUMMER26');
    expect(promo).toHaveAccessibleDescription('It came with the link you followed.');

    await user.type(screen.getByLabelText('E-mail'), 'ana@example.com');
    // An NIE padded to 8 digits: sent as typed, kept in the canonical spelling the server stores.
    await user.type(screen.getByLabelText('DNI or NIE number'), 'X01082303S');
    await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
    await user.click(screen.getByRole('checkbox', { name: /pre-contract information/ }));
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));

    await screen.findByRole('heading', { name: 'Check your e-mail' }, { timeout: 15_000 });
    expect(router.state.location).toMatchObject({ pathname: '/reg-code', search: '?promo=SUMMER26' });
    expect(store.getState().session.authorizationToken).toBe(token);

    // The captcha pass comes first, bound to the same session id the registration carries.
    const paths = server.requests.map(pathOf);
    expect(paths.indexOf('captcha/verify')).toBeGreaterThan(-1);
    expect(paths.indexOf('captcha/verify')).toBeLessThan(paths.indexOf('onboarding-management/register'));
    const sessionId = store.getState().session.sessionId;
    expect(sessionId).toEqual(expect.any(String));
    expect(new URL(requestsTo('captcha/verify')[0].url, 'http://x').searchParams.get('sessionId')).toBe(sessionId);
    const [register] = requestsTo('onboarding-management/register');
    expect(register.body).toEqual({
      email: 'ana@example.com',
      idType: 'nif',
      id: 'X01082303S',
      privacyPolicy: true,
      precontractualInformation: true,
      promotionalCode: 'SUMMER26',
      promotionalCodeFromParam: true,
      sessionId,
    });
    expect(register.headers.authorization).toBeUndefined();

    expect(store.getState().form).toMatchObject({ email: 'ana@example.com', idType: 'nif', id: 'X1082303S', promotionalCode: 'SUMMER26', promotionalCodeFromParam: true });
    // /reg-code starts where the registration left: the address as typed and the resend countdown.
    expect(screen.getByText('ana@example.com', { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send me a new code' })).toBeDisabled();
    expect(screen.getByText(/You can ask for a new code in (60|59|58) seconds\./)).toBeInTheDocument();
  });

  it('a passport applicant who types another promotional code sends the passport country, and the code is not the link\'s', async () => {
    answers['onboarding-management/register'] = () => [200, { token: liveToken(), expiresIn: 600, maskedEmail: 'b***@example.com', resendAfterSeconds: 60 }];
    const { user, store } = renderApp('/signUp?promo=SUMMER26');
    await user.type(await screen.findByLabelText('E-mail'), 'bea@example.com');
    await user.click(screen.getByRole('radio', { name: 'Passport' }));
    await user.type(screen.getByLabelText('Passport number'), 'XDA123456');
    await user.type(screen.getByRole('combobox', { name: 'Country that issued the passport' }), 'portugal{Enter}');
    await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
    await user.click(screen.getByRole('checkbox', { name: /pre-contract information/ }));
    await user.clear(screen.getByLabelText('Promotional code (optional)'));
    await user.type(screen.getByLabelText('Promotional code (optional)'), 'WINTER1');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));

    await screen.findByRole('heading', { name: 'Check your e-mail' }, { timeout: 15_000 });
    expect(requestsTo('onboarding-management/register')[0].body).toMatchObject({
      idType: 'passport',
      id: 'XDA123456',
      passportExpeditionCountry: 'PT',
      promotionalCode: 'WINTER1',
      promotionalCodeFromParam: false,
    });
    expect(store.getState().form).toMatchObject({ idType: 'passport', passportExpeditionCountry: 'PT', promotionalCode: 'WINTER1', promotionalCodeFromParam: false });
  });

  it('a captcha the server does not pass registers nothing, says the data could not be sent and stays', async () => {
    answers['captcha/verify'] = () => [200, { success: false }];
    const { user, store, router } = renderApp('/signUp');
    await user.type(await screen.findByLabelText('E-mail'), 'ana@example.com');
    await user.type(screen.getByLabelText('DNI or NIE number'), '12345678Z');
    await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
    await user.click(screen.getByRole('checkbox', { name: /pre-contract information/ }));
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));

    expect(await screen.findByRole('alertdialog', {}, { timeout: 15_000 })).toHaveTextContent("We couldn't save your data.");
    expect(requestsTo('captcha/verify')).toHaveLength(1);
    expect(requestsTo('onboarding-management/register')).toHaveLength(0);
    expect(store.getState().session.authorizationToken).toBeNull();
    expect(router.state.location.pathname).toBe('/signUp');
    expect(screen.getByLabelText('E-mail')).toHaveValue('ana@example.com');
  });
});

describe('a step: /personal-info', () => {
  it('Continue saves the values at the step endpoint, keeps the application it answers and opens the next step', async () => {
    const token = liveToken();
    const saving = {
      firstName: 'Ana',
      firstSurname: 'García',
      secondSurname: '',
      nationality: 'ES',
      residenceCountry: 'ES',
      birthCountry: 'ES',
      birthDate: '24/05/1988',
    };
    answers[PERSONAL_INFO] = () => saved('contact-phone', { ...saving, email: 'ana@example.com', reviewNotes: 'not a form field' }, null);
    const { user, store, router } = renderApp('/personal-info', { state: midWizard(token) });
    expect(await screen.findByText('Step 3')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Nationality' })).toHaveValue('Spain');
    expect(screen.getByRole('combobox', { name: 'Country where you live' })).toHaveValue('Spain');
    await fillPersonalInfo(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await screen.findByRole('heading', { name: 'Your mobile phone' });
    expect(router.state.location.pathname).toBe('/contact-phone');
    const [request] = requestsTo(PERSONAL_INFO);
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe(`Bearer ${token}`);
    expect(request.body).toEqual(saving);
    // The next page reads the application the save answered: not asked for again, and none of it in USER_FORM.
    expect(applicationIn(store)).toMatchObject({ answers: { ...saving, email: 'ana@example.com' } });
    expect(requestsTo(APPLICATION)).toHaveLength(1);
    expect(JSON.stringify(store.getState().form)).not.toContain('García');
  });

  it('a field the server refuses shows its translated text next to the field, and the page stays', async () => {
    answers[PERSONAL_INFO] = () => [
      400,
      { code: 'VALIDATION_FAILED', message: 'Some answers are not valid', errors: [{ field: 'birthDate', id: 'validations.adult', values: { age: 18 } }] },
    ];
    const { user, router } = renderApp('/personal-info', { state: midWizard(liveToken()) });
    await fillPersonalInfo(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    expect(await screen.findByText('Must be of legal age (18 or older)')).toBeInTheDocument();
    const birthDate = screen.getByLabelText('Date of birth');
    expect(birthDate).toHaveAttribute('aria-invalid', 'true');
    expect(birthDate).toHaveAccessibleDescription(expect.stringContaining('Must be of legal age (18 or older)'));
    await waitFor(() => expect(birthDate).toHaveFocus());
    expect(screen.getByLabelText('First name')).not.toHaveAttribute('aria-invalid');
    expect(router.state.location.pathname).toBe('/personal-info');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('a failed save shows error.errorSendingData in the global modal and keeps everything typed', async () => {
    answers[PERSONAL_INFO] = () => [500, { code: 'INTERNAL', message: 'Something failed' }];
    const { user, router, store } = renderApp('/personal-info', { state: midWizard(liveToken()) });
    await fillPersonalInfo(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent("We couldn't save your data. Please check your connection and try again.");
    expect(store.getState().session.error).toBe('error.errorSendingData');
    expect(router.state.location.pathname).toBe('/personal-info');
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(screen.getByLabelText('First name')).toHaveValue('Ana');
    expect(screen.getByLabelText('First surname')).toHaveValue('García');
    expect(screen.getByRole('combobox', { name: 'Country of birth' })).toHaveValue('Spain');
    expect(screen.getByLabelText('Date of birth')).toHaveValue('24/05/1988');
  });

  it('a save refused while the database is away says to try again, keeps everything typed, and the same press then saves', async () => {
    let away = true;
    answers[PERSONAL_INFO] = () =>
      away ? [503, { code: 'DATABASE_UNAVAILABLE', message: 'The service is not available right now; try again in a moment' }] : saved('contact-phone', {});
    const { user, router } = renderApp('/personal-info', { state: midWizard(liveToken()) });
    await fillPersonalInfo(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent("We can't reach our service right now, so nothing has been saved yet. What you typed is still here: try again in a moment.");
    await user.click(within(dialog).getByRole('button', { name: 'Accept' }));
    expect(router.state.location.pathname).toBe('/personal-info');
    expect(screen.getByLabelText('First name')).toHaveValue('Ana');

    away = false;
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Your mobile phone' });
    expect(requestsTo(PERSONAL_INFO)).toHaveLength(2);
  });

  it('a step out of order moves to the step the server names', async () => {
    answers[PERSONAL_INFO] = () => [409, { code: 'STEP_OUT_OF_ORDER', message: 'An earlier step is not done yet', currentStep: 'contact-phone' }];
    const { user, router } = renderApp('/personal-info?promo=SUMMER26', { state: midWizard(liveToken()) });
    await fillPersonalInfo(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await screen.findByRole('heading', { name: 'Your mobile phone' });
    expect(router.state.location).toMatchObject({ pathname: '/contact-phone', search: '?promo=SUMMER26' });
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('a step the bank did not send the applicant back to: says so, and moves to the one it did', async () => {
    answers[PERSONAL_INFO] = () => [409, { code: 'STEP_NOT_REOPENED', message: 'The bank did not ask to change this step', currentStep: 'contact-phone' }];
    const { user, router } = renderApp('/personal-info', { state: midWizard(liveToken()) });
    await fillPersonalInfo(user);
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await screen.findByRole('heading', { name: 'Your mobile phone' });
    expect(router.state.location.pathname).toBe('/contact-phone');
    expect(await screen.findByRole('alertdialog')).toHaveTextContent('Divilo asked you to review only some of your details, and this step is not one of them');
  });

  it('speaks Spanish: labels, title, progress and errors', async () => {
    const { user } = renderApp('/personal-info', { locale: 'es', state: midWizard(liveToken()) });
    expect(await screen.findByRole('heading', { name: 'Sobre ti' })).toBeInTheDocument();
    // The path is not chosen yet: the step's number, no total that would change later.
    expect(screen.getByText('Paso 3')).toBeInTheDocument();
    expect(screen.getByLabelText('Fecha de nacimiento')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'País de residencia' })).toHaveValue('España');
    expect(screen.getByRole('link', { name: /Atrás/ })).toHaveAttribute('href', '/reg-code');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    const firstName = screen.getByLabelText('Nombre');
    await waitFor(() => expect(firstName).toHaveFocus());
    expect(firstName).toHaveAccessibleDescription(expect.stringContaining('Este campo es obligatorio'));
    expect(requestsTo(PERSONAL_INFO)).toHaveLength(0);
  });
});

describe('a reload keeps what was typed and not saved', () => {
  /** A reload: a new page started from what storage held (the persisted form), the same token. */
  const reload = (path: string, token: string, form: OnboardingForm) =>
    renderApp(path, { state: { session: { ...initialSessionState, authorizationToken: token }, form: { ...form, _persist: { version: -1, rehydrated: true } } } });

  it('/personal-info comes back with the answers typed, and saving drops the draft', async () => {
    const token = liveToken();
    // Saved before: where and when the applicant was born; typed now and not saved: the names.
    const first = renderApp('/personal-info', { state: midWizard(token, { birthCountry: 'ES', birthDate: '24/05/1988' }) });
    await first.user.type(await screen.findByLabelText('First name'), 'Ana');
    await first.user.type(screen.getByLabelText('First surname'), 'García');
    await waitFor(() => expect(first.store.getState().form.drafts['personal-info']).toMatchObject({ firstName: 'Ana', firstSurname: 'García' }));
    const kept = first.store.getState().form;
    first.unmount();

    answers[PERSONAL_INFO] = (request) => saved('contact-phone', request.body as Record<string, unknown>);
    const again = reload('/personal-info', token, kept);
    expect(await screen.findByLabelText('First name')).toHaveValue('Ana');
    expect(screen.getByLabelText('First surname')).toHaveValue('García');
    expect(screen.getByLabelText('Date of birth')).toHaveValue('24/05/1988');
    await again.user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('heading', { name: 'Your mobile phone' });
    expect(requestsTo(PERSONAL_INFO)[0].body).toMatchObject({ firstName: 'Ana', firstSurname: 'García', birthDate: '24/05/1988' });
    expect(again.store.getState().form.drafts).not.toHaveProperty('personal-info');
  });

  it('/corporate-tax shows the return already received after a reload, and Continue needs no new upload', async () => {
    const token = liveToken();
    const key = 'model200/5b0e6c1e-2f4f-4c55-9a5e-1d7c1b7f0c11.pdf';
    answers['onboarding-management-private/documents'] = () => [200, { documents: [{ kind: 'model200', key, size: 48_000, checkedAt: '2026-11-27T10:00:00Z' }] }];
    const { form } = midWizard(token, { personType: 'company', foundedDate: '01/01/2015' }, { drafts: { 'corporate-tax': { model200: key } } });
    answers[CORPORATE_TAX] = (request) => saved('about-company-numbers', request.body as Record<string, unknown>, 'company');
    const { user } = reload('/corporate-tax', token, form!);
    expect(await screen.findByText(/Document received/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(requestsTo(CORPORATE_TAX)).toHaveLength(1));
    expect(requestsTo(CORPORATE_TAX)[0].body).toEqual({ model200: key });
  });

  it('keeps no draft of a code or a password, and a draft in storage cannot put one there', async () => {
    const token = liveToken();
    const { user, store, unmount } = renderApp('/divilo-password', { state: midWizard(token) });
    const inputs = await screen.findAllByLabelText(/password/i, { selector: 'input' });
    await user.type(inputs[0], 'Secret-Pass-2026!');
    expect(store.getState().form.drafts).toEqual({});
    unmount();
    // A draft someone put in storage by hand: its secret fields are not taken.
    const planted = { ...initialFormState, drafts: { 'reg-code': { code: '123456' }, 'personal-info': { firstName: 'Eva', diviloPassword: 'x', verificationEmailToken: '1' } } };
    const again = reload('/personal-info', token, planted);
    expect(await screen.findByLabelText('First name')).toHaveValue('Eva');
    await again.user.type(screen.getByLabelText('First surname'), 'Ruiz');
    await waitFor(() => expect(again.store.getState().form.drafts['personal-info']).toMatchObject({ firstSurname: 'Ruiz' }));
    expect(again.store.getState().form.drafts['personal-info']).not.toHaveProperty('diviloPassword');
    expect(again.store.getState().form.drafts['personal-info']).not.toHaveProperty('verificationEmailToken');
  });
});

describe('Back', () => {
  it('on /your-activity links to /requirements-freelance with the query string', async () => {
    const { user, router } = renderApp('/your-activity?promo=SUMMER26&lang=en', { state: midWizard(liveToken(), { personType: 'freelance' }) });
    const back = await screen.findByRole('link', { name: /Back/ });
    expect(back).toHaveAttribute('href', '/requirements-freelance?promo=SUMMER26&lang=en');
    await user.click(back);
    await screen.findByRole('heading', { name: "What you'll need as a freelancer" });
    expect(router.state.location).toMatchObject({ pathname: '/requirements-freelance', search: '?promo=SUMMER26&lang=en' });
  });

  it('is not offered on /signUp', async () => {
    renderApp('/signUp');
    await screen.findByRole('heading', { name: 'Open your Divilo account' });
    expect(screen.queryByRole('link', { name: /Back/ })).not.toBeInTheDocument();
  });

  it('/signUp speaks to freelancers and companies alike: no modelo 036, no step total before the path is chosen', async () => {
    renderApp('/signUp');
    await screen.findByRole('heading', { name: 'Open your Divilo account' }, { timeout: 20_000 });
    expect(screen.getByText(/Have your ID document at hand/)).toBeInTheDocument();
    expect(screen.queryByText(/modelo 036/)).not.toBeInTheDocument();
    const progress = screen.getByRole('navigation', { name: 'Your progress' });
    expect(progress).toHaveTextContent('Step 1');
    expect(progress).not.toHaveTextContent(/Step 1 of/);
  });

  it('shows the total once the path is chosen', async () => {
    renderApp('/your-activity', { state: midWizard(liveToken(), { personType: 'freelance' }) });
    const progress = await screen.findByRole('navigation', { name: 'Your progress' }, { timeout: 20_000 });
    expect(progress).toHaveTextContent(/Step \d+ of \d+/);
  });

  it('marks a finished section with a tick, heard as "(done)" and not read twice', async () => {
    renderApp('/your-activity', { state: midWizard(liveToken(), { personType: 'freelance' }) });
    const progress = await screen.findByRole('navigation', { name: 'Your progress' }, { timeout: 20_000 });
    const done = within(progress).getByText('You (done)');
    expect(done).toHaveClass('dv-visually-hidden');
    const item = done.closest('li')!;
    expect(item.querySelector('svg.dv-progress__check')).toHaveAttribute('aria-hidden', 'true');
    // What shows is the tick and the name; the words "(done)" are for screen readers only.
    const shown = [...item.querySelectorAll('[aria-hidden=true]')].map((node) => node.textContent).join('');
    expect(shown).toBe('You');
  });
});

describe('/reg-code', () => {
  it('a wrong code says how many attempts are left, empties the field and marks it invalid', async () => {
    answers['onboarding-management-private/email/verify'] = () => [401, { code: 'CODE_INVALID', message: 'The code is not right', attemptsLeft: 2 }];
    const { user, router } = renderApp('/reg-code', { state: midWizard(liveToken(), {}, { email: 'ana@example.com' }) });
    const code = await screen.findByLabelText('Code from the e-mail');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('That code is not right. You have 2 attempts left.');
    expect(code).toHaveValue('');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveFocus();
    expect(code.getAttribute('aria-describedby')?.split(' ')).toContain(alert.id);
    expect(requestsTo('onboarding-management-private/email/verify')[0].body).toEqual({ code: '123456' });
    expect(router.state.location.pathname).toBe('/reg-code');
  });

  it('a resend refused as too soon disables the button and shows the countdown', async () => {
    answers['onboarding-management-private/email/resend'] = () => [429, { code: 'RESEND_TOO_SOON', message: 'Wait before asking for another code', retryAfterSeconds: 30 }];
    const { user } = renderApp('/reg-code', { state: midWizard(liveToken(), {}, { email: 'ana@example.com' }) });
    const resend = await screen.findByRole('button', { name: 'Send me a new code' });
    expect(resend).toBeEnabled();
    expect(screen.queryByText(/You can ask for a new code in/)).not.toBeInTheDocument();
    await user.click(resend);

    // The server's 30 seconds, counting down on the machine's clock: a loaded machine may show a few less.
    const countdown = await screen.findByText(/You can ask for a new code in \d+ seconds?\./);
    const seconds = Number(/in (\d+)/.exec(countdown.textContent ?? '')![1]);
    expect(seconds).toBeLessThanOrEqual(30);
    expect(seconds).toBeGreaterThan(15);
    expect(screen.getByRole('button', { name: 'Send me a new code' })).toBeDisabled();
    // A notice about the resend, not about the code: announced politely, and the code field is not marked wrong.
    expect(screen.getByText('Please wait a little before asking for another code.')).toHaveAttribute('role', 'status');
    expect(screen.getByLabelText('Code from the e-mail')).not.toHaveAttribute('aria-invalid');
    // Focus does not drop with the disabled button: it is on the code field, which the notice describes.
    expect(screen.getByLabelText('Code from the e-mail')).toHaveFocus();
    expect(screen.getByLabelText('Code from the e-mail')).toHaveAccessibleDescription(expect.stringContaining('Please wait a little'));
    expect(requestsTo('onboarding-management-private/email/resend')).toHaveLength(1);
  });
});

describe('/your-activity', () => {
  it('fills in the NIF with the DNI the applicant signed up with', async () => {
    renderApp('/your-activity', { state: midWizard(liveToken(), { idType: 'nif', id: '12345678Z', personType: 'freelance' }) });
    expect(await screen.findByLabelText('NIF (tax ID)')).toHaveValue('12345678Z');
  });

  it('fills in the canonical NIF for an NIE typed padded to 8 digits, and takes it without an error', async () => {
    const { user } = renderApp('/your-activity', { state: midWizard(liveToken(), { idType: 'nif', id: 'X01082303S', personType: 'freelance' }) });
    const nif = await screen.findByLabelText('NIF (tax ID)');
    expect(nif).toHaveValue('X1082303S');
    await user.click(nif);
    await user.tab();
    expect(nif).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('does not ask again for a promotional code given at sign-up; asks for one when none was', async () => {
    renderApp('/your-activity', { state: midWizard(liveToken(), { personType: 'freelance', promotionalCode: 'SUMMER26' }) });
    await screen.findByLabelText('NIF (tax ID)', {}, { timeout: 20_000 });
    expect(screen.queryByLabelText('Promotional code (optional)')).not.toBeInTheDocument();
  });

  it('asks for a promotional code when none was given at sign-up', async () => {
    renderApp('/your-activity', { state: midWizard(liveToken(), { personType: 'freelance' }) });
    expect(await screen.findByLabelText('Promotional code (optional)', {}, { timeout: 20_000 })).toHaveValue('');
  });

  it('leaves the NIF empty for an applicant who signed up with a passport', async () => {
    renderApp('/your-activity', { state: midWizard(liveToken(), { idType: 'passport', id: 'XDA123456', personType: 'freelance' }) });
    expect(await screen.findByLabelText('NIF (tax ID)')).toHaveValue('');
  });
});

describe('/tell-us-more-freelance', () => {
  it('sends the public-office answer as a boolean and the countries as a list of codes', async () => {
    const MORE = 'onboarding-management-private/legalperson/freelance/moreinfo';
    answers[MORE] = (request) => saved('divilo-password', request.body as Record<string, unknown>, 'freelance');
    const { user, router, store } = renderApp('/tell-us-more-freelance', { state: midWizard(liveToken(), { personType: 'freelance' }) });
    const countries = await screen.findByRole('combobox', { name: 'Countries where you work' });
    // Spain is there to begin with; Portugal is added.
    expect(within(screen.getByRole('list', { name: 'Countries where you work' })).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Spain×']);
    await user.type(countries, 'portugal{Enter}');
    expect(screen.getByRole('button', { name: 'Remove Portugal' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'A business account' }));
    await user.selectOptions(screen.getByLabelText('Where will the money in the account come from?'), 'Savings');
    await user.selectOptions(screen.getByLabelText('Where do your assets come from?'), 'A salary or pension');
    await user.click(screen.getByRole('radio', { name: "No, I don't" }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    await screen.findByRole('heading', { name: 'Create your password' });
    expect(router.state.location.pathname).toBe('/divilo-password');
    const [request] = requestsTo(MORE);
    expect(request.body).toEqual({
      website: '',
      countriesWhereOperate: ['ES', 'PT'],
      diviloProduct: 'account',
      foundsOrigin: 'savings',
      assetsOrigin: 'salary',
      politicalPosition: false,
    });
    expect(applicationIn(store)).toMatchObject({ personType: 'freelance', answers: { countriesWhereOperate: ['ES', 'PT'], politicalPosition: false } });
  });
});

describe('a document step', () => {
  it('/tax-registration-income: Continue without the 036 says so under its upload and takes focus to its file picker', async () => {
    answers['onboarding-management-private/documents'] = () => [200, { documents: [] }];
    const { user } = renderApp('/tax-registration-income', { state: midWizard(liveToken(), { personType: 'freelance' }) });
    await user.click(await screen.findByRole('radio', { name: /Direct assessment, normal/ }));
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByLabelText(/Choose a PDF: Modelo 036 or 037/)).toHaveFocus());
    expect(screen.getByText('This field is required')).toHaveAttribute('role', 'alert');
  });
});

describe('the end of the journey', () => {
  it.each([
    ['/welcome', 'Welcome to Divilo'],
    ['/forbidden-user', "We can't open your account"],
    ['/already-exists', 'You already have an account'],
  ])('%s forgets the onboarding token and the form', async (path, title) => {
    const { store } = renderApp(path, { state: midWizard(liveToken(), { firstName: 'Ana', personType: 'freelance' }, { email: 'ana@example.com', drafts: { 'your-activity': { selfEmployedId: '12345678Z' } } }) });
    await screen.findByRole('heading', { name: title });
    await waitFor(() => expect(store.getState().session.authorizationToken).toBeNull());
    const { _persist, ...form } = store.getState().form;
    expect(form).toEqual(initialFormState);
    expect(screen.queryByRole('link', { name: /Back/ })).not.toBeInTheDocument();
  });

  it('/welcome points to the login page', async () => {
    renderApp('/welcome', { state: midWizard(liveToken()) });
    expect(await screen.findByRole('link', { name: 'Go to the login page' })).toHaveAttribute('href', '/login');
  });
});

describe('a step the bank reopened after the applicant signed', () => {
  /** The application sent back for its fiscal address, with the bank's words as e-mailed. */
  function sentBack(): Partial<RootState> {
    const state = midWizard(liveToken(), { personType: 'freelance', selfEmployedFiscalCity: 'Madrid' });
    answers[APPLICATION] = () => [
      200,
      { ...applicationWith('fiscal-address', { selfEmployedFiscalCity: 'Madrid' }, 'freelance'), requestedChanges: { steps: ['fiscal-address'], text: 'Check your answers.\n\nThe postal code is not of that city.' } },
    ];
    return state;
  }

  it("shows what the bank asked, in its words and paragraphs, on that step and on no other; the contract says to sign again", async () => {
    const first = renderApp('/fiscal-address', { state: sentBack() });
    const note = await screen.findByRole('note', { name: 'Divilo asked you to check this step' });
    expect(within(note).getByText(/The postal code is not of that city\./)).toHaveTextContent('Check your answers. The postal code is not of that city.');
    first.unmount();

    const other = renderApp('/your-activity', { state: sentBack() });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('note', { name: 'Divilo asked you to check this step' })).not.toBeInTheDocument();
    other.unmount();

    answers['onboarding-management-private/contract'] = () => [404, { code: 'NOT_FOUND' }];
    renderApp('/docu-sign', { state: sentBack() });
    expect(await screen.findByText('You changed what Divilo asked for: sign the contract again to send it.')).toBeInTheDocument();
  });
});
