import { detectLocale } from '../../../src/i18n/locale';
import { saveItem, StorageKey } from '../../../src/storage/browserStorage';

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
