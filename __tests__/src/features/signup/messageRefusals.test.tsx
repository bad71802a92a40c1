// The wizard's screens when the server will not send a code (asked again too soon, blocked, too many messages)
// and the phone step's own refusals of numbers the bank does not text.
import { screen, waitFor } from '@testing-library/react';
import type { RootState } from '../../../../src/app/store';
import { initialFormState, type OnboardingForm } from '../../../../src/state/formSlice';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { liveToken } from '../../tokens';
import { wizardApi } from './wizardApi';

const { answers, requestsTo, setRuntimeConfigWith } = wizardApi();

/** An applicant with a session, whose application the server holds begun, nothing answered yet. */
function midWizard(form: Partial<OnboardingForm> = {}): Partial<RootState> {
  answers['onboarding-management-private/application'] = () => [
    200,
    { id: 'a-1', status: 'in-progress', personType: null, currentStep: 'personal-info', completedSteps: ['signUp', 'reg-code'], answers: {}, maskedEmail: 'a***@example.com' },
  ];
  return { session: { ...initialSessionState, authorizationToken: liveToken() }, form: { ...initialFormState, ...form, _persist: { version: -1, rehydrated: true } } };
}

const PHONE = 'onboarding-management-private/phone';

describe('/contact-phone', () => {
  it('offers only the countries the bank texts', async () => {
    setRuntimeConfigWith({ smsCountries: ['ES', 'PT'] });
    const { user } = renderApp('/contact-phone', { state: midWizard() });
    const country = await screen.findByRole('combobox', { name: 'Country code' });
    await user.clear(country);
    await user.type(country, 'cuba');
    expect(screen.getByRole('option')).toHaveTextContent('Nothing matches what you typed');
    await user.clear(country);
    await user.type(country, 'portu');
    expect(screen.getByRole('option')).toHaveTextContent('Portugal');
  });

  it('says next to the number why a premium-rate or fixed number is refused, and sends nothing', async () => {
    const { user } = renderApp('/contact-phone', { state: midWizard() });
    const number = await screen.findByLabelText('Mobile number');
    await user.type(number, '806 123 456');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    await waitFor(() => expect(number).toHaveAttribute('aria-invalid', 'true'));
    expect(number).toHaveAccessibleDescription(expect.stringContaining('Premium-rate, shared-cost and free-phone numbers are not accepted'));
    await user.clear(number);
    await user.type(number, '912 345 678');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    await waitFor(() => expect(number).toHaveAccessibleDescription(expect.stringContaining('This is not a mobile number')));
    await user.clear(number);
    await user.type(number, '+53 5 1234567');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    await waitFor(() => expect(number).toHaveAccessibleDescription(expect.stringContaining('We cannot send text messages to numbers of this country')));
    expect(requestsTo(PHONE)).toHaveLength(0);
  });

  it('a new number asked for within the cooldown: says how long to wait, keeps the number and opens no dialog', async () => {
    answers[PHONE] = () => [429, { code: 'RESEND_TOO_SOON', message: 'Wait', retryAfterSeconds: 24 }];
    const { user, router } = renderApp('/contact-phone', { state: midWizard() });
    const number = await screen.findByLabelText('Mobile number');
    await user.type(number, '612 345 678');
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
    expect(await screen.findByText('We sent you a code a moment ago. You can ask for another in 24 seconds.')).toHaveAttribute('role', 'alert');
    expect(requestsTo(PHONE)).toHaveLength(1);
    expect(number).toHaveValue('612 345 678');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/contact-phone');
  });

  it('too many messages for now: says from when, in Spanish', async () => {
    answers[PHONE] = () => [429, { code: 'MESSAGE_BUDGET_EXCEEDED', message: 'Too many', retryAfterSeconds: 1800 }];
    const { user } = renderApp('/contact-phone', { state: midWizard(), locale: 'es' });
    await user.type(await screen.findByLabelText('Número de móvil'), '612 345 678');
    await user.click(screen.getByRole('button', { name: 'Enviarme el código' }));
    expect(await screen.findByText(/^Hemos enviado demasiados mensajes por ahora\. Por tu seguridad, podrás volver a pedirlo a las \d{2}:\d{2}\.$/)).toHaveAttribute('role', 'alert');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});

describe('/signUp', () => {
  /** Fills /signUp as an applicant would and asks for the e-mail code. */
  async function askForTheCode(user: ReturnType<typeof renderApp>['user']) {
    await user.type(await screen.findByLabelText('E-mail'), 'ana@example.com');
    await user.type(screen.getByLabelText('DNI or NIE number'), '12345678Z');
    await user.click(screen.getByRole('checkbox', { name: /privacy policy/ }));
    await user.click(screen.getByRole('checkbox', { name: /pre-contract information/ }));
    await user.click(screen.getByRole('button', { name: 'Send me the code' }));
  }

  it('too many e-mails for now: said under the form, everything typed kept, no token', async () => {
    answers['onboarding-management/register'] = () => [429, { code: 'MESSAGE_BUDGET_EXCEEDED', message: 'Too many', retryAfterSeconds: 600 }];
    const { user, store, router } = renderApp('/signUp');
    await askForTheCode(user);
    expect(await screen.findByText(/^We have sent too many messages for now\. For your security, you can ask again at \d{2}:\d{2} [AP]M\.$/, {}, { timeout: 15_000 })).toHaveAttribute('role', 'alert');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveValue('ana@example.com');
    expect(store.getState().session.authorizationToken).toBeNull();
    expect(router.state.location.pathname).toBe('/signUp');
  });

  it('blocked after wrong codes (on this e-mail or ID document): says until when under the form, no token', async () => {
    answers['onboarding-management/register'] = () => [423, { code: 'CODE_BLOCKED', message: 'Blocked', retryAfterSeconds: 840 }];
    const { user, store, router } = renderApp('/signUp');
    await askForTheCode(user);
    expect(await screen.findByText(/^Too many wrong codes\. For your security, you can ask for a new code at \d{2}:\d{2} [AP]M\.$/, {}, { timeout: 15_000 })).toHaveAttribute('role', 'alert');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(store.getState().session.authorizationToken).toBeNull();
    expect(router.state.location.pathname).toBe('/signUp');
  });
});

describe('/reg-code', () => {
  it('a new code refused because too many were sent says from when, without marking the code field', async () => {
    answers['onboarding-management-private/email/resend'] = () => [429, { code: 'MESSAGE_BUDGET_EXCEEDED', message: 'Too many', retryAfterSeconds: 600 }];
    const { user } = renderApp('/reg-code', { state: midWizard({ email: 'ana@example.com' }) });
    await user.click(await screen.findByRole('button', { name: 'Send me a new code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^We have sent too many messages for now\. For your security, you can ask again at \d{2}:\d{2} [AP]M\.$/);
    expect(screen.getByLabelText(/code/i, { selector: 'input' })).not.toHaveAttribute('aria-invalid', 'true');
  });
});

describe('/docu-sign', () => {
  const CONSENT = 'onboarding-management-private/contract/consent';
  beforeEach(() => {
    answers['onboarding-management-private/contract/text'] = () => [200, { language: 'en', blocks: [{ kind: 'title', text: 'Divilo business account contract' }] }];
  });

  it('the code asked for again at once: says how long to wait next to the button, the consent stays ticked, no dialog', async () => {
    answers[CONSENT] = () => [429, { code: 'RESEND_TOO_SOON', message: 'Wait', retryAfterSeconds: 20 }];
    const { user } = renderApp('/docu-sign', { state: midWizard() });
    await screen.findByText('Divilo business account contract');
    const consent = screen.getByRole('checkbox', { name: /identified electronically/ });
    await user.click(consent);
    await user.click(screen.getByRole('button', { name: 'Send me the code to sign' }));
    expect(await screen.findByText('We sent you a code a moment ago. You can ask for another in 20 seconds.')).toHaveAttribute('role', 'alert');
    expect(consent).toBeChecked();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('once the code is sent, focus is in the field it goes in (the button that asked is gone)', async () => {
    answers[CONSENT] = () => [200, { maskedPhone: '+34 6** *** *78', resendAfterSeconds: 30 }];
    const { user } = renderApp('/docu-sign', { state: midWizard() });
    await screen.findByText('Divilo business account contract', {}, { timeout: 20_000 });
    await user.click(screen.getByRole('checkbox', { name: /identified electronically/ }));
    await user.click(screen.getByRole('button', { name: 'Send me the code to sign' }));
    expect(await screen.findByRole('textbox', { name: 'SMS code' })).toHaveFocus();
  });

  it('any other failure still shows error.errorSendingData in the global modal', async () => {
    answers[CONSENT] = () => [500, { code: 'INTERNAL_ERROR', message: 'Something went wrong' }];
    const { user } = renderApp('/docu-sign', { state: midWizard() });
    await screen.findByText('Divilo business account contract');
    await user.click(screen.getByRole('checkbox', { name: /identified electronically/ }));
    await user.click(screen.getByRole('button', { name: 'Send me the code to sign' }));
    expect(await screen.findByRole('alertdialog')).toHaveTextContent("We couldn't save your data.");
  });
});
