// /reg-code after too many wrong e-mail codes: one clear state (the block's notice, a disabled field with no
// error of its own, "send me a new code" saying when), and a new code once the block is over.
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RootState } from '../../../../src/app/store';
import { setRuntimeConfig } from '../../../../src/config';
import { initialFormState } from '../../../../src/state/formSlice';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer, type RecordedRequest } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { tokenExpiringAt } from '../../tokens';

let server: Awaited<ReturnType<typeof startTestServer>>;
let answers: Record<string, (request: RecordedRequest) => [number, unknown]>;
const pathOf = (request: RecordedRequest) => request.url.split('?')[0].replace(/^\/api\//, '');

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    const answer = answers[pathOf(request)];
    const [status, body] = answer ? answer(request) : [404, { code: 'NOT_FOUND' }];
    json(res, status, body);
  });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  answers = {};
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

const registered = (): Partial<RootState> => ({
  session: { ...initialSessionState, authorizationToken: tokenExpiringAt(Math.floor(Date.now() / 1000) + 3600) },
  form: { ...initialFormState, email: 'ana@example.com', _persist: { version: -1, rehydrated: true } },
});
const VERIFY = 'onboarding-management-private/email/verify';
const RESEND = 'onboarding-management-private/email/resend';

it('blocked by the fifth wrong code: the notice says until when, the field is disabled without "required", the resend says when', async () => {
  answers[VERIFY] = () => [423, { code: 'CODE_BLOCKED', message: 'Blocked', retryAfterSeconds: 900 }];
  const { user } = renderApp('/reg-code', { state: registered() });
  const field = await screen.findByLabelText('Code from the e-mail', { selector: 'input' });
  await user.type(field, '123456');
  await user.click(screen.getByRole('button', { name: 'Confirm' }));

  expect(await screen.findByRole('alert')).toHaveTextContent(/^Too many wrong codes\. For your security, wait until \d{2}:\d{2} [AP]M and ask for a new code\.$/);
  expect(field).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Confirm' })).toBeDisabled();
  expect(screen.getByRole('button', { name: 'Send me a new code' })).toBeDisabled();
  expect(screen.getByText(/^You can ask for a new code at \d{2}:\d{2} [AP]M\.$/)).toBeInTheDocument();
  // Leaving the disabled field, or anything else, draws no field error under it.
  await user.tab();
  expect(screen.queryByText('This field is required')).not.toBeInTheDocument();
  expect(screen.queryByText(/has expired/)).not.toBeInTheDocument();
  expect(screen.getAllByRole('alert')).toHaveLength(1);
});

it('asked for a new code during the block, says until when; once it is over, sends one and the field takes it', async () => {
  // The page's clock is Jest's from here: the block ends when the test says (network and promises stay real).
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  try {
    answers[RESEND] = () => [423, { code: 'CODE_BLOCKED', message: 'Blocked', retryAfterSeconds: 900 }];
    renderApp('/reg-code', { state: registered() });
    const user = userEvent.setup({ advanceTimers: jest.advanceTimersByTime });
    await user.click(await screen.findByRole('button', { name: 'Send me a new code' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/wait until \d{2}:\d{2} [AP]M and ask for a new code/);
    expect(screen.queryByText(/has expired/)).not.toBeInTheDocument();
    const field = screen.getByLabelText('Code from the e-mail', { selector: 'input' });
    expect(field).toBeDisabled();
    const resend = screen.getByRole('button', { name: 'Send me a new code' });
    expect(resend).toBeDisabled();

    // The block's end, as the server gave it: the button and the field come back.
    answers[RESEND] = () => [200, { resendAfterSeconds: 30 }];
    act(() => jest.advanceTimersByTime(901_000));
    expect(resend).toBeEnabled();
    await user.click(resend);
    expect(await screen.findByText('We have sent you a new code.')).toBeInTheDocument();
    expect(field).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Confirm' })).toBeEnabled();
  } finally {
    jest.useRealTimers();
  }
});
