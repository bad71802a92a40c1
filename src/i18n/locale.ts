import type { MessageFormatElement } from 'react-intl';
import { loadItem, saveItem, StorageKey } from '../storage/browserStorage';

export const LOCALES = ['es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const FALLBACK_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * The language to start in: `?lang=` (ES or EN, any case), else the stored choice, else the first two
 * letters of the browser's language, else English.
 */
export function detectLocale(search: string, navigatorLanguage: string | undefined): Locale {
  const fromQuery = new URLSearchParams(search).get('lang')?.toLowerCase();
  if (isLocale(fromQuery)) return fromQuery;
  const stored = loadItem<string>(StorageKey.LOCALE);
  if (isLocale(stored)) return stored;
  const fromBrowser = navigatorLanguage?.slice(0, 2).toLowerCase();
  if (isLocale(fromBrowser)) return fromBrowser;
  return FALLBACK_LOCALE;
}

export function storeLocale(locale: Locale): void {
  saveItem(StorageKey.LOCALE, locale);
}

/** Texts by id: plain ICU strings (the files in locales/), or parsed into ASTs (what the app loads). */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;

const cache = new Map<Locale, Promise<Messages>>();

/**
 * Locale files are fetched on demand, never bundled, already parsed by the server (`/locales/{locale}.ast.json`):
 * the bundle leaves out the ICU message parser (webpack aliases it to its no-parser build).
 */
export function loadMessages(locale: Locale, fetchImpl: typeof fetch = fetch): Promise<Messages> {
  let pending = cache.get(locale);
  if (!pending) {
    pending = fetchImpl(`/locales/${locale}.ast.json`).then((response) => {
      if (!response.ok) throw new Error(`Request failed with status code ${response.status}`);
      return response.json() as Promise<Messages>;
    });
    pending.catch(() => cache.delete(locale));
    cache.set(locale, pending);
  }
  return pending;
}
