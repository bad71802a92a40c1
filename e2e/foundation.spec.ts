import { expect, test, type Page } from '@playwright/test';

/** A JWT-shaped token with the given expiry; the browser only reads `exp`. */
function tokenExpiringIn(seconds: number): string {
  const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'RS256' })}.${encode({ sub: 'e2e', exp: Math.floor(Date.now() / 1000) + seconds })}.c2ln`;
}

async function setStorage(page: Page, entries: Record<string, unknown>) {
  await page.goto('/health');
  await page.evaluate((values) => {
    localStorage.clear();
    for (const [key, value] of Object.entries(values)) localStorage.setItem(key, JSON.stringify(value));
  }, entries);
}

test.describe('routes and guards', () => {
  test('/ lands on /login, keeping the query', async ({ page }) => {
    await page.goto('/?promo=SPRING');
    await expect(page).toHaveURL(/\/login\?promo=SPRING$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  });

  test('an unknown path lands on /signUp', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/signUp$/);
  });

  test('an onboarding route without a token lands on /signUp', async ({ page }) => {
    await setStorage(page, { locale: 'en' });
    await page.goto('/personal-info?promotionalCode=AUTONOMO25');
    await expect(page).toHaveURL(/\/signUp\?promotionalCode=AUTONOMO25$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Open your Divilo account' })).toBeVisible();
  });

  test('an onboarding route with a live token shows the step and is remembered', async ({ page }) => {
    await setStorage(page, { locale: 'en', JWT: tokenExpiringIn(600) });
    // The guard is what is tested here: the application the step reads is answered in the browser.
    await page.route('**/api/onboarding-management-private/application', (route) =>
      route.fulfill({ json: { id: 'a-1', status: 'in-progress', personType: null, currentStep: 'personal-info', completedSteps: ['signUp', 'reg-code'], answers: {}, maskedEmail: 'a***@example.com' } }),
    );
    await page.goto('/personal-info');
    await expect(page.getByRole('heading', { level: 1, name: 'About you' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('CURRENT_PAGE'))).toBe('"personal-info"');
    // Opening the app again at / resumes the remembered step.
    await page.goto('/');
    await expect(page).toHaveURL(/\/personal-info$/);
  });
});

test.describe('languages', () => {
  test('switching ES/EN changes the texts and survives a reload', async ({ page }) => {
    await setStorage(page, { locale: 'en' });
    await page.goto('/login');
    await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    await page.getByRole('button', { name: 'Español' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Inicia sesión' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Inicia sesión' })).toBeVisible();
    await page.getByRole('button', { name: 'English' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  });

  test('?lang=EN wins over the stored locale, and an explicit choice then wins over it', async ({ page }) => {
    await setStorage(page, { locale: 'es' });
    await page.goto('/login?lang=EN');
    await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
    await page.getByRole('button', { name: 'Español' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Inicia sesión' })).toBeVisible();
  });
});

test.describe('global modal', () => {
  test('an expired token shows the session-expired modal on signUp; Escape closes it', async ({ page }) => {
    await setStorage(page, { locale: 'en', JWT: tokenExpiringIn(-5), CURRENT_PAGE: 'personal-info' });
    await page.goto('/personal-info');
    await expect(page).toHaveURL(/\/signUp$/);
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Your session has expired');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('JWT'))).toBeNull();
  });

  test('the accept button is reachable and works with the keyboard', async ({ page }) => {
    await setStorage(page, { locale: 'es', JWT: tokenExpiringIn(-5) });
    await page.goto('/contact-phone');
    const dialog = page.getByRole('alertdialog');
    await expect(dialog).toContainText('Por tu seguridad, tu sesión ha caducado');
    const accept = dialog.getByRole('button', { name: 'Aceptar' });
    await accept.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
  });
});
