// WCAG 1.4.4 and 1.4.10: at 200% text size on a 320 px wide screen, every page reflows — no horizontal
// scroll, nothing wider than the screen. The text size is set as a browser's setting does: on the root.
import { expect, test, type Page } from '@playwright/test';
import { logIn } from './helpers';
import { freelancerUpToIdentity, onEveryPage } from './wizard';

test.use({ viewport: { width: 320, height: 640 } });
test.beforeEach(async ({ page }) => {
  await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => void (document.documentElement.style.fontSize = '200%')));
});
test.afterEach(() => {
  onEveryPage.check = undefined;
});

/** Nothing is wider than the screen: the page does not scroll sideways, and no element sticks out. */
async function expectReflow(page: Page) {
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wider = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 1 && element.getClientRects().length > 0)
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { scroll: document.documentElement.scrollWidth - width, wider: wider.slice(0, 5) };
  });
  expect(overflow, page.url()).toEqual({ scroll: 0, wider: [] });
}

test('the login journey reflows at 200% text on a 320 px screen', async ({ page }) => {
  for (const path of ['/login?lang=es', '/login?lang=en', '/recover-password/init?lang=es', '/signUp?lang=es']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectReflow(page);
  }
  // With errors under every field.
  await page.goto('/login?lang=es');
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByLabel('DNI o NIE')).toHaveAttribute('aria-invalid', 'true');
  await expectReflow(page);
});

test('the main app and its idle warning reflow at 200% text on a 320 px screen', async ({ page }) => {
  await page.clock.install();
  await logIn(page, 'es');
  await expectReflow(page);
  await page.clock.fastForward('04:01');
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await expectReflow(page);
});

test("the freelancer's wizard reflows at 200% text on a 320 px screen, every page of it", async ({ page }) => {
  onEveryPage.check = expectReflow;
  await freelancerUpToIdentity(page, 'es');
  await expectReflow(page);
});
