import { buildDiagnosticsDump, stateFromDiagnosticsDump } from '../../../src/app/diagnostics';
import { redactSecrets } from '../../../src/app/redact';
import { makeStore } from '../../../src/app/store';
import { signInSucceeded } from '../../../src/state/authSlice';
import { formActions } from '../../../src/state/formSlice';
import { sessionStarted } from '../../../src/state/sessionSlice';
import { liveToken } from '../tokens';

const SECRETS = ['create-session-token-xyz'];

function storeWithSecrets() {
  const store = makeStore(undefined, { persist: false, navigation: { navigate: jest.fn(), leaveApp: jest.fn() } });
  const jwt = liveToken();
  store.dispatch(sessionStarted({ token: jwt }));
  store.dispatch(formActions.registrationSubmitted({ email: 'ana@example.es', idType: 'nif', id: '12345678Z', passportExpeditionCountry: '', promotionalCode: '', promotionalCodeFromParam: false }));
  store.dispatch(formActions.draftKept({ step: 'contact-phone', values: { telephoneNumber: '600000000' } }));
  store.dispatch(signInSucceeded({ phone: '******000', token: 'create-session-token-xyz', status: 200, resendAvailableAt: null }));
  return { store, jwt };
}

describe('redaction', () => {
  it('replaces secrets at any depth and keeps everything else', () => {
    const redacted = redactSecrets({ a: { password: 'p', nested: [{ verificationCode: '123456', keep: 'yes' }] }, token: '', email: 'e' });
    expect(redacted).toEqual({ a: { password: '[redacted]', nested: [{ verificationCode: '[redacted]', keep: 'yes' }] }, token: '', email: 'e' });
  });
});

describe('the diagnostics dump', () => {
  it('carries no password, code or token, in states or actions', () => {
    const { store, jwt } = storeWithSecrets();
    const dump = buildDiagnosticsDump(store.recorder, store.getState());
    for (const secret of [...SECRETS, jwt]) expect(dump).not.toContain(secret);
    expect(dump).toContain('ana@example.es');
  });

  it('is the lifted-state file Redux DevTools imports: actions in order, one computed state each', () => {
    const { store } = storeWithSecrets();
    const file = JSON.parse(buildDiagnosticsDump(store.recorder, store.getState())) as { payload: string; preloadedState: string };
    const lifted = JSON.parse(file.payload);
    const types = lifted.stagedActionIds.map((id: number) => lifted.actionsById[id].action.type);
    expect(types.slice(-3)).toEqual(['form/registrationSubmitted', 'form/draftKept', 'auth/signInSucceeded']);
    expect(lifted.computedStates).toHaveLength(lifted.stagedActionIds.length);
    expect(lifted.currentStateIndex).toBe(lifted.stagedActionIds.length - 1);
    expect(lifted.actionsById[lifted.stagedActionIds.at(-1)].action.payload.token).toBe('[redacted]');
  });

  it('a store built from the dump ends in the same (redacted) state', () => {
    const { store } = storeWithSecrets();
    const replayed = makeStore(stateFromDiagnosticsDump(buildDiagnosticsDump(store.recorder, store.getState())) as never, { persist: false });
    expect(replayed.getState().form.email).toBe('ana@example.es');
    expect(replayed.getState().form.drafts['contact-phone']).toEqual({ telephoneNumber: '600000000' });
    expect(replayed.getState().auth.signInResult?.token).toBe('[redacted]');
    expect(replayed.getState().session.authorizationToken).toBe('[redacted]');
  });

  it('keeps only the most recent actions', () => {
    const store = makeStore(undefined, { persist: false });
    for (let i = 0; i < 150; i += 1) store.dispatch(formActions.draftKept({ step: 'contact-phone', values: { telephoneNumber: String(i) } }));
    const lifted = JSON.parse(JSON.parse(buildDiagnosticsDump(store.recorder, store.getState())).payload);
    expect(lifted.stagedActionIds).toHaveLength(101);
    expect(lifted.computedStates.at(-1).state.form.drafts['contact-phone'].telephoneNumber).toBe('149');
    expect(lifted.committedState.form.drafts['contact-phone'].telephoneNumber).toBe('49');
  });
});
