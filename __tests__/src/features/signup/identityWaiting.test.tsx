import { screen } from '@testing-library/react';
import type { RootState } from '../../../../src/app/store';
import { setRuntimeConfig } from '../../../../src/config';
import { initialFormState } from '../../../../src/state/formSlice';
import { initialSessionState } from '../../../../src/state/sessionSlice';
import { renderApp } from '../../app/renderApp';
import { json, startTestServer, type RecordedRequest } from '../../services/testServer';
import { testRuntimeConfig } from '../../testConfig';
import { liveToken } from '../../tokens';

// The waiting page against a local server that answers as the real one: the identity check's state, the
// application, and the contract's words once the applicant moves on.
let server: Awaited<ReturnType<typeof startTestServer>>;
let identity: { status: string; reason?: string };

const application = (currentStep: string) => ({
  id: 'application-1',
  status: 'in-progress',
  personType: 'freelance',
  currentStep,
  completedSteps: [],
  answers: {},
  maskedEmail: 'a***@example.com',
});

function answer(request: RecordedRequest): [number, unknown] {
  const path = request.url.split('?')[0].replace(/^\/api\//, '');
  if (path === 'onboarding-management-private/identity-check') return [200, identity];
  if (path === 'onboarding-management-private/application') return [200, application(identity.status === 'rejected' ? 'check-identity' : 'docu-sign')];
  if (path === 'onboarding-management-private/contract/text') return [200, { language: 'en', blocks: [{ kind: 'title', text: 'Divilo business account contract' }] }];
  if (path === 'user-authorization-management/get-session') return [401, { code: 'NO_SESSION' }];
  return [404, { code: 'NOT_FOUND' }];
}

beforeAll(async () => {
  server = await startTestServer((request, res) => json(res, ...answer(request)));
});
afterAll(() => server.close());
beforeEach(() => {
  localStorage.clear();
  setRuntimeConfig(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
});

const waiting = (): Partial<RootState> => ({
  session: { ...initialSessionState, authorizationToken: liveToken() },
  form: { ...initialFormState, _persist: { version: -1, rehydrated: true } },
});

describe('/check-identity-waiting', () => {
  it("says honestly that the bank will look at the photos, and lets the applicant go on to the contract when ready", async () => {
    identity = { status: 'needs-review' };
    const { user, router } = renderApp('/check-identity-waiting', { state: waiting() });
    const said = await screen.findByText('Thank you: we have your photos. A person at Divilo will check them before your account is opened. Meanwhile, you can sign your contract.', {}, { timeout: 5000 });
    expect(said.closest('[role="status"]')).not.toBeNull();
    // The page does not move on by itself: the applicant reads it first.
    expect(router.state.location.pathname).toBe('/check-identity-waiting');
    await user.click(screen.getByRole('button', { name: 'Go on to the contract' }));
    await screen.findByRole('heading', { level: 1, name: /contract/i });
    expect(router.state.location.pathname).toBe('/docu-sign');
  });

  it('speaks Spanish too', async () => {
    identity = { status: 'needs-review' };
    renderApp('/check-identity-waiting?lang=es', { state: waiting(), locale: 'es' });
    expect(await screen.findByText(/Una persona de Divilo las revisará antes de abrir tu cuenta/, {}, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Continuar con el contrato' })).toBeInTheDocument();
  });
});
