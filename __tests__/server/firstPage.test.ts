// The page a browser gets for a screen of the app carries what the app needs first: the runtime configuration,
// the texts of its language and the preload of its screen's files, so the app starts without a second round trip.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { FIRST_SCREEN } from '../../src/config/firstPage';
import { fillFirstScreen, jsonForScript, pageArea, pageLocale } from '../../server/services/firstPage';
import { buildTestApp, type TestApp } from './helpers';

let fixtures: string;
let distDir: string;
let localesDir: string;
let server: TestApp;

// As the production build writes it (minified, unquoted attributes).
const INDEX_HTML =
  '<!doctype html><html lang=en><head><meta charset=utf-8><title>Divilo</title><script defer src=/assets/runtime.0123456789.js></script>' +
  '<script defer src=/assets/main.0123456789.js></script><link href=/assets/main.0123456789.css rel=stylesheet></head><body><div id=app></div></body></html>';
const CHUNK_GROUPS = {
  login: ['assets/398.0123456789.js', 'assets/login.0123456789.css', 'assets/login.0123456789.js'],
  'login-code': ['assets/398.0123456789.js', 'assets/login-code.0123456789.js'],
  recovery: ['assets/398.0123456789.js', 'assets/recovery.0123456789.js'],
  onboarding: ['assets/398.0123456789.js', 'assets/onboarding.0123456789.js'],
  identity: ['assets/identity.0123456789.js'],
  fonts: ['assets/figtree-latin-wght-normal.0123456789.woff2'],
};
const { supportPhone, privacyUrl } = FIRST_SCREEN.placeholders;
const FIRST_SCREEN_ES =
  `<div class="dv-layout"><main id="main"><form class="dv-login__form" method="post"><input name="userId" autoComplete="username"/></form>` +
  `<a href="${privacyUrl}">privacidad</a></main><aside><a href="tel:${supportPhone}">${supportPhone}</a></aside></div>`;

// A text that would end the <script> element, or open a comment in it, were it written as it is (quoted for
// ICU, which would read a tag there).
const TRICKY = "Pulsa '</script><script>alert(1)</script><!--' aquí";
const TRICKY_READ = 'Pulsa </script><script>alert(1)</script><!-- aquí';

beforeAll(async () => {
  fixtures = mkdtempSync(path.join(tmpdir(), 'divilo-first-page-'));
  distDir = path.join(fixtures, 'dist');
  localesDir = path.join(fixtures, 'locales');
  mkdirSync(path.join(distDir, 'assets'), { recursive: true });
  mkdirSync(localesDir);
  writeFileSync(path.join(distDir, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(distDir, 'chunk-groups.json'), JSON.stringify(CHUNK_GROUPS));
  for (const file of new Set(Object.values(CHUNK_GROUPS).flat())) writeFileSync(path.join(distDir, file), `/* ${file} */`);
  writeFileSync(
    path.join(localesDir, 'es.json'),
    JSON.stringify({
      'app.title': 'Divilo',
      'login.hint': TRICKY,
      'login.greeting': 'Hola, {name}',
      'onboarding.step.title': 'Paso',
      'documents.pdf': 'PDF',
      'routes.signUp.title': 'Abre tu cuenta',
      'validations.required': 'Obligatorio',
      'validations.phoneSpecialRate': 'No se aceptan números de tarificación especial',
    }),
  );
  writeFileSync(path.join(localesDir, 'en.json'), JSON.stringify({ 'app.title': 'Divilo', 'login.hint': 'Press here', 'login.greeting': 'Hello, {name}' }));
  // The login screen drawn before the app, as `npm run build` writes it, in Spanish only: the English page has none.
  mkdirSync(path.join(distDir, 'first-screen'));
  writeFileSync(path.join(distDir, FIRST_SCREEN.file('es')), FIRST_SCREEN_ES);
  // The legal documents' address with a character HTML must escape.
  server = await buildTestApp({ LEGAL_BASE_URL: 'https://legal.example/es?a=1&b=2' }, { distDir, localesDir });
});
afterAll(async () => {
  await server.close();
  rmSync(fixtures, { recursive: true, force: true });
});

const load = (url: string, headers: Record<string, string> = {}) => server.app.inject({ url, headers: { accept: 'text/html', ...headers } });

/** The raw text of a data block, and its language when it says one. */
function block(html: string, id: string): { text: string; locale?: string; part?: string } | undefined {
  const match = new RegExp(`<script type="application/json" id="${id}"(?: data-locale="(\\w+)")?(?: data-part="(\\w+)")?>([^]*?)</script>`).exec(html);
  return match ? { text: match[3], locale: match[1], part: match[2] } : undefined;
}

const preloads = (html: string) => [...html.matchAll(/<link rel="preload" as="(\w+)"(?: type="[^"]+")? href="([^"]+)"( crossorigin)?>/g)].map(([, as, href]) => ({ as, href }));

describe('the runtime configuration in the page', () => {
  it('is the object /config.json answers', async () => {
    const page = await load('/login');
    const config = block(page.body, 'divilo-config');
    expect(config).toBeDefined();
    expect(JSON.parse(config!.text)).toEqual((await server.app.inject('/config.json')).json());
  });

  it('is data, not a script: the CSP, which allows scripts from files and one inline script by its hash, needs nothing for it', async () => {
    const page = await load('/signUp');
    const inline = [...page.body.matchAll(/<script\b([^>]*)>/g)].map(([, attributes]) => attributes).filter((attributes) => !/\bsrc=/.test(attributes));
    expect(inline.length).toBeGreaterThanOrEqual(2);
    for (const attributes of inline) expect(attributes).toContain('type="application/json"');
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
  });
});

describe('the login screen drawn before the app runs', () => {
  const firstScreen = (html: string) => new RegExp(`<div id="${FIRST_SCREEN.element}">([^]*?)</div><script>([^<]*)</script><div id=app>`).exec(html);

  it("is in /login's page, before the app's element, with the server's phone and privacy address in place of the placeholders", async () => {
    for (const url of ['/login?lang=es', '/Login/?lang=es']) {
      const page = await load(url);
      const drawn = firstScreen(page.body);
      expect(drawn).not.toBeNull();
      expect(drawn![1]).toContain('<a href="tel:+34910000000">+34 910 000 000</a>');
      expect(drawn![1]).toContain('<a href="https://legal.example/es?a=1&amp;b=2/privacy.pdf">privacidad</a>');
      expect(drawn![1]).not.toContain(supportPhone);
      expect(drawn![1]).not.toContain(privacyUrl);
    }
  });

  it('links its style sheets instead of preloading them: the screen needs them to be drawn', async () => {
    const withScreen = await load('/login?lang=es');
    expect(withScreen.body).toContain('<link rel="stylesheet" href="/assets/login.0123456789.css">');
    expect(preloads(withScreen.body)).toContainEqual({ as: 'script', href: '/assets/login.0123456789.js' });
    expect(preloads(withScreen.body)).not.toContainEqual({ as: 'style', href: '/assets/login.0123456789.css' });
    // Without the screen, the page preloads them as before.
    const without = await load('/login?lang=en');
    expect(preloads(without.body)).toContainEqual({ as: 'style', href: '/assets/login.0123456789.css' });
  });

  it('runs one inline script, the one the CSP allows by its hash', async () => {
    const page = await load('/login?lang=es');
    const script = firstScreen(page.body)![2];
    const hash = createHash('sha256').update(script).digest('base64');
    expect(page.headers['content-security-policy']).toContain(`script-src 'self' 'sha256-${hash}';`);
    const inline = [...page.body.matchAll(/<script\b([^>]*)>/g)].map(([, attributes]) => attributes).filter((attributes) => !/\bsrc=/.test(attributes));
    expect(inline.filter((attributes) => !attributes.includes('type="application/json"'))).toEqual(['']);
  });

  it("is in no other page, nor in a language the build drew none for", async () => {
    for (const url of ['/?lang=es', '/signUp?lang=es', '/login/confirm-telephone?lang=es', '/recover-password/init?lang=es', '/login?lang=en']) {
      const page = await load(url);
      expect([url, page.body.includes(FIRST_SCREEN.element)]).toEqual([url, false]);
      expect(page.body).toContain('<div id=app></div>');
    }
  });

  it('fills a phone and an address that HTML must escape, escaped', () => {
    const filled = fillFirstScreen(FIRST_SCREEN_ES, { supportPhone: '+34 900 "1" <2>', legalLinks: { privacy: 'https://x.example/?q="><script>' } as never });
    expect(filled).toContain('href="tel:+3490012"');
    expect(filled).toContain('>+34 900 &quot;1&quot; &lt;2&gt;</a>');
    expect(filled).toContain('<a href="https://x.example/?q=&quot;&gt;&lt;script&gt;">');
  });
});

describe('the texts in the page', () => {
  it('are what /locales/{language}.ast.json answers, with no "<" that could end their element', async () => {
    const page = await load('/signUp?lang=es');
    const locale = block(page.body, 'divilo-locale')!;
    expect(locale.locale).toBe('es');
    expect(locale.part).toBeUndefined();
    expect(locale.text).not.toContain('<');
    expect(locale.text).toContain('\\u003c/script>');
    expect(JSON.parse(locale.text)).toEqual((await server.app.inject('/locales/es.ast.json')).json());
    // The parsed text still reads as written.
    expect(JSON.parse(locale.text)['login.hint']).toEqual([{ type: 0, value: TRICKY_READ }]);
    expect(page.body.match(/<\/script>/g)).toHaveLength(2 + 2);
  });

  it("on a login screen's page are the login journey's: the wizard's own texts are left out, and the block says so", async () => {
    const whole = (await server.app.inject('/locales/es.ast.json')).json() as Record<string, unknown>;
    for (const url of ['/login?lang=es', '/?lang=es', '/login/confirm-telephone?lang=es', '/recover-password/init?lang=es']) {
      const locale = block((await load(url)).body, 'divilo-locale')!;
      expect([url, locale.part]).toEqual([url, 'login']);
      const carried = JSON.parse(locale.text) as Record<string, unknown>;
      expect(Object.keys(carried).sort()).toEqual(
        Object.keys(whole).filter((id) => !/^(onboarding|documents|backOffice)\.|^routes\.back-office/.test(id) && id !== 'validations.phoneSpecialRate').sort(),
      );
      expect(carried['routes.signUp.title']).toEqual(whole['routes.signUp.title']);
      // A shared namespace's message only the phone step shows stays out too; the login's own validations stay in.
      expect(carried['validations.required']).toEqual(whole['validations.required']);
    }
  });

  it("on the back office's pages are all of them: the application page shows the wizard's labels", async () => {
    const whole = (await server.app.inject('/locales/en.ast.json')).json() as Record<string, unknown>;
    for (const url of ['/back-office?lang=en', '/back-office/applications/00000000-0000-4000-8000-000000000000?lang=en']) {
      const locale = block((await load(url)).body, 'divilo-locale')!;
      expect([url, locale.part]).toEqual([url, undefined]);
      expect(Object.keys(JSON.parse(locale.text) as Record<string, unknown>).length).toBe(Object.keys(whole).length);
    }
  });

  it('are in the language the app will choose: ?lang=, else the language cookie, else the browser\'s first, else English', async () => {
    const cases: [string, Record<string, string>, string][] = [
      ['/login?lang=EN', { cookie: 'divilo_lang=es', 'accept-language': 'es-ES,es;q=0.9' }, 'en'],
      ['/login?lang=fr', { cookie: 'divilo_lang=es', 'accept-language': 'en-GB' }, 'es'],
      ['/login', { cookie: 'other=1; divilo_lang=en', 'accept-language': 'es-ES' }, 'en'],
      ['/login', { cookie: 'divilo_lang=de', 'accept-language': 'es-MX,en;q=0.8' }, 'es'],
      ['/login', { 'accept-language': 'EN-us' }, 'en'],
      // The first language only, as navigator.language: a Catalan browser gets English, not its second choice.
      ['/login', { 'accept-language': 'ca-ES,es;q=0.9' }, 'en'],
      ['/login', {}, 'en'],
    ];
    for (const [url, headers, expected] of cases) {
      const page = await load(url, headers);
      expect([url, headers, block(page.body, 'divilo-locale')?.locale]).toEqual([url, headers, expected]);
      expect(page.body).toContain(`<html lang="${expected}">`);
    }
  });

  it('tell caches the page differs by language, encoding and cookie, and is revalidated', async () => {
    const page = await load('/login', { 'accept-language': 'es' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(String(page.headers.vary).split(/,\s*/)).toEqual(expect.arrayContaining(['Accept-Language', 'Cookie', 'Accept-Encoding']));
    const again = await load('/login', { 'accept-language': 'es', 'if-none-match': String(page.headers.etag) });
    expect(again.statusCode).toBe(304);
    const english = await load('/login', { 'accept-language': 'en', 'if-none-match': String(page.headers.etag) });
    expect(english.statusCode).toBe(200);
  });

  it('are left out when the language file cannot be read: the app then fetches them', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'divilo-no-locales-'));
    const bare = await buildTestApp({}, { distDir, localesDir: empty });
    try {
      const page = await bare.app.inject({ url: '/login', headers: { accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(block(page.body, 'divilo-locale')).toBeUndefined();
      expect(block(page.body, 'divilo-config')).toBeDefined();
    } finally {
      await bare.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('the preload of the screen\'s files', () => {
  it('names, for /login, the files of the login area the build listed, each of which the server sends', async () => {
    const page = await load('/login');
    const links = preloads(page.body);
    expect(links).toEqual([
      { as: 'font', href: '/assets/figtree-latin-wght-normal.0123456789.woff2' },
      { as: 'script', href: '/assets/398.0123456789.js' },
      { as: 'style', href: '/assets/login.0123456789.css' },
      { as: 'script', href: '/assets/login.0123456789.js' },
    ]);
    // The font, in CORS mode as fonts are fetched (else the browser fetches it twice).
    expect(page.body).toContain('<link rel="preload" as="font" type="font/woff2" href="/assets/figtree-latin-wght-normal.0123456789.woff2" crossorigin>');
    // In the head, found before the body is parsed.
    expect(page.body.indexOf('rel="preload"')).toBeLessThan(page.body.indexOf('</head>'));
    for (const { href } of links) {
      expect(existsSync(path.join(distDir, href))).toBe(true);
      expect((await server.app.inject(href)).statusCode).toBe(200);
    }
  });

  it('follows the area each path ends in: / is the login, an onboarding step or an unknown path the wizard', async () => {
    const scripts = async (url: string) => preloads((await load(url)).body).map(({ href }) => href).filter((href) => href.endsWith('.js'));
    expect(await scripts('/')).toEqual(['/assets/398.0123456789.js', '/assets/login.0123456789.js']);
    expect(await scripts('/login/confirm-telephone')).toEqual(['/assets/398.0123456789.js', '/assets/login-code.0123456789.js']);
    expect(await scripts('/recover-password/init')).toEqual(['/assets/398.0123456789.js', '/assets/recovery.0123456789.js']);
    for (const url of ['/signUp', '/royal-owners', '/no/such/page']) {
      expect(preloads((await load(url)).body).map(({ href }) => href)).toEqual([
        '/assets/figtree-latin-wght-normal.0123456789.woff2',
        '/assets/398.0123456789.js',
        '/assets/onboarding.0123456789.js',
      ]);
    }
  });
});

describe('sending the page', () => {
  it('compresses it with brotli or gzip as the browser takes them', async () => {
    const plain = await load('/login?lang=es', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const brotli = await load('/login?lang=es', { 'accept-encoding': 'gzip, deflate, br' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(brotli.rawPayload.length).toBeLessThan(plain.body.length / 2);
    const gzip = await load('/login?lang=es', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });

  it('sends the locale files compressed too, when the app fetches one', async () => {
    const plain = await server.app.inject('/locales/en.ast.json');
    const brotli = await server.app.inject({ url: '/locales/en.ast.json', headers: { 'accept-encoding': 'br' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(brotli.headers.etag).toBe(plain.headers.etag);
  });
});

describe('the parts', () => {
  it('jsonForScript keeps the JSON and writes every "<" as \\u003c', () => {
    const value = { url: 'https://x.test/</script><!--', nested: ['<b>'] };
    const written = jsonForScript(JSON.stringify(value));
    expect(written).not.toContain('<');
    expect(JSON.parse(written)).toEqual(value);
  });

  it('pageLocale ignores a cookie for a language the app does not have', () => {
    expect(pageLocale({ search: '', cookies: { divilo_lang: 'fr' }, acceptLanguage: 'es' })).toBe('es');
    expect(pageLocale({ search: '', cookies: {}, acceptLanguage: undefined })).toBe('en');
  });

  it('pageArea reads the path as the router does, case and trailing slash aside', () => {
    expect(pageArea('/LOGIN/')).toBe('login');
    expect(pageArea('/login/confirm-telephone')).toBe('login-code');
    expect(pageArea('/Recover-Password/confirm')).toBe('recovery');
    expect(pageArea('/welcome')).toBe('onboarding');
    expect(pageArea('/Back-Office/')).toBe('back-office');
    expect(pageArea('/back-office/applications/0b6f3c1e-2a4d-4c8e-9f10-1a2b3c4d5e6f')).toBe('back-office');
    expect(pageArea('/back-office/applications/a/b')).toBe('onboarding');
  });
});
