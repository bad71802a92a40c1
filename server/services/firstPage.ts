import type { RuntimeConfig } from '../../src/config/runtimeConfig';
import { FIRST_PAGE_BLOCKS } from '../../src/config/firstPage';
import { FALLBACK_LOCALE, isLocale, LANGUAGE_COOKIE, localeFromQuery, type Locale } from '../../src/i18n/locale';
import { routeByPath, type RouteArea } from '../../src/routing/routes';
import { escapeHtml } from '../routes/html';

/**
 * The language the app will start in, as far as the server can see (src/i18n/locale.ts, detectLocale):
 * `?lang=`, else the language the app last used (the `divilo_lang` cookie it keeps in step with its stored
 * choice), else the first language the browser lists (what `navigator.language` is), else English. The app
 * still decides by its own rule: a catalog for another language is simply not used.
 */
export function pageLocale(request: { search: string; cookies: Record<string, string | undefined>; acceptLanguage: string | undefined }): Locale {
  const fromQuery = localeFromQuery(request.search);
  if (fromQuery) return fromQuery;
  const fromCookie = request.cookies[LANGUAGE_COOKIE];
  if (isLocale(fromCookie)) return fromCookie;
  const fromBrowser = request.acceptLanguage?.split(',')[0].trim().slice(0, 2).toLowerCase();
  return isLocale(fromBrowser) ? fromBrowser : FALLBACK_LOCALE;
}

/** The screen area a page load ends in: `/` goes to /login, an unknown path to /signUp (src/app/router.tsx). */
export function pageArea(pathname: string): RouteArea {
  if (pathname.replace(/\/+$/, '') === '') return 'login';
  return routeByPath(pathname)?.area ?? 'onboarding';
}

/**
 * JSON that can sit inside a `<script>` element: `<` written as `\u003c`, so no `</script>` or `<!--` in the
 * data can end the element early. Still the same JSON to `JSON.parse`.
 */
export function jsonForScript(json: string): string {
  return json.replace(/</g, '\\u003c');
}

function insertBefore(html: string, tag: string, content: string): string {
  const at = html.lastIndexOf(tag);
  return at === -1 ? html + content : html.slice(0, at) + content + html.slice(at);
}

/**
 * index.html as the build made it, plus what the app needs first, so that it starts without a second round
 * trip: the preload of the files of the page's screen area (found in the page, fetched with the app's own
 * files), then, as data blocks the app reads (src/config/firstPage.ts), the runtime configuration and the texts
 * of the page's language. The page's `lang` is that language.
 */
export function renderFirstPage(
  template: string,
  parts: { config: RuntimeConfig; locale: Locale; catalog?: string; catalogPart?: 'login'; preload: string[] },
): string {
  const links = parts.preload
    .map((file) => {
      // A font is fetched in CORS mode even from the same origin: its preload must say so to be used.
      if (file.endsWith('.woff2')) return `<link rel="preload" as="font" type="font/woff2" href="/${escapeHtml(file)}" crossorigin>`;
      const as = file.endsWith('.css') ? 'style' : 'script';
      return `<link rel="preload" as="${as}" href="/${escapeHtml(file)}">`;
    })
    .join('');
  const blocks =
    `<script type="application/json" id="${FIRST_PAGE_BLOCKS.config}">${jsonForScript(JSON.stringify(parts.config))}</script>` +
    (parts.catalog === undefined ? '' : `<script type="application/json" id="${FIRST_PAGE_BLOCKS.locale}" data-locale="${parts.locale}"${parts.catalogPart ? ` data-part="${parts.catalogPart}"` : ''}>${jsonForScript(parts.catalog)}</script>`);
  const withLang = template.replace(/<html\b[^>]*>/i, (tag) => tag.replace(/\slang=("[^"]*"|'[^']*'|[^\s>]*)/i, ` lang="${parts.locale}"`));
  return insertBefore(insertBefore(withLang, '</head>', links), '</body>', blocks);
}
