import { initialStateFromBrowser, makeStore } from '../../../src/app/store';
import { formActions } from '../../../src/features/form/formSlice';

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
  it('is saved under USER_FORM on every change, without the password or the verification codes', async () => {
    const store = makeStore(initialStateFromBrowser('es'));
    await rehydrated(store);
    store.dispatch(formActions.registrationSubmitted({ email: 'ana@example.es', id: '12345678Z', verificationEmailToken: '482913', passportExpeditionCountry: '' }));
    store.dispatch(formActions.passwordChosen({ diviloPassword: 'Secreto-2026!' }));
    store.dispatch(formActions.signInCompleted({ telephoneNumber: '+34600000000', verificationPhoneToken: '551177', id: '12345678Z' }));
    const saved = await persisted(store);
    expect(saved.email).toBe('ana@example.es');
    expect(saved.telephoneNumber).toBe('+34600000000');
    expect(saved).not.toHaveProperty('diviloPassword');
    expect(saved).not.toHaveProperty('verificationEmailToken');
    expect(saved).not.toHaveProperty('verificationPhoneToken');
    expect(localStorage.getItem('USER_FORM')).not.toMatch(/Secreto-2026!|482913|551177/);
    // The secrets are still there for the step that needs them.
    expect(store.getState().form.diviloPassword).toBe('Secreto-2026!');
  });

  it('a new store resumes the saved form', async () => {
    const first = makeStore(initialStateFromBrowser('es'));
    await rehydrated(first);
    first.dispatch(formActions.personalInfoSubmitted({
      firstName: 'Ana', firstSurname: 'García', secondSurname: 'López', nationality: 'ES', residenceCountry: 'ES', birthCountry: 'ES', birthDate: '01/02/1990',
    }));
    await first.persistor!.flush();

    const second = makeStore(initialStateFromBrowser('es'));
    await rehydrated(second);
    expect(second.getState().form.firstSurname).toBe('García');
    expect(second.getState().form.birthDate).toBe('01/02/1990');
  });
});

describe('form updates', () => {
  it('reset blanks every field, initial values overlay a saved record, political position clears', () => {
    const store = makeStore(undefined, { persist: false });
    store.dispatch(formActions.initialValuesLoaded({ email: 'x@y.es', owners: [], politicalPosition: true, cif: 'B12345674' }));
    expect(store.getState().form.cif).toBe('B12345674');
    expect(store.getState().form.firstName).toBe('');
    store.dispatch(formActions.politicalPositionCleared());
    expect(store.getState().form.politicalPosition).toBe(false);
    store.dispatch(formActions.formReset());
    expect(store.getState().form.cif).toBe('');
    expect(store.getState().form.politicalPosition).toBe(true);
  });

  it('each step changes only its own fields', () => {
    const store = makeStore(undefined, { persist: false });
    store.dispatch(formActions.companyAddressSubmitted({
      companyAddress: 'Calle Mayor 1', companyAdditionalAddress: '2º B', companyPostalCode: '28013', companyCity: 'Madrid', companyCountry: 'ES',
    }));
    store.dispatch(formActions.numbersSubmitted({ employeeNumber: '12', bussinesVolume: '250000' }));
    const form = store.getState().form;
    expect(form).toMatchObject({ companyPostalCode: '28013', employeeNumber: '12', bussinesVolume: '250000' });
    expect(form.selfEmployedFiscalPostalCode).toBe('');
  });
});
