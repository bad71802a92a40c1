import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setRuntimeConfig } from '../../../../src/config';
import { signInSucceeded } from '../../../../src/state/authSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer, type RecordedRequest } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';

let server: Awaited<ReturnType<typeof startTestServer>>;
let answer: (request: RecordedRequest) => [number, unknown];

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url.endsWith('get-session')) return json(res, 401, { code: 'NO_SESSION' });
    const [status, body] = answer(request);
    json(res, status, body);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  localStorage.clear();
  server.requests.length = 0;
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

function renderConfirm(locale: 'en' | 'es' = 'en', resendAvailableAt: number | null = null) {
  const view = renderApp('/login/confirm-telephone', { locale });
  view.store.dispatch(signInSucceeded({ phone: '******789', token: 'pending-token', status: 200, resendAvailableAt }));
  return view;
}

const signatureOf = (request: RecordedRequest) =>
  JSON.parse(Buffer.from(String(request.headers['x-divilo-verification-signature']), 'base64').toString('utf8'));

describe('the SMS code step', () => {
  it('without a pending sign-in goes back to login', async () => {
    const { router } = renderApp('/login/confirm-telephone');
    await screen.findByRole('heading', { name: 'Log in' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('sends the code as the verification signature and goes to the main app on 201', async () => {
    answer = () => [201, { maskedPhone: '******789', token: 'pending-token' }];
    const { user, navigation } = renderConfirm();
    expect(await screen.findByText('******789')).toBeInTheDocument();
    const code = screen.getByLabelText('SMS code');
    expect(code).toHaveAttribute('autocomplete', 'one-time-code');
    await user.click(code);
    await user.paste('123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(navigation.leaveApp).toHaveBeenCalledWith('http://localhost:8080/app'));
    const [request] = server.requests.filter((r) => r.url.endsWith('create-session'));
    expect(signatureOf(request)).toEqual({ token: 'pending-token', verificationCode: '123456' });
    expect(request.headers['x-divilo-session-id']).toEqual(expect.any(String));
    expect(request.headers.authorization).toBeUndefined();
  });

  it('a wrong code says how many attempts are left, in Spanish, and empties the field', async () => {
    answer = () => [401, { code: 'CODE_INVALID', attemptsLeft: 3 }];
    const { user, navigation } = renderConfirm('es');
    await user.type(await screen.findByLabelText('Código SMS'), '000000');
    await user.click(screen.getByRole('button', { name: 'Confirmar' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('El código no es correcto. Te quedan 3 intentos.');
    const field = screen.getByLabelText('Código SMS');
    expect(field).toHaveValue('');
    // The answer is tied to the field: marked invalid and described by the message.
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field.getAttribute('aria-describedby')?.split(' ')).toContain(alert.id);
    expect(navigation.leaveApp).not.toHaveBeenCalled();
  });

  it('blocked after too many wrong codes: one clear state, until when, the support phone and a way back', async () => {
    answer = () => [423, { code: 'CODE_BLOCKED', retryAfterSeconds: 900 }];
    const { user } = renderConfirm();
    await user.type(await screen.findByLabelText('SMS code'), '000000');
    const before = Date.now();
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    const alert = await screen.findByRole('alert');
    const time = new Intl.DateTimeFormat('en', { hour: '2-digit', minute: '2-digit' }).format(before + 900_000);
    expect(alert).toHaveTextContent(`sign-in is blocked until ${time}`);
    // No field to fill, no "required" under it, no countdown next to buttons that cannot be used.
    expect(screen.queryByLabelText('SMS code')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send me a new code' })).not.toBeInTheDocument();
    expect(screen.queryByText(/required/)).not.toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: "Confirm it's you" })).getByRole('link', { name: '+34 910 000 000' })).toHaveAttribute('href', 'tel:+34910000000');
    expect(screen.getByRole('link', { name: 'Back to the login page' })).toHaveAttribute('href', '/login');
  });

  it('a new code asked for while blocked shows the same blocked state, without a time when the server gave none', async () => {
    answer = (request) => (request.url.endsWith('resend-code') ? [423, { code: 'CODE_BLOCKED' }] : [500, {}]);
    const { user } = renderConfirm();
    await user.click(await screen.findByRole('button', { name: 'Send me a new code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many wrong codes. For your security, sign-in is blocked for a while. Try again later.');
    expect(screen.queryByLabelText('SMS code')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the login page' })).toHaveAttribute('href', '/login');
  });

  it('refuses a code that is not six digits without calling the server', async () => {
    const { user } = renderConfirm();
    await user.type(await screen.findByLabelText('SMS code'), '12a45');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByLabelText('SMS code')).toHaveAttribute('aria-invalid', 'true');
    expect(server.requests.filter((r) => r.url.endsWith('create-session'))).toHaveLength(0);
  });

  it('shows the resend countdown and lets the user ask for a new code once it is over', async () => {
    // The page's clock is Jest's: the countdown moves when the test says, whatever the machine's load (network and
    // promises stay real).
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      answer = (request) => (request.url.endsWith('resend-code') ? [200, { maskedPhone: '******789', resendAfterSeconds: 30 }] : [500, {}]);
      renderConfirm('en', Date.now() + 2000);
      const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
      const resend = await screen.findByRole('button', { name: 'Send me a new code' });
      expect(resend).toBeDisabled();
      expect(screen.getByText('You can ask for a new code in 2 seconds.')).toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1000));
      expect(screen.getByText('You can ask for a new code in 1 second.')).toBeInTheDocument();
      expect(resend).toBeDisabled();
      act(() => jest.advanceTimersByTime(1000));
      expect(resend).toBeEnabled();
      await user.click(resend);
      // The notice's element is there, empty, from the start: wait for its words, not for the element.
      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('We have sent you a new code.'));
      // The button is disabled now: focus is on the field for the new code, described by the notice.
      expect(screen.getByLabelText('SMS code')).toHaveFocus();
      expect(screen.getByLabelText('SMS code')).toHaveAccessibleDescription(expect.stringContaining('We have sent you a new code.'));
      expect(server.requests.find((r) => r.url.endsWith('resend-code'))?.body).toEqual({ token: 'pending-token' });
      expect(await screen.findByText('You can ask for a new code in 30 seconds.')).toBeInTheDocument();
    } finally {
      jest.useRealTimers();
    }
  });

  it('a new code refused because too many were sent says until when, in Spanish, and leaves the field unmarked', async () => {
    answer = (request) => (request.url.endsWith('resend-code') ? [429, { code: 'MESSAGE_BUDGET_EXCEEDED', message: 'Too many', retryAfterSeconds: 1800 }] : [500, {}]);
    const { user } = renderConfirm('es');
    await user.click(await screen.findByRole('button', { name: 'Enviarme un código nuevo' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^Por tu seguridad, hemos enviado demasiados códigos por SMS por ahora\. Podrás volver a pedirlo a las \d{2}:\d{2}\.$/);
    expect(screen.getByLabelText('Código SMS')).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('the identity service away while the code is checked: says the code still works, keeps it typed, and confirms it again', async () => {
    let calls = 0;
    answer = (request) =>
      request.url.endsWith('create-session') && (calls += 1) === 1 ? [503, { code: 'SERVICE_UNAVAILABLE', message: 'Away' }] : [201, { maskedPhone: '******789', token: '' }];
    const { user, navigation } = renderConfirm();
    const code = await screen.findByLabelText('SMS code');
    await user.click(code);
    await user.paste('123456');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("We can't reach our service right now. Your code still works: confirm it again in a moment.");
    expect(code).toHaveValue('123456');
    expect(code).not.toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(navigation.leaveApp).toHaveBeenCalled());
  });

  it('a new code not sent, in Spanish: says to ask again, and the button may be pressed again at once', async () => {
    let calls = 0;
    answer = () => ((calls += 1) === 1 ? [503, { code: 'MESSAGE_NOT_SENT', message: 'Not sent', retryAfterSeconds: 5 }] : [200, { maskedPhone: '******789', resendAfterSeconds: 30 }]);
    const { user } = renderConfirm('es');
    await user.click(await screen.findByRole('button', { name: 'Enviarme un código nuevo' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No hemos podido enviarte el código nuevo. Vuelve a pedirlo en un momento.');
    const resend = screen.getByRole('button', { name: 'Enviarme un código nuevo' });
    expect(resend).toBeEnabled();
    await user.click(resend);
    expect(await screen.findByText('Te hemos enviado un código nuevo.')).toBeInTheDocument();
  });
});
