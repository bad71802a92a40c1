import { combineReducers, configureStore, type Middleware, type ThunkDispatch, type UnknownAction } from '@reduxjs/toolkit';
import { persistStore } from 'redux-persist';
import { authReducer } from '../state/authSlice';
import { addLoginListeners } from '../features/login/loginListeners';
import { addSessionListeners } from '../features/session/sessionListeners';
import { addOnboardingListeners } from '../features/signup/onboardingListeners';
import { initialSessionState, sessionReducer, type ClosedApplication } from '../state/sessionSlice';
import { addUiListeners } from './uiListeners';
import { initialUiState, uiReducer } from '../state/uiSlice';
import type { Locale } from '../i18n/locale';
import { api } from '../services/api';
import { loadItem, StorageKey } from '../storage/browserStorage';
import { createActionRecorder, type ActionRecorder } from './diagnostics';
import { createAppListenerMiddleware, type Navigation } from './listenerMiddleware';
import { PERSIST_ACTIONS, persistedFormReducer } from './persist';
import { redactSecrets } from './redact';

const rootReducer = combineReducers({
  [api.reducerPath]: api.reducer,
  session: sessionReducer,
  auth: authReducer,
  form: persistedFormReducer,
  ui: uiReducer,
});

export type RootState = ReturnType<typeof rootReducer>;
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

  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefault) =>
      getDefault({ serializableCheck: { ignoredActions: PERSIST_ACTIONS } })
        .prepend(listenerMiddleware.middleware)
        .concat(api.middleware, recorder.middleware as Middleware),
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
  return Object.assign(store, { persistor, recorder: recorder as ActionRecorder, navigation });
}

export type AppStore = ReturnType<typeof makeStore>;
