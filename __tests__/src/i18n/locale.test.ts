import { detectLocale, localeFromQuery, pageLocale, storeLocale } from '../../../src/i18n/locale';
import { loadItem, saveItem, StorageKey } from '../../../src/storage/browserStorage';

beforeEach(() => localStorage.clear());

describe('detectLocale', () => {
  it('takes ?lang= first, in any case, over the stored and the browser language', () => {
    saveItem(StorageKey.LOCALE, 'en');
    expect(detectLocale('?lang=ES', 'en-GB')).toBe('es');
    expect(detectLocale('?promo=X&lang=eN', 'es-ES')).toBe('en');
  });

  it('ignores an unsupported ?lang= and falls back to the stored locale', () => {
    saveItem(StorageKey.LOCALE, 'es');
    expect(detectLocale('?lang=fr', 'en-US')).toBe('es');
  });

  it('uses the first two letters of the browser language when nothing is stored', () => {
    expect(detectLocale('', 'es-MX')).toBe('es');
    expect(detectLocale('', 'EN-us')).toBe('en');
  });

  it('falls back to English for any other language', () => {
    expect(detectLocale('', 'ca-ES')).toBe('en');
    expect(detectLocale('', undefined)).toBe('en');
  });
});

describe('pageLocale', () => {
  it("names the page's language for texts kept in both by its first two letters, English for anything else", () => {
    expect(pageLocale('es')).toBe('es');
    expect(pageLocale('en')).toBe('en');
    // The back office once read the same locale two ways: "starts with en" (else Spanish) and "is es" (else English).
    expect(pageLocale('es-ES')).toBe('es');
    expect(pageLocale('en-GB')).toBe('en');
    expect(pageLocale('fr')).toBe('en');
    expect(pageLocale('')).toBe('en');
  });
});

describe('a chosen language follows the customer to the server\'s pages', () => {
  it('storeLocale keeps the choice and shares it in the divilo_lang cookie', () => {
    storeLocale('es');
    expect(loadItem(StorageKey.LOCALE)).toBe('es');
    expect(document.cookie).toContain('divilo_lang=es');
    storeLocale('en');
    expect(document.cookie).toContain('divilo_lang=en');
    expect(document.cookie).not.toContain('divilo_lang=es');
  });

  it('localeFromQuery reads ?lang= in any case, and nothing else', () => {
    expect(localeFromQuery('?lang=ES')).toBe('es');
    expect(localeFromQuery('?lang=fr')).toBeUndefined();
    expect(localeFromQuery('')).toBeUndefined();
  });
});
