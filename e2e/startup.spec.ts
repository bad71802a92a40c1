// When the page cannot start — its configuration, its texts or a screen's code do not arrive — it says so in
// the page's language and offers to try again, instead of staying blank.
import { expect, test } from '@playwright/test';

test('a failed /config.json shows a translated error with a retry that recovers', async ({ page }) => {
  await page.route('**/config.json', (route) => route.abort());
  await page.goto('/login?lang=es');
  await expect(page.getByRole('alert')).toContainText('No hemos podido cargar Divilo');
  await page.unroute('**/config.json');
  await page.getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByLabel('DNI o NIE')).toBeVisible();
});

test('failed locale files show the error in the page language, and a retry loads them', async ({ page }) => {
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
