// The wizard's screens when a service behind the API is away (503 SERVICE_UNAVAILABLE) or the code's message was
// not sent (503 MESSAGE_NOT_SENT): each says so in the applicant's language, keeps what was typed, and the same
// action tried again goes on.
import { screen, waitFor } from '@testing-library/react';
import type { RootState } from '../../../../src/app/store';
import { initialFormState, type OnboardingForm } from '../../../../src/state/formSlice';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { liveToken } from '../../tokens';
import { wizardApi } from './wizardApi';

const { answers, requestsTo } = wizardApi();

const NOT_SENT: [number, unknown] = [503, { code: 'MESSAGE_NOT_SENT', message: 'The message could not be sent', retryAfterSeconds: 5 }];
const AWAY: [number, unknown] = [503, { code: 'SERVICE_UNAVAILABLE', message: 'A service is not reachable right now' }];

/** The first call answers `first`, every later one `then`. */
function once(first: [number, unknown], then: [number, unknown]) {
  let calls = 0;
  return () => ((calls += 1) === 1 ? first : then);
}

/** An applicant with a session whose application waits at `currentStep`, with the steps before it done. */
function atStep(currentStep: string, completedSteps: string[], form: Partial<OnboardingForm> = {}): Partial<RootState> {
  answers['onboarding-management-private/application'] = () => [
    200,
    { id: 'a-1', status: 'in-progress', personType: 'freelance', currentStep, completedSteps, answers: {}, maskedEmail: 'a***@example.com' },
  ];
  return { session: { ...initialSessionState, authorizationToken: liveToken() }, form: { ...initialFormState, ...form, _persist: { version: -1, rehydrated: true } } };
}

const BEFORE_PASSWORD = ['signUp', 'reg-code', 'personal-info', 'contact-phone', 'confirm-telephone', 'register-as', 'requirements-freelance', 'your-activity', 'fiscal-address', 'tax-registration-income', 'tell-us-more-freelance'];

describe('/signUp', () => {
  async function askForTheCode(user: ReturnType<typeof renderApp>['user'], labels = { email: 'E-mail', id: 'DNI or NIE number', send: 'Send me the code' }) {
    await user.type(await screen.findByLabelText(labels.email), 'ana@example.com');
    await user.type(screen.getByLabelText(labels.id), '12345678Z');
    for (const box of screen.getAllByRole('checkbox')) await user.click(box);
    await user.click(screen.getByRole('button', { name: labels.send }));
  }

  it('the e-mail not sent: said under the form, everything kept, no dialog; the same button again goes on to the code', async () => {
    answers['onboarding-management/register'] = once(NOT_SENT, [200, { token: liveToken(), expiresIn: 3600, maskedEmail: 'a***@example.com', resendAfterSeconds: 30 }]);
    const { user, router, store } = renderApp('/signUp');
    await askForTheCode(user);
    expect(await screen.findByText("We couldn't send your code just now. What you typed is kept: try again in a moment.", {}, { timeout: 15_000 })).toHaveAttribute('role', 'alert');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('ana@example.com');
    expect(screen.getByLabelText('DNI or NIE number')).toHaveValue('12345678Z');
    expect(store.getState().session.authorizationToken).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/reg-code'), { timeout: 15_000 });
    expect(requestsTo('onboarding-management/register')).toHaveLength(2);
  });

  it('the service away, in Spanish: says nothing was sent or saved and to try again', async () => {
    answers['onboarding-management/register'] = () => AWAY;
    const { user } = renderApp('/signUp', { locale: 'es' });
    await askForTheCode(user, { email: 'Correo electrónico', id: 'Número de DNI o NIE', send: 'Enviarme el código' });
    expect(
      await screen.findByText('Ahora mismo no podemos conectar con nuestro servicio, así que no se ha enviado ni guardado nada. Lo que has escrito se conserva: inténtalo de nuevo en un momento.', {}, { timeout: 15_000 }),
    ).toHaveAttribute('role', 'alert');
    expect(screen.getByLabelText('Correo electrónico')).toHaveValue('ana@example.com');
  });
});

describe('/contact-phone', () => {
  const PHONE = 'onboarding-management-private/phone';

  it('the SMS not sent: said next to the button, the number kept; the button again sends it and goes on', async () => {
    const sent = { next: 'confirm-telephone', maskedPhone: '*******678', resendAfterSeconds: 30, application: { id: 'a-1', status: 'in-progress', personType: null, currentStep: 'confirm-telephone', completedSteps: ['signUp', 'reg-code', 'personal-info', 'contact-phone'], answers: {}, maskedEmail: 'a***@example.com' } };
    answers[PHONE] = once(NOT_SENT, [200, sent]);
    const { user, router } = renderApp('/contact-phone', { state: atStep('contact-phone', ['signUp', 'reg-code', 'personal-info']) });
    const number = await screen.findByLabelText('Mobile number');
    await user.type(number, '612 345 678');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    expect(await screen.findByText("We couldn't send your code just now. What you typed is kept: try again in a moment.")).toHaveAttribute('role', 'alert');
    expect(number).toHaveValue('612 345 678');
    expect(number).not.toHaveAttribute('aria-invalid', 'true');
    expect(router.state.location.pathname).toBe('/contact-phone');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/confirm-telephone'));
  });
});

describe('the code pages', () => {
  it('/reg-code: a new code not sent says to ask again, and "send me a new code" may be pressed again at once', async () => {
    answers['onboarding-management-private/email/resend'] = once(NOT_SENT, [200, { resendAfterSeconds: 30 }]);
    const { user } = renderApp('/reg-code', { state: atStep('reg-code', ['signUp'], { email: 'ana@example.com' }) });
    await user.click(await screen.findByRole('button', { name: 'Send me a new code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("We couldn't send the new code. Ask for it again in a moment.");
    const resend = screen.getByRole('button', { name: 'Send me a new code' });
    expect(resend).toBeEnabled();
    await user.click(resend);
    expect(await screen.findByText('We have sent you a new code.')).toBeInTheDocument();
  });

  it('/confirm-telephone, in Spanish: the service away while the code is checked keeps the code typed and says to try again with it', async () => {
    answers['onboarding-management-private/phone/verify'] = () => AWAY;
    const { user } = renderApp('/confirm-telephone', { state: atStep('confirm-telephone', ['signUp', 'reg-code', 'personal-info', 'contact-phone']), locale: 'es' });
    const code = await screen.findByLabelText('Código SMS');
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Ahora mismo no podemos conectar con nuestro servicio. Inténtalo de nuevo en un momento con el mismo código; si para entonces ha caducado, pide uno nuevo.');
    expect(code).toHaveValue('123456');
    expect(code).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});

describe('/divilo-password', () => {
  it('the identity service away: the dialog says nothing was saved yet and to try again; both passwords stay typed; Continue again goes on', async () => {
    const saved = { next: 'check-identity', application: { id: 'a-1', status: 'in-progress', personType: 'freelance', currentStep: 'check-identity', completedSteps: [...BEFORE_PASSWORD, 'divilo-password'], answers: {}, maskedEmail: 'a***@example.com' } };
    answers['onboarding-management-private/password'] = once(AWAY, [200, saved]);
    const { user, router } = renderApp('/divilo-password', { state: atStep('divilo-password', BEFORE_PASSWORD) });
    const password = await screen.findByLabelText('Password');
    await user.type(password, 'Clave-Divilo-2026');
    await user.type(screen.getByLabelText('Repeat the password'), 'Clave-Divilo-2026');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent("We can't reach our service right now, so nothing has been saved yet. What you typed is still here: try again in a moment.");
    await user.click(screen.getByRole('button', { name: 'Accept' }));
    expect(password).toHaveValue('Clave-Divilo-2026');
    expect(screen.getByLabelText('Repeat the password')).toHaveValue('Clave-Divilo-2026');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/check-identity'));
  });

  it('in Spanish', async () => {
    answers['onboarding-management-private/password'] = () => AWAY;
    const { user } = renderApp('/divilo-password', { state: atStep('divilo-password', BEFORE_PASSWORD), locale: 'es' });
    await user.type(await screen.findByLabelText('Contraseña'), 'Clave-Divilo-2026');
    await user.type(screen.getByLabelText('Repite la contraseña'), 'Clave-Divilo-2026');
    await user.click(screen.getByRole('button', { name: 'Continuar' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent(
      'Ahora mismo no podemos conectar con nuestro servicio, así que aún no se ha guardado nada. Lo que has escrito sigue aquí: inténtalo de nuevo en un momento.',
    );
  });
});

describe('/check-identity', () => {
  it('the storage or identity service away when the check starts: the dialog says so, and the photos stay chosen', async () => {
    const photo = (kind: string) => ({ kind, key: `private/eu-west-1:x/${kind}/a.jpg`, size: 204_800, checkedAt: '2026-11-22T10:00:00.000Z' });
    answers['onboarding-management-private/application'] = () => [
      200,
      {
        id: 'a-1',
        status: 'in-progress',
        personType: 'freelance',
        currentStep: 'check-identity',
        completedSteps: [...BEFORE_PASSWORD, 'divilo-password'],
        answers: { documentFront: photo('documentFront').key, documentBack: photo('documentBack').key, selfie: photo('selfie').key },
        maskedEmail: 'a***@example.com',
      },
    ];
    answers['onboarding-management-private/documents'] = () => [200, { documents: [photo('documentFront'), photo('documentBack'), photo('selfie')] }];
    answers['onboarding-management-private/identity-check'] = () => AWAY;
    const { user, router } = renderApp('/check-identity', { state: { session: { ...initialSessionState, authorizationToken: liveToken() } } });
    await screen.findAllByText(/Photo received/);
    await user.click(screen.getByRole('button', { name: /Continue|Send/ }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent("We can't reach our service right now, so nothing has been saved yet.");
    expect(router.state.location.pathname).toBe('/check-identity');
    expect(screen.getAllByText(/Photo received/)).toHaveLength(3);
  });
});

describe('/docu-sign', () => {
  const CONSENT = 'onboarding-management-private/contract/consent';
  beforeEach(() => {
    answers['onboarding-management-private/contract/text'] = () => [200, { language: 'en', blocks: [{ kind: 'title', text: 'Divilo business account contract' }] }];
  });

  it('the signature code not sent: said next to the button, the consent stays ticked; the button again sends it', async () => {
    answers[CONSENT] = once(NOT_SENT, [200, { maskedPhone: '*******678', resendAfterSeconds: 30 }]);
    const { user } = renderApp('/docu-sign', { state: atStep('docu-sign', [...BEFORE_PASSWORD, 'divilo-password', 'check-identity', 'check-identity-waiting']) });
    await screen.findByText('Divilo business account contract', {}, { timeout: 20_000 });
    const consent = screen.getByRole('checkbox', { name: /identified electronically/ });
    await user.click(consent);
    await user.click(screen.getByRole('button', { name: 'Send me the code to sign' }));
    expect(await screen.findByText("We couldn't send your code just now. What you typed is kept: try again in a moment.")).toHaveAttribute('role', 'alert');
    expect(consent).toBeChecked();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send me the code to sign' }));
    expect(await screen.findByRole('textbox', { name: 'SMS code' })).toBeInTheDocument();
  });

  it('the signature with the service away: the code stays typed, and the same code signs once it is back', async () => {
    answers[CONSENT] = () => [200, { maskedPhone: '*******678', resendAfterSeconds: 30 }];
    answers['onboarding-management-private/contract/sign'] = once(AWAY, [200, { next: 'welcome', application: { id: 'a-1', status: 'pending-review' } }]);
    const { user, router } = renderApp('/docu-sign', { state: atStep('docu-sign', [...BEFORE_PASSWORD, 'divilo-password', 'check-identity', 'check-identity-waiting']) });
    await screen.findByText('Divilo business account contract', {}, { timeout: 20_000 });
    await user.click(screen.getByRole('checkbox', { name: /identified electronically/ }));
    await user.click(screen.getByRole('button', { name: 'Send me the code to sign' }));
    const code = await screen.findByRole('textbox', { name: 'SMS code' });
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Sign the contract' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("We can't reach our service right now. Try again in a moment with the same code");
    expect(code).toHaveValue('123456');
    await user.click(screen.getByRole('button', { name: 'Sign the contract' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome'));
    expect(requestsTo('onboarding-management-private/contract/sign').map((request) => request.body)).toEqual([{ code: '123456' }, { code: '123456' }]);
  });
});
