// The page carries what the app needs first (its configuration, its texts, the preload of the screen's code);
// when the page lacks them the app fetches them, and when it cannot start — its configuration, its texts or a
// screen's code do not arrive — it says so in the page's language and offers to try again, instead of staying blank.
import { expect, test, type Page, type Route } from '@playwright/test';
import { ANA, appTookOver, fillLogin, TEXTS } from './helpers';

/** Serves the real page without the data block given (an older server, a proxy that rewrote it). */
async function withoutBlock(page: Page, id: 'divilo-config' | 'divilo-locale') {
  const block = new RegExp(`<script type="application/json" id="${id}"[^>]*>[^]*?</script>`);
  await page.route(
    (url) => url.pathname === '/login',
    async (route) => {
      const response = await route.fetch();
      const html = await response.text();
      expect(html).toMatch(block);
      await route.fulfill({ response, body: html.replace(block, '') });
    },
  );
}

test('the page carries its configuration and texts and preloads the login screen: nothing waits on another request', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const response = await page.goto('/login?lang=es');
  await expect(page.getByLabel('DNI o NIE')).toBeEnabled();
  expect(requested).not.toContain('/config.json');
  expect(requested.filter((path) => path.startsWith('/locales/'))).toEqual([]);
  const html = await response!.text();
  const preloaded = [...html.matchAll(/<link rel="preload" as="\w+" href="([^"]+)">/g)].map(([, href]) => href);
  expect(preloaded.some((href) => /^\/assets\/login\.[0-9a-f]+\.js$/.test(href))).toBe(true);
  for (const href of preloaded) {
    expect((await page.request.get(href)).status()).toBe(200);
    // Fetched once: the preload is what the app's own loading then uses.
    expect(requested.filter((path) => path === href)).toEqual([href]);
  }
});

test("/login loads the login form's code alone; the SMS step's arrives while the password is being checked", async ({ page }) => {
  const areas: string[] = [];
  page.on('request', (request) => {
    const area = /^\/assets\/(login-code|recovery|onboarding|login)\.[0-9a-f]+\.js$/.exec(new URL(request.url()).pathname)?.[1];
    if (area) areas.push(area);
  });
  await page.goto('/login?lang=en');
  await expect(page.getByLabel(TEXTS.en.id)).toBeEnabled();
  expect(areas).toEqual(['login']);

  // The session is held back: the SMS step's code is fetched before the login has even finished.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const holding = new Promise<Route>((resolve) =>
    page.route('**/create-session', async (route) => {
      resolve(route);
      await held;
      await route.continue();
    }),
  );
  await fillLogin(page, 'en', ANA.id, ANA.password);
  await holding;
  await expect.poll(() => areas).toEqual(['login', 'login-code']);
  await expect(page).toHaveURL(/\/login(\?|$)/);
  release();
  await expect(page).toHaveURL(/\/login\/confirm-telephone/);
  await expect(page.getByLabel(TEXTS.en.code)).toBeVisible();
  expect(areas).toEqual(['login', 'login-code']);
});

test("/login carries the login journey's texts only; the wizard's arrive with its screen, once", async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const response = await page.goto('/login?lang=es');
  expect(await response!.text()).toContain('data-part="login"');
  await expect(page.getByLabel('DNI o NIE')).toBeEnabled();
  // The wizard's screen within the app, not a page of its own (which would carry its texts).
  await appTookOver(page);
  expect(requested.filter((path) => path.startsWith('/locales/'))).toEqual([]);
  await page.getByRole('link', { name: 'Ábrela ahora' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Abre tu cuenta Divilo');
  await expect(page.getByLabel('Correo electrónico')).toBeVisible();
  expect(requested.filter((path) => path.startsWith('/locales/'))).toEqual(['/locales/es.ast.json']);
});

test('a page without its configuration fetches /config.json; when that fails too, a translated error with a retry that recovers', async ({ page }) => {
  await withoutBlock(page, 'divilo-config');
  await page.route('**/config.json', (route) => route.abort());
  await page.goto('/login?lang=es');
  await expect(page.getByRole('alert')).toContainText('No hemos podido cargar Divilo');
  await page.unroute('**/config.json');
  await page.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByLabel('DNI o NIE')).toBeVisible();
});

test('a page without its texts fetches them; failed locale files show the error in the page language, and a retry loads them', async ({ page }) => {
  await withoutBlock(page, 'divilo-locale');
  await page.route('**/locales/*.json', (route) => route.fulfill({ status: 503, body: 'down' }));
  await page.goto('/login?lang=en');
  await expect(page.getByRole('alert')).toContainText("We couldn't load Divilo");
  await page.unroute('**/locales/*.json');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByLabel('ID document (DNI or NIE)')).toBeVisible();
});

test("a screen whose code does not arrive shows the error instead of a blank page", async ({ page }) => {
  await page.route(/\/assets\/onboarding\.[0-9a-f]+\.js$/, (route) => route.abort());
  await page.goto('/signUp?lang=en');
  await expect(page.getByRole('alert')).toContainText("We couldn't load Divilo");
  await expect(page.getByRole('button', { name: 'Try again' })).toBeVisible();
});
