import { persistReducer, FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE, type PersistedState } from 'redux-persist';
import createWebStorage from 'redux-persist/lib/storage/createWebStorage';
import { formReducer, initialFormState } from '../state/formSlice';
import { StorageKey } from '../storage/browserStorage';

/** redux-persist's own actions carry functions; the serializability check must skip them. */
export const PERSIST_ACTIONS = [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER];

/**
 * Only the onboarding form is persisted, under the key USER_FORM exactly (no "persist:" prefix). It holds no
 * secret: the password and the codes stay in their screens, the tokens in other slices.
 */
export const persistedFormReducer = persistReducer(
  {
    key: StorageKey.USER_FORM,
    keyPrefix: '',
    storage: createWebStorage('local'),
    // A stored form is taken only where the form has the field: a USER_FORM written by hand or by another
    // version cannot bring in a field the form does not have (a password or a code among them).
    migrate: async (stored) =>
      stored && (Object.fromEntries(Object.entries(stored).filter(([key]) => key in initialFormState || key === '_persist')) as PersistedState),
  },
  formReducer,
);
