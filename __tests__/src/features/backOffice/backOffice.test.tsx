import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IntlProvider } from 'react-intl';
import { Provider } from 'react-redux';
import { MemoryRouter, useLocation } from 'react-router';
import { AppRoutes, lazyScreens } from '../../../../src/app/router';
import { makeStore } from '../../../../src/app/store';
import { backOfficeFeatures, type ApplicationPage, type QueueEntry } from '../../../../src/features/backOffice/backOfficeApi';
import en from '../../../../locales/en.json';

// The staff pool as amazon-cognito-identity-js answers it: what `pool` says, the next challenge by challenge.
const mockPool = {
  /** What the password step answers: straight in, a new password first, the enrolment, or a code. */
  afterPassword: 'mfaSetup' as 'mfaSetup' | 'totpRequired' | 'newPasswordRequired',
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DP',
  code: '123456',
  idToken: 'header.payload-of-the-id-token.signature',
  calls: [] as string[],
};

type MockCallbacks = Record<string, (...args: unknown[]) => void>;
jest.mock('amazon-cognito-identity-js', () => {
  const session = () => ({ getIdToken: () => ({ getJwtToken: () => mockPool.idToken }) });
  return {
    AuthenticationDetails: class {
      password: string;
      constructor(details: { Password: string }) {
        this.password = details.Password;
      }
    },
    CognitoUserPool: class {},
    CognitoUser: class {
      authenticateUser(details: { password: string }, callbacks: MockCallbacks) {
        mockPool.calls.push(`password:${details.password}`);
        if (details.password === 'Expired-Temporary-1') {
          return callbacks.onFailure({ code: 'NotAuthorizedException', message: 'Temporary password has expired and must be reset by an administrator.' });
        }
        if (details.password !== 'Right-Password-1') return callbacks.onFailure({ code: 'NotAuthorizedException', message: 'Incorrect username or password.' });
        callbacks[mockPool.afterPassword]();
      }
      completeNewPasswordChallenge(password: string, _attributes: unknown, callbacks: MockCallbacks) {
        mockPool.calls.push(`new-password:${password}`);
        // What only the pool knows: a password its policy refuses although the page's rule takes it.
        if (password === 'Refused-By-The-Pool-1') return callbacks.onFailure({ code: 'InvalidPasswordException', message: 'Password does not conform to policy' });
        callbacks.mfaSetup();
      }
      associateSoftwareToken(callbacks: MockCallbacks) {
        callbacks.associateSecretCode(mockPool.secret);
      }
      verifySoftwareToken(code: string, _device: string, callbacks: MockCallbacks) {
        mockPool.calls.push(`enrol:${code}`);
        if (code === mockPool.code) callbacks.onSuccess(session());
        else callbacks.onFailure({ code: 'EnableSoftwareTokenMFAException', message: 'Code mismatch' });
      }
      sendMFACode(code: string, callbacks: MockCallbacks, type: string) {
        mockPool.calls.push(`code:${code}:${type}`);
        if (code === mockPool.code) callbacks.onSuccess(session());
        else callbacks.onFailure({ code: 'CodeMismatchException', message: 'Invalid code received for user' });
      }
    },
  };
});

// The staff API, answered in the page: what each call gets, and every call made.
const CONFIG = { region: 'eu-west-1', userPoolId: 'eu-west-1_staff', clientId: 'staff-client', idleSeconds: 900, warningSeconds: 60 };
let api: {
  sessionStart: { status: number; body: unknown };
  session: { status: number; body: unknown };
  queue: { status: number; body: unknown };
  application: { status: number; body: unknown };
  reject: { status: number; body: unknown };
  /** The answers to the next calls recording an end of relationship, in turn. */
  relationshipEnd: { status: number; body: unknown }[];
  calls: { method: string; url: string; body?: unknown }[];
};
const ME = { username: 'reviewer@divilo.test', roles: ['reviewer', 'approver'], idleSeconds: 900, expiresAt: '2030-01-01T00:00:00.000Z' };
const entry = (overrides: Partial<QueueEntry> = {}): QueueEntry => ({
  id: '0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f',
  status: 'pending-review',
  path: 'freelance',
  risk: 'low',
  awaiting: 'decision',
  name: 'Ana García López',
  waitingSince: '2030-01-01T00:00:00.000Z',
  waitedHours: 30.5,
  overTarget: true,
  approvals: 0,
  canAct: true,
  ...overrides,
});
const application = (overrides: Partial<ApplicationPage> = {}): ApplicationPage => ({
  id: '0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f',
  status: 'pending-review',
  path: 'freelance',
  language: 'es',
  createdAt: '2030-01-01T00:00:00.000Z',
  updatedAt: '2030-01-02T00:00:00.000Z',
  currentStep: 'welcome',
  applicant: { name: 'Ana García López', email: 'ana@example.com', idDocument: '12345678Z', idType: 'dni' },
  steps: [
    {
      step: 'personal-info',
      section: 'you',
      fields: [
        { field: 'firstName', label: 'onboarding.personal-info.firstName', value: 'Ana' },
        { field: 'nationality', label: 'onboarding.personal-info.nationality', value: 'FR' },
      ],
    },
  ],
  documents: [{ kind: 'model036', size: 20480, checkedAt: '2030-01-01T00:00:00.000Z', sha256: 'ab'.repeat(32), evidence: 'does not match' }],
  identityCheck: null,
  risk: { level: 'high', reasons: [{ kind: 'politically-exposed', field: 'politicalPosition', value: true, level: 'high', source: 'Divilo customer acceptance policy' }], fourEyes: true },
  contract: null,
  supersededContracts: [],
  reopenable: ['your-activity', 'fiscal-address', 'tax-registration-income', 'tell-us-more-freelance'],
  review: { approvals: [{ actor: 'staff:first@divilo.test', at: '2030-01-02T10:00:00.000Z' }], awaiting: 'second-approval', canAct: true },
  audit: [],
  ...overrides,
});

const reply = (status: number, body: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  mockPool.afterPassword = 'mfaSetup';
  mockPool.calls = [];
  api = {
    sessionStart: { status: 201, body: ME },
    session: { status: 200, body: ME },
    queue: { status: 200, body: { targetHours: 24, applications: [entry()] } },
    application: { status: 200, body: application() },
    reject: { status: 200, body: { status: 'rejected', already: false, awaitingSecondApproval: false, effectsPending: [] } },
    relationshipEnd: [],
    calls: [],
  };
  global.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    api.calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (url === '/staff-api/config') return reply(200, CONFIG);
    if (url === '/staff-api/session' && method === 'POST') return reply(api.sessionStart.status, api.sessionStart.body);
    if (url === '/staff-api/session') return reply(api.session.status, api.session.body);
    if (url.startsWith('/staff-api/applications?') || url === '/staff-api/applications') return reply(api.queue.status, api.queue.body);
    if (url === '/staff-api/templates')
      return reply(200, [
        { id: 'not-served', kind: 'rejection', retired: false, title: { es: 'No podemos abrir tu cuenta', en: 'We cannot open your account' }, body: { es: 'Lo sentimos.', en: 'We are sorry.' } },
        { id: 'old', kind: 'rejection', retired: true, title: { es: 'Antigua', en: 'Old one' }, body: { es: 'x', en: 'x' } },
      ]);
    if (url.endsWith('/reject')) return reply(api.reject.status, api.reject.body);
    if (url.endsWith('/approve')) return reply(409, { code: 'SECOND_APPROVER_NEEDED', message: 'x' });
    if (url.endsWith('/relationship-end')) {
      const next = api.relationshipEnd.shift()!;
      return reply(next.status, next.body);
    }
    if (url.startsWith('/staff-api/applications/')) return reply(api.application.status, api.application.body);
    return reply(404, { code: 'NOT_FOUND' });
  }) as typeof fetch;
});
afterEach(() => jest.useRealTimers());

function Where() {
  const { pathname, search } = useLocation();
  return <div data-testid="where">{pathname + search}</div>;
}

/** The app at `path`, with the back office's state joined as its code would join it. */
function renderBackOffice(path: string) {
  const store = makeStore({ ui: { locale: 'en', toast: null } }, { persist: false, navigation: { navigate: jest.fn(), leaveApp: jest.fn() } });
  backOfficeFeatures.forEach(store.addFeature);
  const view = render(
    <Provider store={store}>
      <IntlProvider
        locale="en"
        messages={en}
        onError={(error) => {
          throw error;
        }}
      >
        <MemoryRouter initialEntries={[path]}>
          <AppRoutes screens={lazyScreens()} />
          <Where />
        </MemoryRouter>
      </IntlProvider>
    </Provider>,
  );
  return { ...view, store, where: () => screen.getByTestId('where').textContent };
}

async function typePassword(user: ReturnType<typeof userEvent.setup>, password = 'Right-Password-1') {
  await user.type(await screen.findByLabelText('Work e-mail'), 'reviewer@divilo.test');
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('the staff sign-in', () => {
  it('enrols the authenticator app at the first sign-in (QR code and key), refuses a wrong code, and opens the queue', async () => {
    const user = userEvent.setup();
    const { store, where } = renderBackOffice('/back-office');
    await typePassword(user);

    expect(await screen.findByRole('heading', { name: 'Set up your authenticator app' })).toHaveFocus();
    expect(screen.getByRole('img', { name: 'QR code to add Divilo to your authenticator app' })).toBeInTheDocument();
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP')).toBeInTheDocument();

    await user.type(screen.getByLabelText('The 6-digit code the app shows'), '12345');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText(/6 digits|6-digit|digits/i, { selector: '.dv-field__error' })).toBeInTheDocument();

    await user.clear(screen.getByLabelText('The 6-digit code the app shows'));
    await user.type(screen.getByLabelText('The 6-digit code the app shows'), '654321');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That code is not right or has expired');
    expect(screen.getByLabelText('The 6-digit code the app shows')).toHaveValue('');

    await user.type(screen.getByLabelText('The 6-digit code the app shows'), '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('link', { name: 'Ana García López' })).toBeInTheDocument();
    expect(where()).toBe('/back-office/queue');
    expect(mockPool.calls).toEqual(['password:Right-Password-1', 'enrol:654321', 'enrol:123456']);
    // The ID token went to the server once, and neither it nor the key nor a code is kept in the store.
    expect(api.calls.filter((call) => call.method === 'POST' && call.url === '/staff-api/session')).toEqual([
      { method: 'POST', url: '/staff-api/session', body: { idToken: mockPool.idToken } },
    ]);
    const state = JSON.stringify(store.getState());
    for (const secret of [mockPool.idToken, mockPool.secret, '123456', 'Right-Password-1']) expect(state).not.toContain(secret);
    expect(screen.getByText('Signed in as reviewer@divilo.test')).toBeInTheDocument();
  });

  it("asks an enrolled member for the app's code", async () => {
    mockPool.afterPassword = 'totpRequired';
    const user = userEvent.setup();
    const { where } = renderBackOffice('/back-office');
    await typePassword(user);
    await user.type(await screen.findByLabelText('6-digit code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await screen.findByRole('link', { name: 'Ana García López' });
    expect(where()).toBe('/back-office/queue');
    expect(mockPool.calls).toEqual(['password:Right-Password-1', 'code:123456:SOFTWARE_TOKEN_MFA']);
  });

  it("asks for a password of its own by the staff's rule in place of a temporary one, saying what is wrong, then enrols the app", async () => {
    mockPool.afterPassword = 'newPasswordRequired';
    const user = userEvent.setup();
    const { store } = renderBackOffice('/back-office');
    await typePassword(user);
    // The new step is heard: its heading takes the focus; the rule is the field's description.
    expect(await screen.findByRole('heading', { name: 'Choose your own password' })).toHaveFocus();
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(
      '12 to 256 characters, with a lowercase and an uppercase letter (A to Z), a number and a special character, for example @ or\u00a0#.',
    );
    expect(screen.getByLabelText('New password')).toHaveAttribute('autocomplete', 'new-password');

    // Eleven characters: enough for an applicant, not for the staff.
    await user.type(screen.getByLabelText('New password'), 'Short-Pass1');
    await user.type(screen.getByLabelText('Repeat the new password'), 'Short-Pass2');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    const rule = 'The password must be 12 to 256 characters long and include a lowercase and an uppercase letter (A to Z), a number and a special character such as @ or\u00a0#, with no space at the start or the end';
    await waitFor(() => expect(screen.getByLabelText('New password')).toHaveFocus());
    expect(screen.getByLabelText('New password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('New password')).toHaveAccessibleDescription(expect.stringContaining(rule));
    expect(screen.getByLabelText('Repeat the new password')).toHaveAccessibleDescription(expect.stringContaining('The passwords do not match'));
    expect(mockPool.calls).toEqual(['password:Right-Password-1']);

    // The pool's own refusal: said, and the step stays for another try.
    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Repeat the new password'));
    await user.type(screen.getByLabelText('New password'), 'Refused-By-The-Pool-1');
    await user.type(screen.getByLabelText('Repeat the new password'), 'Refused-By-The-Pool-1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The staff accounts do not accept that password. Choose another one.');
    expect(screen.getByRole('alert')).toHaveFocus();
    expect(screen.getByRole('heading', { name: 'Choose your own password' })).toBeInTheDocument();

    await user.clear(screen.getByLabelText('New password'));
    await user.clear(screen.getByLabelText('Repeat the new password'));
    await user.type(screen.getByLabelText('New password'), 'Own-Password-2030');
    await user.type(screen.getByLabelText('Repeat the new password'), 'Own-Password-2030');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { name: 'Set up your authenticator app' })).toHaveFocus();
    expect(mockPool.calls).toEqual(['password:Right-Password-1', 'new-password:Refused-By-The-Pool-1', 'new-password:Own-Password-2030']);
    const state = JSON.stringify(store.getState());
    for (const secret of ['Own-Password-2030', 'Refused-By-The-Pool-1', 'Right-Password-1']) expect(state).not.toContain(secret);
  });

  it('says that a temporary password has expired and who renews it', async () => {
    const user = userEvent.setup();
    renderBackOffice('/back-office');
    await typePassword(user, 'Expired-Temporary-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('The password you were given has expired. Ask an administrator of the back office for a new one.');
    expect(screen.getByLabelText('Work e-mail')).toBeInTheDocument();
  });

  it('says why a sign-in is refused: a wrong password, then an account with no role', async () => {
    mockPool.afterPassword = 'totpRequired';
    api.sessionStart = { status: 403, body: { code: 'NO_ROLE', message: 'x' } };
    const user = userEvent.setup();
    const { where } = renderBackOffice('/back-office');
    await typePassword(user, 'Wrong-Password-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('The e-mail or the password is not right.');

    await user.clear(screen.getByLabelText('Password'));
    await user.type(screen.getByLabelText('Password'), 'Right-Password-1');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    await user.type(await screen.findByLabelText('6-digit code'), '123456');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your account has no back-office role yet.');
    expect(where()).toBe('/back-office');
  });
});

describe('the staff session', () => {
  it('warns before an idle session ends, and back at the sign-in says why', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    const { where } = renderBackOffice('/back-office/queue');
    await screen.findByRole('link', { name: 'Ana García López' });

    // 900 s idle, warned 60 s before: nothing at 830 s, the dialog at 841 s, the sign-in at 901 s.
    await act(async () => jest.advanceTimersByTime(830_000));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await act(async () => jest.advanceTimersByTime(11_000));
    const dialog = await screen.findByRole('alertdialog', { name: 'Are you still there?' });
    // The staff's words: nothing of theirs is saved as they type (the applicant's dialog says what they saved is kept).
    expect(dialog).toHaveTextContent('your session will end in 59 seconds. Anything typed and not sent yet would be lost.');
    await act(async () => jest.advanceTimersByTime(60_000));
    await waitFor(() => expect(where()).toBe('/back-office'));
    expect(await screen.findByRole('status')).toHaveTextContent('your session ended after a while without use');
  });

  it('goes back to the sign-in with a message when a call finds the session over', async () => {
    const { where } = renderBackOffice('/back-office/queue');
    await screen.findByRole('link', { name: 'Ana García López' });
    api.queue = { status: 401, body: { code: 'NO_STAFF_SESSION', message: 'Sign in to the back office' } };
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Risk'), 'high');
    await waitFor(() => expect(where()).toBe('/back-office'));
    expect(await screen.findByRole('status')).toHaveTextContent('Your session has ended. Sign in again to go on.');
  });

  it('sends a page opened without a session to the sign-in, without a message', async () => {
    api.session = { status: 401, body: { code: 'NO_STAFF_SESSION', message: 'x' } };
    const { where } = renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    await waitFor(() => expect(where()).toBe('/back-office'));
    await screen.findByLabelText('Work e-mail');
    expect(screen.queryByText(/session has ended/)).toBeNull();
  });
});

describe('the queue', () => {
  it('shows the wait against the target in words, and filters through the address', async () => {
    api.queue = { status: 200, body: { targetHours: 24, applications: [entry(), entry({ id: '1b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f', name: 'Luis Pérez', waitedHours: 3, overTarget: false, risk: 'high', approvals: 1, awaiting: 'second-approval' })] } };
    const user = userEvent.setup();
    const { where } = renderBackOffice('/back-office/queue');
    const table = await screen.findByRole('table');
    const [, first, second] = within(table).getAllByRole('row');
    expect(within(first).getByText('Over target')).toBeInTheDocument();
    expect(first).toHaveTextContent('30 h');
    expect(within(second).queryByText('Over target')).toBeNull();
    expect(second).toHaveTextContent('3 h of 24 h');
    expect(second).toHaveTextContent('1 of 2');
    expect(screen.getByRole('status')).toHaveTextContent('2 applications.');

    await user.selectOptions(screen.getByLabelText('Risk'), 'high');
    await user.click(screen.getByLabelText('Only those I can act on'));
    await waitFor(() => expect(where()).toBe('/back-office/queue?risk=high&mine=true'));
    await waitFor(() => expect(api.calls.at(-1)?.url).toBe('/staff-api/applications?risk=high&mine=true'));
  });
});

describe('the application page', () => {
  it('shows the answers with their labels, a high-risk review waiting for its second approver, and an evidence problem plainly', async () => {
    renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    expect(await screen.findByText('High risk: this application needs two approvers.')).toBeInTheDocument();
    expect(screen.getByText(/Approved first by first@divilo.test/)).toBeInTheDocument();
    expect(screen.getByText('Waiting for a second approver.')).toBeInTheDocument();
    expect(screen.getByText('First name')).toBeInTheDocument();
    expect(screen.getByText('France')).toBeInTheDocument();
    expect(screen.getByText('Does not match the fingerprint: do not rely on it')).toBeInTheDocument();
    // A copy that does not match is not offered.
    expect(screen.getByRole('heading', { name: 'Modelo 036 or 037' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Show/ })).toBeNull();
  });

  it("names the identity check's result, its flags and the documents in words, says which message a rejection sent, and names the audit trail once", async () => {
    api.application = {
      status: 200,
      body: application({
        status: 'rejected',
        documents: [{ kind: 'documentFront', size: 20480, checkedAt: '2030-01-01T00:00:00.000Z', sha256: 'cd'.repeat(32), evidence: 'matches' }],
        identityCheck: { status: 'needs-review', provider: 'manual', startedAt: '2030-01-01T00:00:00.000Z', reason: 'toString', flags: ['no-face-in-selfie', 'id-document-held', 'a-new-flag'] },
        review: { rejection: { templateId: 'not-served', text: 'Lo sentimos.' }, awaiting: null, canAct: false },
        audit: [{ id: 1, occurredAt: '2030-01-02T00:00:00.000Z', actor: 'staff:reviewer@divilo.test', action: 'onboarding.review_rejected', subject: 'onboarding:0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f', details: {} }],
      }),
    };
    renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    expect(await screen.findByText('Waiting for a reviewer')).toBeInTheDocument();
    expect(screen.getByText("The bank's reviewers")).toBeInTheDocument();
    // A provider's own reason is shown as it came, even one that names a property every object has.
    expect(screen.getByText('toString')).toBeInTheDocument();
    const flags = screen.getByText('No face found in the selfie').closest('ul')!;
    expect(within(flags).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'No face found in the selfie',
      'The ID document is already verified in another application',
      // A code the page has no words for yet is still shown, as it is.
      'a-new-flag',
    ]);
    expect(screen.getByRole('heading', { name: 'Front of the ID document' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show Front of the ID document' })).toBeInTheDocument();
    expect(await screen.findByText('Message sent to the applicant: We cannot open your account')).toBeInTheDocument();
    // In the applicant's language, whatever the page's.
    expect(screen.getByText('Lo sentimos.')).toHaveAttribute('lang', 'es');
    expect(screen.getAllByRole('region', { name: 'Audit trail' })).toHaveLength(1);
  });

  it('refuses a rejection without a reason, previews the template in the applicant\'s language, and says a refusal', async () => {
    const user = userEvent.setup();
    renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    await user.click(await screen.findByRole('button', { name: 'Reject the application' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.getByLabelText("The bank's reason")).toHaveFocus();
    expect(api.calls.some((call) => call.url.endsWith('/reject'))).toBe(false);

    const template = screen.getByLabelText('Message to the applicant');
    expect(within(template).queryByText('Old one')).toBeNull();
    await user.selectOptions(template, 'not-served');
    expect(screen.getByText('No podemos abrir tu cuenta')).toBeInTheDocument();
    expect(screen.getByText('What the applicant will read (Spanish)')).toBeInTheDocument();

    api.reject = { status: 409, body: { code: 'ALREADY_DECIDED', message: 'x' } };
    await user.type(screen.getByLabelText("The bank's reason"), 'Activity outside the bank policy');
    await user.click(screen.getByRole('button', { name: 'Reject the application' }));
    expect(await screen.findByText('This application has already been decided.')).toBeInTheDocument();
    expect(api.calls.find((call) => call.url.endsWith('/reject'))?.body).toEqual({ reason: 'Activity outside the bank policy', templateId: 'not-served' });

    await user.click(screen.getByRole('button', { name: 'Approve the application' }));
    expect(await screen.findByText(/a second approver has to decide/)).toBeInTheDocument();
  });

  it('keeps a refused approval said, focused, when the application reloaded offers no approval any more', async () => {
    const user = userEvent.setup();
    renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    const approve = await screen.findByRole('button', { name: 'Approve the application' });
    // What the reload after the refusal finds: this member approved already (in another tab), so cannot act.
    api.application = { status: 200, body: application({ review: { approvals: [{ actor: 'staff:reviewer@divilo.test', at: '2030-01-02T10:00:00.000Z' }], awaiting: 'second-approval', canAct: false } }) };
    await user.click(approve);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Approve the application' })).toBeNull());
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('You have already approved this high-risk application: a second approver has to decide.');
    expect(alert).toHaveFocus();
  });

  it('shows a reviewer no approval, and asks a reason for an identity not confirmed', async () => {
    api.session = { status: 200, body: { ...ME, roles: ['reviewer'] } };
    api.application = { status: 200, body: application({ review: { awaiting: 'identity-review', canAct: true }, risk: { level: 'low', reasons: [], fourEyes: false } }) };
    const user = userEvent.setup();
    renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    await user.click(await screen.findByLabelText('The identity is not confirmed'));
    await user.click(screen.getByRole('button', { name: 'Record the decision' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve the application' })).toBeNull();
  });

  it('names the compliance role of a member of internal control, who reads the application without review actions', async () => {
    api.session = { status: 200, body: { ...ME, roles: ['compliance'] } };
    api.application = { status: 200, body: application({ review: { awaiting: 'decision', canAct: true } }) };
    renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    expect(await screen.findByText('Compliance')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Approve the application' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reject the application' })).toBeNull();
  });

  it("lets compliance record an approved customer's last day, saying a refusal and then what was recorded", async () => {
    api.session = { status: 200, body: { ...ME, roles: ['compliance'] } };
    api.application = { status: 200, body: application({ status: 'approved', review: { awaiting: null, canAct: false } }) };
    api.relationshipEnd = [
      { status: 400, body: { code: 'DATE_IN_FUTURE', message: 'x' } },
      { status: 200, body: { endedOn: '2030-03-31', retainUntil: '2040-04-01T00:00:00.000Z', already: false } },
    ];
    const user = userEvent.setup();
    renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    const record = await screen.findByRole('button', { name: 'Record end of relationship' });
    await user.click(record);
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    const date = screen.getByLabelText('Last day as a customer');
    await user.type(date, '2030-04-02');
    await user.click(record);
    expect(await screen.findByRole('alert')).toHaveTextContent('That day has not come yet: record the end once it has happened.');
    await user.clear(date);
    await user.type(date, '2030-03-31');
    await user.click(record);
    expect(await screen.findByText('The relationship ended on 2030-03-31. Its evidence is kept until 2040-04-01.')).toHaveAttribute('role', 'status');
    expect(api.calls.filter((call) => call.url.endsWith('/relationship-end')).map((call) => [call.method, call.body])).toEqual([
      ['POST', { date: '2030-04-02' }],
      ['POST', { date: '2030-03-31' }],
    ]);
  });

  it('offers the end of relationship to compliance only, and only for an approved customer', async () => {
    api.application = { status: 200, body: application({ status: 'approved', review: { awaiting: null, canAct: false } }) };
    renderBackOffice('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f');
    expect(await screen.findByRole('button', { name: 'Add the note' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Record end of relationship' })).toBeNull();
  });
});

describe("a person's requests about their data", () => {
  const ID = '0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f';
  /** The erasure request answered as given; every other call as the page's other tests answer it. */
  function answerErasure(status: number, body: unknown) {
    const others = global.fetch;
    global.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      if (!String(input).endsWith('/erasure-request')) return others(input, init);
      api.calls.push({ method: init?.method ?? 'GET', url: String(input), body: init?.body ? JSON.parse(String(init.body)) : undefined });
      return reply(status, body);
    }) as typeof fetch;
  }

  it('offers an administrator the export and the erasure request, and says how the request was answered and by when', async () => {
    api.session = { status: 200, body: { ...ME, roles: ['reviewer', 'administrator'] } };
    answerErasure(200, { answerDue: '2030-02-03', outcomes: [{ applicationId: ID, outcome: 'refused', ground: 'customer-relationship', law: 'Ley 10/2010, art. 25' }] });
    const user = userEvent.setup();
    renderBackOffice(`/back-office/applications/${ID}`);
    expect(await screen.findByRole('heading', { name: 'Export personal data' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download the archive' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Record and answer the request' }));
    expect(await screen.findByText('This field is required')).toBeInTheDocument();
    expect(api.calls.some((call) => call.url.endsWith('/erasure-request'))).toBe(false);
    await user.type(screen.getByLabelText('Day the request was received'), '2030-01-03');
    await user.click(screen.getByRole('button', { name: 'Record and answer the request' }));
    expect(await screen.findByText(`Application ${ID}: kept (an approved customer; Ley 10/2010, art. 25). Tell the person this ground.`)).toBeInTheDocument();
    expect(screen.getByText('Answer the person by February 3, 2030.')).toBeInTheDocument();
    expect(api.calls).toContainEqual({ method: 'POST', url: `/staff-api/applications/${ID}/erasure-request`, body: { receivedOn: '2030-01-03' } });
  });

  it('says a refused date in words', async () => {
    api.session = { status: 200, body: { ...ME, roles: ['administrator', 'reviewer'] } };
    answerErasure(400, { code: 'INVALID_RECEIVED_DATE', message: 'x' });
    const user = userEvent.setup();
    renderBackOffice(`/back-office/applications/${ID}`);
    await user.type(await screen.findByLabelText('Day the request was received'), '2030-01-03');
    await user.click(screen.getByRole('button', { name: 'Record and answer the request' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Give the day the request was received: today or earlier.');
  });

  it('offers neither to a reviewer', async () => {
    renderBackOffice(`/back-office/applications/${ID}`);
    expect(await screen.findByText('First name')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Export personal data' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Erasure request' })).toBeNull();
  });
});
