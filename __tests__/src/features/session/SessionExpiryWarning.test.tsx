import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setRuntimeConfig } from '../../../../src/config';
import { initialFormState, type OnboardingForm } from '../../../../src/state/formSlice';
import { initialSessionState, sessionStarted } from '../../../../src/state/sessionSlice';
import { onboardingApi, type ApplicationView } from '../../../../src/features/signup/onboardingApi';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { tokenExpiringAt, tokenIssuedAt } from '../../tokens';

let server: Awaited<ReturnType<typeof startTestServer>>;
const renewed = tokenExpiringAt(Math.floor(Date.now() / 1000) + 3600);
/** The application the server holds for the test's applicant (sessionEndingIn). */
let application: ApplicationView;

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url.endsWith('/session/renew')) return json(res, 200, { token: renewed, expiresIn: 1800 });
    if (request.url.endsWith('/onboarding-management-private/application')) return json(res, 200, application);
    if (request.url.endsWith('/saved-step')) return json(res, 200, { next: 'personal-info', application });
    if (request.url.endsWith('/refused-step')) return json(res, 400, { code: 'VALIDATION_FAILED' });
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
 * The wizard's page, ready with a session far from its end and the application read (who signed up, in the form
 * record, and the answers saved, on the server); then, with the clock on a whole second, a token that ends
 * `seconds` later. (Waiting for the page moves Jest's clock by an amount that depends on the machine: from here on,
 * only the test moves it.)
 */
async function sessionEndingIn(seconds: number, locale: 'en' | 'es' = 'en', signedUp: Partial<OnboardingForm> = {}, saved: Record<string, unknown> = {}) {
  application = { id: 'a-1', status: 'in-progress', personType: null, currentStep: 'personal-info', completedSteps: ['signUp', 'reg-code'], answers: { ...signedUp, ...saved }, maskedEmail: 'a***@example.com' };
  const form = { ...initialFormState, ...signedUp, _persist: { version: -1, rehydrated: true } };
  const view = renderApp('/personal-info', { state: { ...expiringIn(3600), form }, locale });
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

  it('left to run out, the sign-up form keeps the e-mail and the ID: starting again needs only a new code', async () => {
    const signedUp = { email: 'ana@example.com', idType: 'nif' as const, id: '12345678Z' };
    const { store } = await sessionEndingIn(2, 'en', signedUp, { firstName: 'Ana', telephoneNumber: '+34600000001' });
    expect(screen.getByLabelText('First name')).toHaveValue('Ana');
    elapse(2000);
    expect(await screen.findByLabelText('E-mail')).toHaveValue('ana@example.com');
    expect(screen.getByRole('textbox', { name: /DNI or NIE/ })).toHaveValue('12345678Z');
    // Only who was signing up stays: the rest of the application is the server's, read again after the code.
    expect(store.getState().form).toMatchObject(signedUp);
    expect(onboardingApi.endpoints.getApplication.select()(store.getState()).data).toBeUndefined();
  });
});

describe('saving while the session runs', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const save = (store: ReturnType<typeof renderApp>['store'], endpoint = 'saved-step') =>
    act(() => store.dispatch(onboardingApi.endpoints.saveStep.initiate({ endpoint, body: {} })));
  const renewals = () => server.requests.filter((r) => r.url.endsWith('/session/renew'));

  it('renews the token quietly after a save once half its life is gone, so no warning interrupts', async () => {
    const { store } = await sessionEndingIn(3600);
    // 30 minutes of life, 13 minutes left.
    const used = tokenIssuedAt(now() - 1020, now() + 780);
    act(() => {
      store.dispatch(sessionStarted({ token: used }));
    });
    await save(store);
    await waitFor(() => expect(store.getState().session.authorizationToken).toBe(renewed));
    expect(renewals()).toHaveLength(1);
    expect(renewals()[0].headers.authorization).toBe(`Bearer ${used}`);
    // When the old token would have warned, nothing is shown.
    elapse(780_000 - 60_000);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('leaves a token with more than half its life alone, and renews nothing after a refused save', async () => {
    const { store } = await sessionEndingIn(3600);
    const fresh = tokenIssuedAt(now() - 60, now() + 1740);
    act(() => {
      store.dispatch(sessionStarted({ token: fresh }));
    });
    await save(store);
    const used = tokenIssuedAt(now() - 1020, now() + 780);
    act(() => {
      store.dispatch(sessionStarted({ token: used }));
    });
    await save(store, 'refused-step');
    expect(server.requests.filter((r) => r.url.endsWith('-step'))).toHaveLength(2);
    expect(renewals()).toHaveLength(0);
    expect(store.getState().session.authorizationToken).toBe(used);
  });
});
