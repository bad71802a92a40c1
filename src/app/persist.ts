import { persistReducer, FLUSH, PAUSE, PERSIST, PURGE, REGISTER, REHYDRATE } from 'redux-persist';
import createWebStorage from 'redux-persist/lib/storage/createWebStorage';
import { formReducer, SECRET_FORM_FIELDS } from '../features/form/formSlice';
import { StorageKey } from '../storage/browserStorage';

/** redux-persist's own actions carry functions; the serializability check must skip them. */
export const PERSIST_ACTIONS = [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER];

/**
 * Only the onboarding form is persisted, under the key USER_FORM exactly (no "persist:" prefix), and
 * without its secrets: the password and the verification codes live in memory only.
 */
export const persistedFormReducer = persistReducer(
  {
    key: StorageKey.USER_FORM,
    keyPrefix: '',
    storage: createWebStorage('local'),
    blacklist: [...SECRET_FORM_FIELDS],
  },
  formReducer,
);
