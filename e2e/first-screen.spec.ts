// /login's page draws the login screen before the app's scripts have run: it can be read and typed into at once,
// what is typed (and where, and a press of a button) carries over when the app takes over, and the form never
// sends itself, so a password never ends up in an address.
import { expect, test, type Page } from '@playwright/test';
import { ANA, appTookOver, TEXTS } from './helpers';

/** Holds the app's scripts back until `release` is called: the page shows only what its HTML draws. */
async function holdScripts(page: Page): Promise<{ release: () => void; held: () => number }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    held += 1;
    await released;
    await route.continue();
  });
  return { release, held: () => held };
}

for (const lang of ['en', 'es'] as const) {
  test(`typed before the app runs, the ID and password carry over and a press of Log in signs in (${lang})`, async ({ page }) => {
    const t = TEXTS[lang];
    const scripts = await holdScripts(page);
    const pages: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest()) pages.push(`${request.method()} ${request.url()}`);
    });
    await page.goto(`/login?lang=${lang}`, { waitUntil: 'commit' });

    const id = page.getByLabel(t.id);
    await expect(id).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
    await id.pressSequentially(ANA.id.toLowerCase());
    await page.getByLabel(t.password, { exact: true }).pressSequentially(ANA.password);
    // Enter in a field sends nothing: the form drawn before the app has no submit button.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: t.submit }).click();
    expect(pages).toEqual([`GET ${new URL(`/login?lang=${lang}`, page.url()).href}`]);
    expect(scripts.held()).toBeGreaterThan(0);

    scripts.release();
    // The app took over: the values typed are in its fields and the press is done again, which signs in.
    await expect(page).toHaveURL(/\/login\/confirm-telephone/);
    expect(pages.every((request) => !request.includes(ANA.password) && !request.startsWith('POST'))).toBe(true);
  });
}

test('the field being typed into keeps the focus, the caret and its place on the screen when the app takes over', async ({ page }) => {
  const scripts = await holdScripts(page);
  await page.goto('/login?lang=es', { waitUntil: 'commit' });
  const id = page.getByLabel(TEXTS.es.id);
  await id.pressSequentially('12345678');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  const before = await id.boundingBox();
  const drawnId = await id.getAttribute('id');

  scripts.release();
  // The app's own field (its id is the app's) is where the first screen's was.
  await appTookOver(page);
  await expect(id).not.toHaveAttribute('id', drawnId!);
  await expect(id).toBeFocused();
  expect(await id.boundingBox()).toEqual(before);
  // Typing goes on where the caret was.
  await page.keyboard.type('Z');
  await expect(id).toHaveValue('123456Z78');
});

test('a button pressed before the app runs is pressed again when it takes over: the language', async ({ page }) => {
  const scripts = await holdScripts(page);
  await page.goto('/login?lang=en', { waitUntil: 'commit' });
  await page.getByRole('button', { name: 'ES Español' }).click();
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.en.title })).toBeVisible();
  scripts.release();
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.es.title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'ES Español' })).toHaveAttribute('aria-pressed', 'true');
  // As a choice made in the app: it outlives the link's ?lang=.
  await expect(page).toHaveURL(/\/login$/);
});

test('a page other than the login draws nothing before the app', async ({ page }) => {
  const response = await page.goto('/signUp?lang=en');
  expect(await response!.text()).not.toContain('divilo-first-screen');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});
