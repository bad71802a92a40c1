import { screen, waitFor } from '@testing-library/react';
import { loginFailed } from '../../../../src/state/authSlice';
import { initialFormState } from '../../../../src/state/formSlice';
import { loginProblemOf } from '../../../../src/features/login/loginProblem';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { loadItem, saveItem, StorageKey } from '../../../../src/storage/browserStorage';
import { renderApp } from '../../app/renderApp';
import { withSignedOutApi } from '../../services/testServer';
import { liveToken } from '../../tokens';

withSignedOutApi();

describe('the reason a login failed, left on the form', () => {
  it('is focused and read out, with a text for each reason; a block says until when', async () => {
    const { store } = renderApp('/login');
    await screen.findByLabelText('ID document (DNI or NIE)');
    store.dispatch(loginFailed({ kind: 'credentials' }));
    const summary = await screen.findByRole('alert', { name: 'We could not log you in' });
    expect(summary).toHaveTextContent('The ID document number or the password is not right.');
    await waitFor(() => expect(summary).toHaveFocus());

    store.dispatch(loginFailed({ kind: 'unreachable' }));
    expect(await screen.findByRole('alert', { name: 'We could not log you in' })).toHaveTextContent('Nothing is wrong with what you typed');
    store.dispatch(loginFailed({ kind: 'captcha' }));
    expect(await screen.findByRole('alert', { name: 'We could not log you in' })).toHaveTextContent('not an automated attempt');
    const until = new Date(2026, 10, 25, 14, 35).getTime();
    store.dispatch(loginFailed({ kind: 'blocked', until }));
    expect(await screen.findByRole('alert', { name: 'We could not log you in' })).toHaveTextContent('You can try again at 02:35 PM.');
    store.dispatch(loginFailed({ kind: 'tooManyMessages', until: new Date(2026, 10, 25, 15, 5).getTime() }));
    expect(await screen.findByRole('alert', { name: 'We could not log you in' })).toHaveTextContent(
      'For your security, we have sent too many codes by SMS for now. You can try again at 03:05 PM.',
    );
  });

  it('a spent SMS budget at the session step is its own reason, with the time from the server', () => {
    const now = new Date(2026, 10, 25, 14, 0).getTime();
    const refused = { status: 429, errorCode: 'MESSAGE_BUDGET_EXCEEDED', data: { code: 'MESSAGE_BUDGET_EXCEEDED', retryAfterSeconds: 1200 }, message: '' };
    expect(loginProblemOf('session', refused, now)).toEqual({ kind: 'tooManyMessages', until: now + 1_200_000 });
    // The SMS provider failed: its own reason; the identity service away: unreachable, never the password's fault.
    expect(loginProblemOf('session', { status: 503, errorCode: 'MESSAGE_NOT_SENT', message: '' }, now)).toEqual({ kind: 'notSent' });
    expect(loginProblemOf('session', { status: 503, errorCode: 'SERVICE_UNAVAILABLE', message: '' }, now)).toEqual({ kind: 'unreachable' });
    expect(loginProblemOf('session', { status: 503, errorCode: 'IDENTITY_UNAVAILABLE', message: '' }, now)).toEqual({ kind: 'unreachable' });
    expect(loginProblemOf('captcha', { status: 503, errorCode: 'SERVICE_UNAVAILABLE', message: '' }, now)).toEqual({ kind: 'unreachable' });
    // The request rate limit is not the message budget: a plain 429 stays "try again in a moment".
    expect(loginProblemOf('session', { status: 429, errorCode: 'RATE_LIMITED', message: '' }, now)).toEqual({ kind: 'unreachable' });
  });

  it('the SMS code not sent, in both languages: says to log in again, nothing about the password', async () => {
    const { store } = renderApp('/login', { locale: 'es' });
    await screen.findByLabelText('DNI o NIE');
    store.dispatch(loginFailed({ kind: 'notSent' }));
    expect(await screen.findByRole('alert', { name: 'No hemos podido darte acceso' })).toHaveTextContent(
      'No hemos podido enviarte el código por SMS. Lo que has escrito está bien: vuelve a entrar en un momento.',
    );
  });

  it('the SMS code not sent, in English', async () => {
    const { store } = renderApp('/login');
    await screen.findByLabelText('ID document (DNI or NIE)');
    store.dispatch(loginFailed({ kind: 'notSent' }));
    expect(await screen.findByRole('alert', { name: 'We could not log you in' })).toHaveTextContent("We couldn't send your SMS code just now. Nothing is wrong with what you typed: log in again in a moment.");
  });
});

describe('the login form', () => {
  it('shows what is required, in Spanish, and moves focus to the first invalid field', async () => {
    const { user } = renderApp('/login', { locale: 'es' });
    await user.click(await screen.findByRole('button', { name: 'Entrar' }));
    const userId = screen.getByLabelText('DNI o NIE');
    await waitFor(() => expect(userId).toHaveFocus());
    expect(userId).toHaveAttribute('aria-invalid', 'true');
    expect(userId).toHaveAccessibleDescription(expect.stringContaining('Este campo es obligatorio'));
    expect(screen.getByLabelText('Contraseña')).toHaveAttribute('aria-invalid', 'true');
  });

  it('needs 4 to 25 characters once trimmed, in English', async () => {
    const { user } = renderApp('/login');
    const userId = await screen.findByLabelText('ID document (DNI or NIE)');
    await user.type(userId, '  12  ');
    await user.type(screen.getByLabelText('Password'), 'whatever');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('This field should be at least 4 characters long')).toBeInTheDocument();
    await user.clear(userId);
    await user.type(userId, 'X'.repeat(26));
    await user.tab();
    expect(await screen.findByText('The maximum length allowed is 25')).toBeInTheDocument();
  });

  it('says nothing while someone merely tabs through the empty fields; a changed and left field shows its error', async () => {
    const { user } = renderApp('/login');
    const userId = await screen.findByLabelText('ID document (DNI or NIE)');
    userId.focus();
    await user.tab();
    await user.tab();
    expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
    expect(userId).not.toHaveAttribute('aria-invalid');
    await user.type(userId, '12');
    await user.tab();
    expect(await screen.findByText('This field should be at least 4 characters long')).toBeInTheDocument();
  });

  it('keeps what was typed after a validation error', async () => {
    const { user } = renderApp('/login');
    await user.type(await screen.findByLabelText('ID document (DNI or NIE)'), '12345678Z');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveFocus());
    expect(screen.getByLabelText('ID document (DNI or NIE)')).toHaveValue('12345678Z');
  });

  it('opening it resets the form and the session and clears the stored session', async () => {
    saveItem(StorageKey.JWT, liveToken());
    saveItem(StorageKey.CURRENT_PAGE, 'personal-info');
    saveItem(StorageKey.LOCALE, 'en');
    const form = { ...initialFormState, email: 'ana@example.es', id: '12345678Z', drafts: { 'contact-phone': { telephoneNumber: '600000000' } } };
    const { store } = renderApp('/login', { state: { session: { ...initialSessionState, authorizationToken: liveToken() }, form: { ...form, _persist: { version: -1, rehydrated: true } } } });
    await screen.findByRole('heading', { name: 'Log in' });
    await waitFor(() => expect(store.getState().session.authorizationToken).toBeNull());
    expect(store.getState().form).toMatchObject(initialFormState);
    expect(loadItem(StorageKey.JWT)).toBeUndefined();
    expect(loadItem(StorageKey.CURRENT_PAGE)).toBeUndefined();
    expect(loadItem(StorageKey.LOCALE)).toBe('en');
  });

  it('links to password recovery and to sign-up, carrying the query', async () => {
    renderApp('/login?promo=SPRING');
    expect(await screen.findByRole('link', { name: 'Recover it' })).toHaveAttribute('href', '/recover-password/init?promo=SPRING');
    expect(screen.getByRole('link', { name: 'Open your account' })).toHaveAttribute('href', '/signUp?promo=SPRING');
    expect(screen.getByRole('link', { name: 'privacy policy' })).toHaveAttribute('href', 'https://legal.divilo.test/privacy.pdf');
  });
});
