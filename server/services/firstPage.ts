import { createHash } from 'node:crypto';
import type { RuntimeConfig } from '../../src/config/runtimeConfig';
import { FIRST_PAGE_BLOCKS, FIRST_SCREEN } from '../../src/config/firstPage';
import { phoneHref } from '../../src/config/phoneHref';
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
 * The one script the page runs before the app's: on the first screen, it records the last button pressed (its
 * label) or Enter in a field, for the app to do it again when it takes over (src/routing/firstScreen.ts). Typing
 * after it forgets it: only a press that was the user's last action is done again (never a Log in while typing).
 * Inline, so that it is there as soon as the screen is; the CSP allows it by its hash (FIRST_SCREEN_SCRIPT_HASH).
 */
export const FIRST_SCREEN_SCRIPT = `(function(){var screen=document.getElementById(${JSON.stringify(FIRST_SCREEN.element)});if(!screen)return;function press(label){screen.setAttribute(${JSON.stringify(FIRST_SCREEN.pressedAttribute)},label)}screen.addEventListener('click',function(event){var button=event.target.closest&&event.target.closest('button');if(button)press(button.getAttribute('aria-label')||button.textContent||'')});screen.addEventListener('keydown',function(event){if(event.key==='Enter'&&event.target.tagName==='INPUT')press('')});screen.addEventListener('input',function(){screen.removeAttribute(${JSON.stringify(FIRST_SCREEN.pressedAttribute)})})})();`;

/** The CSP source that allows FIRST_SCREEN_SCRIPT, and nothing else inline. */
export const FIRST_SCREEN_SCRIPT_HASH = `'sha256-${createHash('sha256').update(FIRST_SCREEN_SCRIPT).digest('base64')}'`;

/** Whether a page load shows the login screen, which the page draws before the app runs (FIRST_SCREEN). */
export function drawsFirstScreen(pathname: string): boolean {
  return routeByPath(pathname)?.name === 'login';
}

/**
 * The built first screen (FIRST_SCREEN.file) with the runtime configuration's values in place of its
 * placeholders, escaped for HTML: the support phone (its `tel:` link's digits, then its text) and the privacy
 * policy's address.
 */
export function fillFirstScreen(fragment: string, config: Pick<RuntimeConfig, 'supportPhone' | 'legalLinks'>): string {
  const { supportPhone, privacyUrl } = FIRST_SCREEN.placeholders;
  return fragment
    .replaceAll(`tel:${supportPhone}`, `tel:${escapeHtml(phoneHref(config.supportPhone))}`)
    .replaceAll(supportPhone, escapeHtml(config.supportPhone))
    .replaceAll(privacyUrl, escapeHtml(config.legalLinks.privacy));
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
 * of the page's language. The page's `lang` is that language. With `firstScreen` (the login's, filled), the
 * page draws it before the app's element, and its area's style sheets are linked rather than preloaded.
 */
export function renderFirstPage(
  template: string,
  parts: { config: RuntimeConfig; locale: Locale; catalog?: string; catalogPart?: 'login'; preload: string[]; firstScreen?: string },
): string {
  const links = parts.preload
    .map((file) => {
      // A font is fetched in CORS mode even from the same origin: its preload must say so to be used.
      if (file.endsWith('.woff2')) return `<link rel="preload" as="font" type="font/woff2" href="/${escapeHtml(file)}" crossorigin>`;
      // The screen drawn before the app runs needs its area's styles at once; the app finds them already there.
      if (file.endsWith('.css') && parts.firstScreen !== undefined) return `<link rel="stylesheet" href="/${escapeHtml(file)}">`;
      const as = file.endsWith('.css') ? 'style' : 'script';
      return `<link rel="preload" as="${as}" href="/${escapeHtml(file)}">`;
    })
    .join('');
  const blocks =
    `<script type="application/json" id="${FIRST_PAGE_BLOCKS.config}">${jsonForScript(JSON.stringify(parts.config))}</script>` +
    (parts.catalog === undefined ? '' : `<script type="application/json" id="${FIRST_PAGE_BLOCKS.locale}" data-locale="${parts.locale}"${parts.catalogPart ? ` data-part="${parts.catalogPart}"` : ''}>${jsonForScript(parts.catalog)}</script>`);
  const withLang = template.replace(/<html\b[^>]*>/i, (tag) => tag.replace(/\slang=("[^"]*"|'[^']*'|[^\s>]*)/i, ` lang="${parts.locale}"`));
  const withScreen = parts.firstScreen === undefined ? withLang : withLang.replace(/<div\b[^>]*\sid=(?:"app"|'app'|app)[\s>]/i, (app) => `<div id="${FIRST_SCREEN.element}">${parts.firstScreen}</div><script>${FIRST_SCREEN_SCRIPT}</script>${app}`);
  return insertBefore(insertBefore(withScreen, '</head>', links), '</body>', blocks);
}
