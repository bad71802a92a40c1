import { screen, waitFor } from '@testing-library/react';
import { constants, createDecipheriv, generateKeyPairSync, privateDecrypt } from 'node:crypto';
import { altchaProvider } from '../../../../server/services/captcha/altcha';
import { setRuntimeConfig } from '../../../../src/config';
import { recoveryStarted } from '../../../../src/state/authSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer, type RecordedRequest } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';

// The API's part is played by a local server that uses the product's own captcha provider and a real RSA
// key, so the browser code's proof of work and encryption are checked for real.
const captcha = altchaProvider({
  hmacSecret: 'test-secret',
  hmacKeySecret: 'test-key-secret',
  cost: 20,
  counterRange: [2, 8],
  ttlSeconds: 120,
  rememberSolved: async () => true,
});
const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 3072 });
const spki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');

let server: Awaited<ReturnType<typeof startTestServer>>;
let onReset: (payload: Record<string, string>) => [number, unknown];
let onStart: () => [number, unknown] = () => [200, { response: 'OK', resendAfterSeconds: 30 }];

function unseal(data: string): Record<string, string> {
  const sealed = JSON.parse(Buffer.from(data, 'base64').toString('utf8')) as Record<string, string>;
  const aesKey = privateDecrypt({ key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(sealed.key, 'base64'));
  const body = Buffer.from(sealed.data, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', aesKey, Buffer.from(sealed.iv, 'base64'));
  decipher.setAuthTag(body.subarray(body.length - 16));
  return { keyId: sealed.keyId, ...JSON.parse(Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8')) };
}

async function answer(request: RecordedRequest): Promise<[number, unknown]> {
  const path = request.url.split('?')[0];
  if (path.endsWith('get-session')) return [401, { code: 'NO_SESSION' }];
  if (path.endsWith('captcha/challenge')) return [200, await captcha.createChallenge!()];
  if (path.endsWith('captcha/verify')) {
    const token = new URL(request.url, 'http://x').searchParams.get('response') ?? '';
    return [200, { success: (await captcha.verify(token, {})).success }];
  }
  if (path.endsWith('getKey')) return [200, { keyId: 'k1', publicKey: spki }];
  if (path.endsWith('credentials-management/password') && request.method === 'POST') return onStart();
  if (path.endsWith('credentials-management/password') && request.method === 'PUT') return onReset(unseal((request.body as { data: string }).data));
  return [404, { code: 'NOT_FOUND' }];
}

beforeAll(async () => {
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
  onStart = () => [200, { response: 'OK', resendAfterSeconds: 30 }];
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

describe('password recovery', () => {
  it('step 1 solves the captcha, sends the ID upper-cased with the session id, and goes to step 2', async () => {
    const { user, router, store } = renderApp('/recover-password/init?promo=X');
    await user.type(await screen.findByLabelText('ID document (DNI or NIE)'), ' 12345678z ');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await screen.findByRole('heading', { name: 'Choose a new password' }, { timeout: 10_000 });
    expect(router.state.location).toMatchObject({ pathname: '/recover-password/confirm', search: '?promo=X' });
    const start = server.requests.find((r) => r.method === 'POST' && r.url.endsWith('credentials-management/password'));
    expect(start?.body).toEqual({ userId: '12345678Z', sessionId: store.getState().session.sessionId });
    const verify = server.requests.find((r) => r.url.includes('captcha/verify'));
    expect(new URL(verify!.url, 'http://x').searchParams.get('sessionId')).toBe(store.getState().session.sessionId);
    expect(store.getState().auth.recovery?.userId).toBe('12345678Z');
  });

  it('step 2 without step 1 goes back to step 1', async () => {
    const { router } = renderApp('/recover-password/confirm');
    await screen.findByRole('heading', { name: 'Recover your password' });
    expect(router.state.location.pathname).toBe('/recover-password/init');
  });

  it('says where the code went, for the ID given, and sends a new one with a countdown', async () => {
    const { user, store } = renderApp('/recover-password/confirm');
    store.dispatch(recoveryStarted({ userId: '12345678Z', resendAvailableAt: null }));
    expect(await screen.findByText(/we have sent a 6-digit code by SMS to the mobile phone of that account/)).toHaveTextContent('If 12345678Z is the ID document of a Divilo account');
    server.requests.length = 0;
    await user.click(screen.getByRole('button', { name: 'Send me a new code' }));
    expect(await screen.findByText('If the account exists, we have sent it a new code.')).toHaveFocus();
    const [request] = server.requests.filter((r) => r.url.endsWith('credentials-management/password') && r.method === 'POST');
    // Through the captcha, as the first code: its pass is for this browser's session id.
    const verify = server.requests.find((r) => r.url.includes('captcha/verify'))!;
    expect(request.body).toEqual({ userId: '12345678Z', sessionId: new URL(verify.url, 'http://x').searchParams.get('sessionId') });
    expect(server.requests.indexOf(verify)).toBeLessThan(server.requests.indexOf(request));
    expect(screen.getByRole('button', { name: 'Send me a new code' })).toBeDisabled();
    expect(screen.getByText(/You can ask for a new code in 3\d seconds|You can ask for a new code in 30 seconds/)).toBeInTheDocument();
  });

  it('step 2 checks the password rule and the repetition before sending anything', async () => {
    const { user, store } = renderApp('/recover-password/confirm');
    store.dispatch(recoveryStarted({ userId: '12345678Z', resendAvailableAt: null }));
    await user.type(await screen.findByLabelText('SMS code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'weakpass');
    await user.type(screen.getByLabelText('Repeat the new password'), 'weakpasS');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByLabelText('Repeat the new password')).toHaveAttribute('aria-invalid', 'true');
    expect(server.requests.filter((r) => r.method === 'PUT')).toHaveLength(0);
  });

  it('step 2 sends code and new password encrypted for the server, then shows success', async () => {
    let received: Record<string, string> | undefined;
    onReset = (payload) => {
      received = payload;
      return [200, { response: 'OK' }];
    };
    const { user, store, router } = renderApp('/recover-password/confirm', { locale: 'es' });
    store.dispatch(recoveryStarted({ userId: '12345678Z', resendAvailableAt: null }));
    await user.type(await screen.findByLabelText('Código SMS'), '123456');
    await user.type(screen.getByLabelText('Contraseña nueva'), 'Nueva-Clave-2026ñ');
    await user.type(screen.getByLabelText('Repite la contraseña nueva'), 'Nueva-Clave-2026ñ');
    await user.click(screen.getByRole('button', { name: 'Cambiar contraseña' }));
    await screen.findByRole('heading', { name: 'Contraseña cambiada' });
    expect(received).toEqual({ keyId: 'k1', userId: '12345678Z', code: '123456', newPassword: 'Nueva-Clave-2026ñ' });
    const put = server.requests.find((r) => r.method === 'PUT');
    expect(JSON.stringify(put?.body)).not.toContain('Nueva-Clave');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(store.getState().auth.recovery).toBeNull();
  });

  it('a wrong code says how many attempts are left and keeps the passwords typed', async () => {
    onReset = () => [401, { code: 'CODE_INVALID', attemptsLeft: 2 }];
    const { user, store } = renderApp('/recover-password/confirm');
    store.dispatch(recoveryStarted({ userId: '12345678Z', resendAvailableAt: null }));
    await user.type(await screen.findByLabelText('SMS code'), '000000');
    await user.type(screen.getByLabelText('New password'), 'Nueva-Clave-2026');
    await user.type(screen.getByLabelText('Repeat the new password'), 'Nueva-Clave-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('That code is not right or has expired: ask for a new one if it is older than a few minutes. You have 2 attempts left.'));
    expect(screen.getByLabelText('SMS code')).toHaveValue('');
    expect(screen.getByLabelText('New password')).toHaveValue('Nueva-Clave-2026');
    // The answer is tied to the code field: marked invalid and described by the message.
    expect(screen.getByLabelText('SMS code')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('SMS code').getAttribute('aria-describedby')?.split(' ')).toContain(screen.getByRole('alert').id);
  });

  it.each([
    ['en', 'SMS code', 'New password', 'Repeat the new password', 'Change password', /^Too many wrong codes from this device\. For your security, you can try again at \d{1,2}:\d{2}\W?[AP]M\.$/],
    ['es', 'Código SMS', 'Contraseña nueva', 'Repite la contraseña nueva', 'Cambiar contraseña', /^Demasiados códigos incorrectos desde este dispositivo\. Por tu seguridad, podrás volver a intentarlo a las \d{2}:\d{2}\.$/],
  ] as const)('a block says until when (%s), marks the code and holds the button until then', async (locale, codeLabel, passwordLabel, repeatLabel, submit, said) => {
    onReset = () => [423, { code: 'CODE_BLOCKED', retryAfterSeconds: 900 }];
    const { user, store } = renderApp('/recover-password/confirm', { locale });
    store.dispatch(recoveryStarted({ userId: '12345678Z', resendAvailableAt: null }));
    await user.type(await screen.findByLabelText(codeLabel), '000000');
    await user.type(screen.getByLabelText(passwordLabel), 'Nueva-Clave-2026');
    await user.type(screen.getByLabelText(repeatLabel), 'Nueva-Clave-2026');
    await user.click(screen.getByRole('button', { name: submit }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toMatch(said));
    expect(screen.getByLabelText(codeLabel)).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('button', { name: submit })).toBeDisabled();
  });

  it('step 1 with the service away says so in Spanish, keeps the ID typed, and the same button goes on once it is back', async () => {
    let calls = 0;
    onStart = () => ((calls += 1) === 1 ? [503, { code: 'SERVICE_UNAVAILABLE', message: 'Away' }] : [200, { response: 'OK', resendAfterSeconds: 30 }]);
    const { user } = renderApp('/recover-password/init', { locale: 'es' });
    const id = await screen.findByLabelText('DNI o NIE');
    await user.type(id, '12345678Z');
    await user.click(screen.getByRole('button', { name: 'Enviarme un código' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Ahora mismo no podemos conectar con nuestro servicio. Tu documento de identidad sigue aquí: inténtalo de nuevo en un momento.'), { timeout: 10_000 });
    expect(id).toHaveValue('12345678Z');
    await user.click(screen.getByRole('button', { name: 'Enviarme un código' }));
    await screen.findByRole('heading', { name: 'Elige una nueva contraseña' }, { timeout: 10_000 });
  });

  it('step 2 with the identity service away: the password has not changed, everything typed stays, the code is not marked, and the same answer goes through once it is back', async () => {
    let calls = 0;
    const codes: string[] = [];
    onReset = (payload) => {
      codes.push(payload.code);
      return (calls += 1) === 1 ? [503, { code: 'SERVICE_UNAVAILABLE', message: 'Away' }] : [200, { response: 'OK' }];
    };
    const { user, store } = renderApp('/recover-password/confirm');
    store.dispatch(recoveryStarted({ userId: '12345678Z', resendAvailableAt: null }));
    await user.type(await screen.findByLabelText('SMS code'), '123456');
    await user.type(screen.getByLabelText('New password'), 'Nueva-Clave-2026');
    await user.type(screen.getByLabelText('Repeat the new password'), 'Nueva-Clave-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent("We can't reach our service right now, so your password has not changed yet. Your code still works: try again in a moment."),
    );
    expect(screen.getByLabelText('SMS code')).toHaveValue('123456');
    expect(screen.getByLabelText('SMS code')).not.toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('New password')).toHaveValue('Nueva-Clave-2026');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    await screen.findByRole('heading', { name: 'Password changed' });
    expect(codes).toEqual(['123456', '123456']);
  });
});
