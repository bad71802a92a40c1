type Sanitizers = { actionSanitizer: (a: unknown) => unknown; stateSanitizer: (s: unknown) => unknown };

describe('Redux DevTools', () => {
  const w = window as unknown as { __REDUX_DEVTOOLS_EXTENSION_COMPOSE__?: unknown };
  afterEach(() => delete w.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__);

  it('receives only redacted states and actions', () => {
    let captured: Sanitizers | undefined;
    // The extension cannot run in Jest: this stand-in records the options the store hands it. Redux
    // Toolkit looks the extension up when it is loaded, so the store modules are loaded after it.
    w.__REDUX_DEVTOOLS_EXTENSION_COMPOSE__ = (options: Sanitizers) => {
      captured = options;
      return (...enhancers: Array<(next: unknown) => unknown>) => (createStore: unknown) =>
        enhancers.reduceRight((acc, enhancer) => enhancer(acc), createStore);
    };
    // Loaded after the stand-in is in place, in a registry of their own.
    /* eslint-disable @typescript-eslint/no-require-imports */
    jest.isolateModules(() => {
      const { makeStore } = require('../../../src/app/store') as typeof import('../../../src/app/store');
      const { signInSucceeded } = require('../../../src/state/authSlice') as typeof import('../../../src/state/authSlice');
      const { sessionStarted } = require('../../../src/state/sessionSlice') as typeof import('../../../src/state/sessionSlice');
      /* eslint-enable @typescript-eslint/no-require-imports */

      const store = makeStore(undefined, { persist: false });
      expect(captured).toBeDefined();
      const signedIn = signInSucceeded({ phone: '******000', token: 'create-session-token-xyz', status: 200, resendAvailableAt: null });
      store.dispatch(signedIn);
      store.dispatch(sessionStarted({ token: 'header.payload.signature' }));
      const dumped = JSON.stringify([captured!.stateSanitizer(store.getState()), captured!.actionSanitizer(signedIn)]);
      expect(dumped).not.toContain('create-session-token-xyz');
      expect(dumped).not.toContain('header.payload.signature');
      expect(dumped).toContain('[redacted]');
    });
  });
});
