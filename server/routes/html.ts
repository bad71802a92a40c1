import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { atRoot } from '../paths';

/** The languages of the server's own pages, named in themselves like the app's language switch. */
const LANGUAGES = [
  { code: 'es', short: 'ES', name: 'Español' },
  { code: 'en', short: 'EN', name: 'English' },
] as const;

const SKIP = { es: 'Saltar al contenido principal', en: 'Skip to main content' };
const LANGUAGE_LABEL = { es: 'Idioma', en: 'Language' };

/** The app's nine-cube mark; decorative. */
const LOGO_MARK = `<svg class="dv-logo__mark" viewBox="0 0 22 22" width="26" height="26" aria-hidden="true" focusable="false">${[0, 1, 2]
  .flatMap((row) => [0, 1, 2].map((column) => `<rect x="${column * 8}" y="${row * 8}" width="6" height="6" rx="1" fill="currentColor"/>`))
  .join('')}</svg>`;

interface ShellOptions {
  lang: 'es' | 'en';
  /** Where each language's link goes (the same page in that language); no switch without it. */
  languageHref?: (lang: 'es' | 'en') => string;
  /** What goes after <main>, outside it (dialogs). */
  after?: string;
}

/**
 * Server-rendered pages in the app's own frame: the skip link, the header with the logo and the language
 * switch, the page in a card. Styled by /server.css (the app's own style sheets); scripts only from files.
 */
export function page(title: string, body: string, lang: 'es' | 'en' | string = 'en', options: Partial<ShellOptions> = {}): string {
  const language = lang === 'es' ? 'es' : 'en';
  const switcher = options.languageHref
    ? `<nav class="dv-languages" aria-label="${LANGUAGE_LABEL[language]}">${LANGUAGES.map(
        ({ code, short, name }) =>
          `<a class="dv-languages__button" lang="${code}" hreflang="${code}" href="${escapeHtml(options.languageHref!(code))}"${code === language ? ' aria-current="true"' : ''}>${short}<span class="dv-visually-hidden"> ${name}</span></a>`,
      ).join('')}</nav>`
    : '';
  return `<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${escapeHtml(title)} · Divilo</title><link rel="icon" href="/favicon.svg"><link rel="preload" href="${FONT_FILES.login.url}" as="font" type="font/woff2" crossorigin><link rel="stylesheet" href="/server.css"></head><body><div class="dv-layout"><a href="#main" class="dv-layout__skip">${SKIP[language]}</a><header class="dv-layout__header"><span class="dv-logo">${LOGO_MARK}<span class="dv-logo__text">Divilo</span></span>${switcher}</header><div class="dv-layout__body"><main id="main" tabindex="-1" class="dv-layout__main">${body}</main></div></div>${options.after ?? ''}</body></html>`;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);
}

const fontDir = path.join(path.dirname(require.resolve('@fontsource-variable/figtree/package.json')), 'files');
const { version: fontVersion } = JSON.parse(readFileSync(path.join(fontDir, '..', 'package.json'), 'utf8')) as { version: string };

const loginFont = atRoot('src/styles/fonts/figtree-login-wght-normal.woff2');
const loginFontHash = createHash('sha256').update(readFileSync(loginFont)).digest('hex').slice(0, 10);

/**
 * The brand typeface's files (src/styles/fonts.css), at addresses that change with the package's version or the
 * file's content (so they can be cached for good).
 */
export const FONT_FILES = {
  login: { url: `/fonts/figtree-${fontVersion}/login.${loginFontHash}.woff2`, file: loginFont },
  latin: { url: `/fonts/figtree-${fontVersion}/latin.woff2`, file: path.join(fontDir, 'figtree-latin-wght-normal.woff2') },
  'latin-ext': { url: `/fonts/figtree-${fontVersion}/latin-ext.woff2`, file: path.join(fontDir, 'figtree-latin-ext-wght-normal.woff2') },
} as const;

/**
 * The app's own style sheets (tokens, frame, buttons, language switch, dialogs) — one source for both —
 * with the typeface's faces pointed at the server's copies, and the few rules only these pages need.
 */
export const SERVER_CSS = [
  readFileSync(atRoot('src/styles/fonts.css'), 'utf8')
    .replace(/url\('\.\/fonts\/figtree-login-wght-normal\.woff2'\)/, `url('${FONT_FILES.login.url}')`)
    .replace(/url\('@fontsource-variable\/figtree\/files\/figtree-latin-wght-normal\.woff2'\)/, `url('${FONT_FILES.latin.url}')`)
    .replace(/url\('@fontsource-variable\/figtree\/files\/figtree-latin-ext-wght-normal\.woff2'\)/, `url('${FONT_FILES['latin-ext'].url}')`),
  ...['src/styles/global.css', 'src/components/base.css', 'src/components/Layout.css', 'src/components/LanguageSelector.css', 'src/components/LoadingButton.css', 'src/components/Modal.css'].map(
    (file) => readFileSync(atRoot(file), 'utf8'),
  ),
  `
/* Server pages: the language switch is made of links. */
a.dv-languages__button { display: inline-flex; align-items: center; justify-content: center; text-decoration: none; }
a.dv-languages__button[aria-current='true'] { background: var(--dv-blue); color: #ffffff; }
a.dv-button { text-decoration: none; }
.dv-page { max-width: 34rem; }
.dv-page p { margin: 0 0 1rem; }
.dv-page__muted { color: var(--dv-muted); }
.dv-page__actions { display: flex; flex-wrap: wrap; gap: 0.75rem; margin-top: 1.5rem; }
.dv-page__status { margin: 0 0 1rem; color: var(--dv-success); font-weight: 500; }
.dv-page__status:empty { display: none; }
[hidden] { display: none !important; }
table { border-collapse: collapse; width: 100%; background: #fff; }
td, th { border: 1px solid var(--dv-line); padding: 0.4rem 0.6rem; text-align: left; font-size: 0.9rem; vertical-align: top; }
`,
].join('\n');
