import { isSecretKey } from '../../../src/app/redact';
import { initialStateFromBrowser, makeStore } from '../../../src/app/store';
import { signInSucceeded } from '../../../src/features/auth/authSlice';
import { formActions } from '../../../src/features/form/formSlice';
import { sessionStarted } from '../../../src/features/session/sessionSlice';

beforeEach(() => localStorage.clear());

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
    store.dispatch(formActions.registrationSubmitted({ email: 'ana@example.es', id: '12345678Z', passportExpeditionCountry: '' }));
    store.dispatch(sessionStarted({ token: 'onboarding-session-token-abc' }));
    store.dispatch(formActions.phoneSubmitted({ telephoneNumber: '+34600000000' }));
    store.dispatch(signInSucceeded({ phone: '******000', token: 'create-session-token-xyz', status: 200, resendAvailableAt: null }));
    const saved = await persisted(store);
    expect(saved.email).toBe('ana@example.es');
    expect(saved.telephoneNumber).toBe('+34600000000');
    expect(Object.keys(saved).filter(isSecretKey)).toEqual([]);
    expect(localStorage.getItem('USER_FORM')).not.toMatch(/onboarding-session-token-abc|create-session-token-xyz/);
  });

  it('a new store resumes the saved form', async () => {
    const first = makeStore(initialStateFromBrowser('es'));
    await rehydrated(first);
    first.dispatch(formActions.applicationSynced({
      firstName: 'Ana', firstSurname: 'García', secondSurname: 'López', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '01/02/1990',
    }));
    await first.persistor!.flush();

    const second = makeStore(initialStateFromBrowser('es'));
    await rehydrated(second);
    expect(second.getState().form.firstSurname).toBe('García');
    expect(second.getState().form.birthDate).toBe('01/02/1990');
  });

  it('a returning browser resumes its stored form, without the fields the form does not have', async () => {
    // As redux-persist writes it: each field as JSON text inside a JSON object.
    const stored = { email: 'ana@example.es', firstSurname: 'García', diviloPassword: 'Secreto-2026!', verificationPhoneToken: '551177', _persist: { version: -1, rehydrated: true } };
    localStorage.setItem('USER_FORM', JSON.stringify(Object.fromEntries(Object.entries(stored).map(([k, v]) => [k, JSON.stringify(v)]))));
    const store = makeStore(initialStateFromBrowser('es'));
    await rehydrated(store);
    expect(store.getState().form).toMatchObject({ email: 'ana@example.es', firstSurname: 'García' });
    expect(store.getState().form).not.toHaveProperty('diviloPassword');
    expect(store.getState().form).not.toHaveProperty('verificationPhoneToken');
    store.dispatch(formActions.phoneSubmitted({ telephoneNumber: '+34600000000' }));
    const saved = await persisted(store);
    expect(saved).toMatchObject({ email: 'ana@example.es', telephoneNumber: '+34600000000' });
    expect(localStorage.getItem('USER_FORM')).not.toMatch(/Secreto-2026!|551177/);
  });
});

describe('form updates', () => {
  it('reset blanks every field the saved application filled in', () => {
    const store = makeStore(undefined, { persist: false });
    store.dispatch(formActions.applicationSynced({ email: 'x@y.es', politicalPosition: false, cif: 'B12345674' }));
    expect(store.getState().form.cif).toBe('B12345674');
    expect(store.getState().form.firstName).toBe('');
    store.dispatch(formActions.formReset());
    expect(store.getState().form.cif).toBe('');
    expect(store.getState().form.politicalPosition).toBe(true);
  });
});
