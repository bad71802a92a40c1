import { isSecretKey } from '../../../src/app/redact';
import { initialStateFromBrowser, makeStore } from '../../../src/app/store';
import { signInSucceeded } from '../../../src/state/authSlice';
import { formActions, initialFormState } from '../../../src/state/formSlice';
import { onboardingApi } from '../../../src/features/signup/onboardingApi';
import { sessionStarted } from '../../../src/state/sessionSlice';

beforeEach(() => localStorage.clear());

const signUp = { email: 'ana@example.es', idType: 'nif', id: '12345678Z', passportExpeditionCountry: '', promotionalCode: '', promotionalCodeFromParam: false } as const;

/** The form is written to storage only once redux-persist has read it back (rehydrated). */
function rehydrated(store: ReturnType<typeof makeStore>): Promise<void> {
  return new Promise((resolve) => {
    if (store.persistor!.getState().bootstrapped) resolve();
    else store.persistor!.subscribe(() => store.persistor!.getState().bootstrapped && resolve());
  });
}

async function persisted(store: ReturnType<typeof makeStore>): Promise<Record<string, unknown>> {
  await store.persistor!.flush();
  const raw = localStorage.getItem('USER_FORM');
  if (!raw) throw new Error('USER_FORM was not written');
  // redux-persist stores each field as JSON text inside a JSON object.
  return Object.fromEntries(Object.entries(JSON.parse(raw) as Record<string, string>).map(([k, v]) => [k, JSON.parse(v)]));
}

describe('the persisted onboarding form', () => {
  it('is saved under USER_FORM on every change, with no token of the session or the sign-in', async () => {
    const store = makeStore(initialStateFromBrowser('es'));
    await rehydrated(store);
    store.dispatch(formActions.registrationSubmitted(signUp));
    store.dispatch(sessionStarted({ token: 'onboarding-session-token-abc' }));
    store.dispatch(formActions.draftKept({ step: 'contact-phone', values: { telephoneNumber: '600000000' } }));
    store.dispatch(signInSucceeded({ phone: '******000', token: 'create-session-token-xyz', status: 200, resendAvailableAt: null }));
    const saved = await persisted(store);
    expect(saved.email).toBe('ana@example.es');
    expect(saved.drafts).toEqual({ 'contact-phone': { telephoneNumber: '600000000' } });
    expect(Object.keys(saved).filter(isSecretKey)).toEqual([]);
    expect(localStorage.getItem('USER_FORM')).not.toMatch(/onboarding-session-token-abc|create-session-token-xyz/);
  });

  it('a new store resumes the saved form', async () => {
    const first = makeStore(initialStateFromBrowser('es'));
    await rehydrated(first);
    first.dispatch(formActions.draftKept({ step: 'personal-info', values: { firstSurname: 'García', birthDate: '01/02/1990' } }));
    await first.persistor!.flush();

    const second = makeStore(initialStateFromBrowser('es'));
    await rehydrated(second);
    expect(second.getState().form.drafts['personal-info']).toEqual({ firstSurname: 'García', birthDate: '01/02/1990' });
  });

  it('keeps none of the answers the application saved: those are read from the server', async () => {
    const store = makeStore(initialStateFromBrowser('es'));
    await rehydrated(store);
    store.dispatch(formActions.draftKept({ step: 'personal-info', values: { firstName: 'Ana' } }));
    const application = { id: 'a-1', status: 'in-progress', personType: 'company', currentStep: 'about-company', completedSteps: [], answers: { firstName: 'Ana', cif: 'B12345674' }, maskedEmail: 'a***@example.es' } as const;
    await store.dispatch(onboardingApi.util.upsertQueryData('getApplication', undefined, { ...application, completedSteps: ['personal-info'] }));
    store.dispatch(formActions.draftDropped('personal-info'));
    const saved = await persisted(store);
    expect(saved.drafts).toEqual({});
    expect(localStorage.getItem('USER_FORM')).not.toMatch(/B12345674|"Ana"/);
  });

  it('a returning browser resumes its stored form, without the fields the form does not have', async () => {
    // As redux-persist writes it: each field as JSON text inside a JSON object.
    // An older version kept the answers too (firstSurname): they are not taken, the server has them.
    const stored = { email: 'ana@example.es', firstSurname: 'García', diviloPassword: 'Secreto-2026!', verificationPhoneToken: '551177', _persist: { version: -1, rehydrated: true } };
    localStorage.setItem('USER_FORM', JSON.stringify(Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, JSON.stringify(v)]))));
    const store = makeStore(initialStateFromBrowser('es'));
    await rehydrated(store);
    expect(store.getState().form).toMatchObject({ email: 'ana@example.es' });
    for (const key of ['firstSurname', 'diviloPassword', 'verificationPhoneToken']) expect(store.getState().form).not.toHaveProperty(key);
    store.dispatch(formActions.draftKept({ step: 'contact-phone', values: { telephoneNumber: '600000000' } }));
    const saved = await persisted(store);
    expect(saved).toMatchObject({ email: 'ana@example.es', drafts: { 'contact-phone': { telephoneNumber: '600000000' } } });
    expect(localStorage.getItem('USER_FORM')).not.toMatch(/Secreto-2026!|551177/);
  });
});

describe('form updates', () => {
  it('reset forgets who was signing up and every draft', () => {
    const store = makeStore(undefined, { persist: false });
    store.dispatch(formActions.registrationSubmitted(signUp));
    store.dispatch(formActions.draftKept({ step: 'about-company', values: { cif: 'B12345674' } }));
    store.dispatch(formActions.formReset());
    expect(store.getState().form).toEqual(initialFormState);
  });

  it('after a session ended, keeps who was signing up and drops the drafts', () => {
    const store = makeStore(undefined, { persist: false });
    store.dispatch(formActions.registrationSubmitted(signUp));
    store.dispatch(formActions.draftKept({ step: 'about-company', values: { cif: 'B12345674' } }));
    store.dispatch(formActions.formResetForResume());
    expect(store.getState().form).toEqual({ ...initialFormState, ...signUp });
  });
});
