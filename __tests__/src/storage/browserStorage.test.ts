import {
  clearAll,
  clearStoredSession,
  isTokenExpired,
  loadItem,
  readTokenExpiry,
  removeItem,
  saveItem,
  StorageKey,
} from '../../../src/storage/browserStorage';
import { tokenExpiringAt } from '../tokens';

beforeEach(() => localStorage.clear());

describe('browser storage', () => {
  it('saves values as JSON text by key and reads them back', () => {
    saveItem(StorageKey.CURRENT_PAGE, 'personal-info');
    saveItem(StorageKey.USER_FORM, { email: 'ana@example.es', owners: [{ percentage: 30 }] });
    expect(localStorage.getItem('CURRENT_PAGE')).toBe('"personal-info"');
    expect(loadItem(StorageKey.USER_FORM)).toEqual({ email: 'ana@example.es', owners: [{ percentage: 30 }] });
  });

  it('answers undefined for a missing key or a value that is not JSON', () => {
    expect(loadItem(StorageKey.JWT)).toBeUndefined();
    localStorage.setItem('JWT', 'not json {');
    expect(loadItem(StorageKey.JWT)).toBeUndefined();
  });

  it('removes one key and leaves the others', () => {
    saveItem(StorageKey.JWT, 'a.b.c');
    saveItem(StorageKey.LOCALE, 'es');
    removeItem(StorageKey.JWT);
    expect(loadItem(StorageKey.JWT)).toBeUndefined();
    expect(loadItem(StorageKey.LOCALE)).toBe('es');
  });

  it('clears everything', () => {
    saveItem(StorageKey.JWT, 'a.b.c');
    saveItem(StorageKey.LOCALE, 'es');
    clearAll();
    expect(localStorage.length).toBe(0);
  });

  it('clearing the stored session keeps the chosen language, and which refusal page a closed application shows', () => {
    for (const key of Object.values(StorageKey)) saveItem(key, 'x');
    clearStoredSession();
    // The refusal page survives its own clearing of the session (a reload, a language switch); a new sign-up forgets it.
    expect(Object.keys({ ...localStorage }).sort()).toEqual(['CLOSED_APPLICATION', 'locale']);
  });
});

describe('token expiry', () => {
  it('reads exp from the payload, base64url with or without padding', () => {
    expect(readTokenExpiry(tokenExpiringAt(1767225600))).toBe(1767225600);
    expect(readTokenExpiry(tokenExpiringAt(7))).toBe(7);
  });

  it('treats a past exp, a missing exp and garbage as expired', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    expect(isTokenExpired(tokenExpiringAt(now / 1000 + 1), now)).toBe(false);
    expect(isTokenExpired(tokenExpiringAt(now / 1000), now)).toBe(true);
    expect(isTokenExpired('header.eyJzdWIiOiJ4In0.sig', now)).toBe(true);
    expect(isTokenExpired('garbage', now)).toBe(true);
  });
});
