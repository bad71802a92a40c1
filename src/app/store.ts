import { combineReducers, configureStore, type Middleware, type MiddlewareAPI, type Reducer, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { persistStore } from 'redux-persist';
import { authReducer } from '../state/authSlice';
import { addLoginListeners } from '../features/login/loginListeners';
import { addSessionListeners } from '../features/session/sessionListeners';
import { addOnboardingListeners } from '../features/signup/onboardingListeners';
import { initialSessionState, sessionReducer, type ClosedApplication } from '../state/sessionSlice';
import type { StoreFeature } from '../state/storeFeature';
import { addUiListeners } from './uiListeners';
import { initialUiState, uiReducer } from '../state/uiSlice';
import type { Locale } from '../i18n/locale';
import { api } from '../services/api';
import { loadItem, StorageKey } from '../storage/browserStorage';
import { createActionRecorder, type ActionRecorder } from './diagnostics';
import { createAppListenerMiddleware, type Navigation } from './listenerMiddleware';
import { PERSIST_ACTIONS, persistedFormReducer } from './persist';
import { redactSecrets } from './redact';

const staticReducers = {
  [api.reducerPath]: api.reducer,
  session: sessionReducer,
  auth: authReducer,
  form: persistedFormReducer,
  ui: uiReducer,
};

export type RootState = { [K in keyof typeof staticReducers]: ReturnType<(typeof staticReducers)[K]> };

/**
 * The middleware of the features added since the store was made (StoreFeature), in the order they came. Redux's
 * own means (a slot in the chain, replaceReducer), not RTK's combineSlices and dynamic middleware: those would
 * add 2 KB to every page, /login's included, for what only the back office uses.
 */
function featureMiddleware() {
  const added: Middleware[] = [];
  let store: MiddlewareAPI | undefined;
  let next: ((action: unknown) => unknown) | undefined;
  let chain: (action: unknown) => unknown = (action) => next!(action);
  const rebuild = () => {
    const instances = added.map((middleware) => middleware(store!));
    chain = instances.reduceRight<(action: unknown) => unknown>((after, instance) => instance(after), next!);
  };
  const middleware: Middleware = (api) => {
    store = api;
    return (after) => {
      next = after;
      return (action) => chain(action);
    };
  };
  return {
    middleware,
    add(feature: Middleware) {
      added.push(feature);
      rebuild();
    },
  };
}
/** Spelled out rather than inferred from the store: the listeners' types need it before the store exists. */
export type AppDispatch = ThunkDispatch<RootState, unknown, UnknownAction>;

interface StoreOptions {
  navigation?: Navigation;
  /** Keep the persisted form in sync with USER_FORM (off for stores built from a diagnostics dump). */
  persist?: boolean;
}

/** A remembered refusal, if the stored value is one (storage is the user's to edit). */
function closedApplicationOf(value: unknown): ClosedApplication | null {
  if (typeof value !== 'object' || value === null) return null;
  const { page, entity } = value as Record<string, unknown>;
  if ((page !== 'forbidden-user' && page !== 'company-error') || typeof entity !== 'string' || !/^[A-Z]?$/.test(entity)) return null;
  return { page, entity };
}

/** The app starts from what the browser remembers: token, session id, remembered page; and the language. */
export function initialStateFromBrowser(locale: Locale): Partial<RootState> {
  return {
    ui: { ...initialUiState, locale },
    session: {
      ...initialSessionState,
      authorizationToken: loadItem<string>(StorageKey.JWT) ?? null,
      sessionId: loadItem<string>(StorageKey.SESSION_ID) ?? null,
      currentPage: loadItem<string>(StorageKey.CURRENT_PAGE) ?? null,
      closedApplication: closedApplicationOf(loadItem<unknown>(StorageKey.CLOSED_APPLICATION)),
    },
  };
}

export function makeStore(preloadedState?: Partial<RootState>, options: StoreOptions = {}) {
  const navigation: Navigation = options.navigation ?? {
    navigate: (to) => window.location.assign(to),
    leaveApp: (url) => window.location.assign(url),
  };
  const listenerMiddleware = createAppListenerMiddleware({ navigation });
  const recorder = createActionRecorder();
  const features = featureMiddleware();

  const store = configureStore({
    reducer: combineReducers(staticReducers),
    preloadedState,
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: PERSIST_ACTIONS } })
        .prepend(listenerMiddleware.middleware)
        .concat(api.middleware, features.middleware, recorder.middleware as Middleware),
    // Support staff read customers' sessions in Redux DevTools: secrets are redacted before they leave.
    devTools: {
      name: 'Divilo onboarding',
      actionSanitizer: (action) => redactSecrets(action),
      stateSanitizer: (state) => redactSecrets(state),
    },
  });

  addSessionListeners(listenerMiddleware.startListening);
  addUiListeners(listenerMiddleware.startListening);
  addLoginListeners(listenerMiddleware.startListening);
  addOnboardingListeners(listenerMiddleware.startListening);
  const persistor = options.persist === false ? null : persistStore(store);
  const featureReducers: Record<string, Reducer> = {};
  /** Adds a feature's state (started by Redux's own replace action) and its middleware, once. */
  const addFeature = (feature: StoreFeature) => {
    if (feature.reducerPath in featureReducers) return;
    featureReducers[feature.reducerPath] = feature.reducer;
    if (feature.middleware) features.add(feature.middleware);
    store.replaceReducer(combineReducers({ ...staticReducers, ...featureReducers }) as unknown as Reducer<RootState>);
  };
  return Object.assign(store, { persistor, recorder: recorder as ActionRecorder, navigation, addFeature });
}

export type AppStore = ReturnType<typeof makeStore>;
