// Automated WCAG 2.2 A/AA checks (axe-core) of every screen the login journey shows, in both languages, in
// the states a customer meets: empty, with errors, with a notice or a dialog open. Axe finds what a machine
// can (names, roles, contrast, structure); keyboard and screen-reader behaviour is tested in the other specs.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ANA, fillLogin, lastCode, lastOutboxId, TEXTS } from './helpers';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

// axe is injected by the test, not served: the page's CSP (rightly) refuses foreign scripts.
test.use({ bypassCSP: true });

async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] });
  });
  return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

for (const lang of ['es', 'en'] as const) {
  const t = TEXTS[lang];

  test(`login screens pass axe's WCAG 2.2 AA checks (${lang})`, async ({ page }) => {
    // Each state from a fresh page load: one check never depends on what the previous one left.
    await page.goto(`/login?lang=${lang.toUpperCase()}`);
    await expect(page.getByLabel(t.id)).toBeVisible();
    expect(await violations(page)).toEqual([]);

    // Errors under the fields.
    await page.goto(`/login?lang=${lang.toUpperCase()}`);
    await page.getByRole('button', { name: t.submit }).click();
    await expect(page.getByLabel(t.id)).toHaveAttribute('aria-invalid', 'true');
    expect(await violations(page)).toEqual([]);

    // The failed-login notice, after the errors were corrected.
    await page.goto(`/login?lang=${lang.toUpperCase()}`);
    await page.getByRole('button', { name: t.submit }).click();
    await fillLogin(page, lang, ANA.id, 'Not-The-Password-1');
    await expect(page.locator('.dv-toast')).toBeVisible();
    expect(await violations(page)).toEqual([]);

    // The SMS step, after a wrong code.
    const before = await lastOutboxId(page);
    await page.goto(`/login?lang=${lang.toUpperCase()}`);
    await fillLogin(page, lang, ANA.id, ANA.password);
    await expect(page).toHaveURL(/\/login\/confirm-telephone/);
    const wrong = (await lastCode(page, ANA.phone, before)) === '000000' ? '111111' : '000000';
    await page.getByLabel(t.code).fill(wrong);
    await page.getByRole('button', { name: t.confirm }).click();
    await expect(page.getByRole('alert').filter({ hasText: /\d/ })).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });

  test(`recovery, client verification and the session-expired dialog pass axe's checks (${lang})`, async ({ page }) => {
    await page.goto(`/recover-password/init?lang=${lang.toUpperCase()}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await violations(page)).toEqual([]);

    await page.goto(`/client-verification?lang=${lang.toUpperCase()}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await violations(page)).toEqual([]);

    // An onboarding screen reached with an expired token: signUp with the session-expired dialog.
    const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const expired = `${encode({ alg: 'RS256' })}.${encode({ sub: 'a11y', exp: Math.floor(Date.now() / 1000) - 5 })}.c2ln`;
    await page.evaluate(
      ([locale, token]) => {
        localStorage.setItem('locale', JSON.stringify(locale));
        localStorage.setItem('JWT', JSON.stringify(token));
      },
      [lang, expired],
    );
    await page.goto('/personal-info');
    await expect(page.getByRole('alertdialog')).toBeVisible();
    expect(await violations(page)).toEqual([]);
  });
}

test("the main app page and its idle warning pass axe's checks", async ({ page }) => {
  await page.clock.install();
  const before = await lastOutboxId(page);
  await page.goto('/login?lang=EN');
  await fillLogin(page, 'en', ANA.id, ANA.password);
  await expect(page).toHaveURL(/\/login\/confirm-telephone/);
  await page.getByLabel(TEXTS.en.code).fill(await lastCode(page, ANA.phone, before));
  await page.getByRole('button', { name: TEXTS.en.confirm }).click();
  await expect(page).toHaveURL(/\/app$/);
  expect(await violations(page)).toEqual([]);
  await page.clock.fastForward('04:01');
  await expect(page.getByRole('alertdialog')).toBeVisible();
  expect(await violations(page)).toEqual([]);
  await page.clock.fastForward('01:01');
  await expect(page.getByRole('link', { name: 'Log in again' })).toBeVisible();
  expect(await violations(page)).toEqual([]);
});
