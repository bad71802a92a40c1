import type { MessageFormatElement } from 'react-intl';
import { FIRST_PAGE_BLOCKS, readDataBlock } from '../config/firstPage';
import { loadItem, saveItem, StorageKey } from '../storage/browserStorage';

export const LOCALES = ['es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const FALLBACK_LOCALE: Locale = 'en';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The supported language a language tag starts with (`es-MX` → `es`, any case), if any. */
function localeOfTag(tag: string | undefined): Locale | undefined {
  const language = tag?.slice(0, 2).toLowerCase();
  return isLocale(language) ? language : undefined;
}

/**
 * The language of the page on show (react-intl's `intl.locale`), for texts kept in both languages: its first two
 * letters, as detectLocale reads the browser's, else English.
 */
export function pageLocale(locale: string): Locale {
  return localeOfTag(locale) ?? FALLBACK_LOCALE;
}

/**
 * The language to start in: `?lang=` (ES or EN, any case), else the stored choice, else the first two
 * letters of the browser's language, else English.
 */
export function detectLocale(search: string, navigatorLanguage: string | undefined): Locale {
  const fromQuery = localeFromQuery(search);
  if (fromQuery) return fromQuery;
  const stored = loadItem<string>(StorageKey.LOCALE);
  if (isLocale(stored)) return stored;
  return localeOfTag(navigatorLanguage) ?? FALLBACK_LOCALE;
}

/** The cookie that tells the server's own pages (the main app, its session screens) the language the customer uses. */
export const LANGUAGE_COOKIE = 'divilo_lang';

/** Shares the language in use with the server's pages, which cannot read the app's storage. */
export function shareLocale(locale: Locale): void {
  if (typeof document === 'undefined') return;
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${locale}; Path=/; Max-Age=31536000; SameSite=Lax${secure}`;
}

/** Keeps a language the customer chose (the selector, or `?lang=`): it follows them to the next visit and to /app. */
export function storeLocale(locale: Locale): void {
  saveItem(StorageKey.LOCALE, locale);
  shareLocale(locale);
}

/** The language `?lang=` asks for, if any. */
export function localeFromQuery(search: string): Locale | undefined {
  const fromQuery = new URLSearchParams(search).get('lang')?.toLowerCase();
  return isLocale(fromQuery) ? fromQuery : undefined;
}

/** Texts by id: plain ICU strings (the files in locales/), or parsed into ASTs (what the app loads). */
export type Messages = Record<string, string> | Record<string, MessageFormatElement[]>;

/** The whole catalog of each language, fetched or on its way. */
const cache = new Map<Locale, Promise<Messages>>();
/** The catalogs that have arrived, whole or the page's part, for a render that need not wait. */
const arrived = new Map<Locale, Messages>();
/** Told when a whole catalog arrives (one the page carried only a part of, for one). */
const listeners = new Set<(locale: Locale, messages: Messages) => void>();

/**
 * The whole catalog of a language. Locale files are fetched on demand, never bundled, already parsed by the
 * server (`/locales/{locale}.ast.json`): the bundle leaves out the ICU message parser (webpack aliases it to its
 * no-parser build).
 */
export function loadMessages(locale: Locale, fetchImpl: typeof fetch = fetch): Promise<Messages> {
  let pending = cache.get(locale);
  if (!pending) {
    pending = fetchImpl(`/locales/${locale}.ast.json`).then(async (response) => {
      if (!response.ok) throw new Error(`Request failed with status code ${response.status}`);
      const messages = (await response.json()) as Messages;
      arrived.set(locale, messages);
      listeners.forEach((listener) => listener(locale, messages));
      return messages;
    });
    pending.catch(() => cache.delete(locale));
    cache.set(locale, pending);
  }
  return pending;
}

/** A catalog already here (written into the page, whole or in part, or fetched before), without waiting. */
export function loadedMessages(locale: Locale): Messages | undefined {
  return arrived.get(locale);
}

/** Calls `listener` with each whole catalog that arrives from now on; answers how to stop. */
export function onMessagesArrived(listener: (locale: Locale, messages: Messages) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Takes the catalog the server wrote into the page (`#divilo-locale`, the same parsed texts as
 * `/locales/{locale}.ast.json`, or with `data-part` only the login journey's), under the language it names: a
 * whole one is then never fetched, a part until a screen needs more (loadMessages). Returns that language, or
 * undefined when the page carries no catalog.
 */
export function adoptInlinedMessages(page?: Document): Locale | undefined {
  const block = readDataBlock(FIRST_PAGE_BLOCKS.locale, page);
  const locale = block?.element.getAttribute('data-locale');
  if (!block || !isLocale(locale)) return undefined;
  const messages = block.data as Messages;
  arrived.set(locale, messages);
  if (!block.element.hasAttribute('data-part')) cache.set(locale, Promise.resolve(messages));
  return locale;
}
