import { expect, test } from '@playwright/test';
import { ANA, fillLogin, lastCode, lastOutboxId, logIn, PENDING, TEXTS } from './helpers';

for (const lang of ['en', 'es'] as const) {
  test(`logs in with password and SMS code and lands on the main app (${lang})`, async ({ page }) => {
    await logIn(page, lang);
    await expect(page.getByTestId('signed-in-user')).toHaveText(`${ANA.name} (${ANA.id})`);
  });
}

test('a wrong password shows the error toast, which closes with the keyboard', async ({ page }) => {
  await page.goto('/login?lang=ES');
  await fillLogin(page, 'es', ANA.id, 'Not-The-Password-1');
  const toast = page.getByRole('alert').filter({ hasText: 'Revisa tu número de DNI o NIE y tu contraseña' });
  await expect(toast).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
  // The reason stays on the form, focused, after the toast has gone.
  const summary = page.getByRole('alert', { name: 'No hemos podido darte acceso' });
  await expect(summary).toContainText('El número de documento o la contraseña no son correctos');
  await expect(summary).toBeFocused();
  await page.getByRole('button', { name: 'Cerrar aviso' }).focus();
  await page.keyboard.press('Enter');
  await expect(toast).toBeHidden();
  // Escape closes it too.
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(toast).toBeVisible();
  await page.getByRole('button', { name: 'Cerrar aviso' }).focus();
  await page.keyboard.press('Escape');
  await expect(toast).toBeHidden();
});

test('after errors, correcting the fields and pressing Log in once signs in: the errors going do not move the button', async ({ page }) => {
  await page.goto('/login?lang=EN');
  await page.getByRole('button', { name: TEXTS.en.submit }).click();
  await expect(page.getByLabel(TEXTS.en.password, { exact: true })).toHaveAttribute('aria-invalid', 'true');
  const button = page.getByRole('button', { name: TEXTS.en.submit });
  await page.getByLabel(TEXTS.en.id).fill(ANA.id);
  await page.getByLabel(TEXTS.en.password, { exact: true }).fill(ANA.password);
  // The click blurs the password field, whose error then goes: the button must stay where the pointer is.
  await button.click();
  await expect(page).toHaveURL(/\/login\/confirm-telephone/);
});

test('a customer whose application is pending lands on /client-verification', async ({ page }) => {
  await page.goto('/login?lang=EN');
  await fillLogin(page, 'en', PENDING.id, PENDING.password);
  await expect(page).toHaveURL(/\/client-verification/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText("We're verifying your details");
});

test('a wrong SMS code says how many attempts are left', async ({ page }) => {
  const before = await lastOutboxId(page);
  await page.goto('/login?lang=EN');
  await fillLogin(page, 'en', ANA.id, ANA.password);
  await expect(page).toHaveURL(/confirm-telephone/);
  const code = await lastCode(page, ANA.phone, before);
  await page.getByLabel('SMS code').fill(code === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByRole('alert')).toHaveText('That code is not right. You have 4 attempts left.');
  await page.getByLabel('SMS code').fill(code);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page).toHaveURL(/\/app$/);
});

test('a signed-in customer who opens /login is sent to the main app; logout ends the session', async ({ page }) => {
  await logIn(page, 'en');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/app$/);
  await page.goto('/logout');
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeVisible();
  // The logout entry was replaced: going back does not return to it.
  await page.goto('/app');
  await expect(page).toHaveURL(/\/login$/);
});

test('a language chosen with ?lang= follows the customer to /app and back to /login after logout, whatever the browser says', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-GB' });
  const page = await context.newPage();
  try {
    await logIn(page, 'es');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('button', { name: 'Cerrar sesión' })).toBeVisible();
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/login\?lang=es$/);
    await expect(page.getByRole('heading', { level: 1, name: TEXTS.es.title })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('Has cerrado la sesión. ¡Hasta pronto!');
  } finally {
    await context.close();
  }
});

test('the main app is in the app\'s own frame: logo, language switch (kept for the login page), its typeface, no horizontal scroll', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'es-ES' });
  const page = await context.newPage();
  try {
    await logIn(page, 'es');
    await expect(page.getByRole('banner')).toContainText('Divilo');
    // Arriving, focus is on the page's heading.
    await expect(page.getByRole('heading', { level: 1, name: 'Tu cuenta Divilo' })).toBeFocused();
    const fontFamily = await page.getByRole('heading', { level: 1 }).evaluate((el) => getComputedStyle(el).fontFamily);
    expect(fontFamily).toMatch(/^Figtree/);
    expect(await page.evaluate(() => document.fonts.check('16px Figtree'))).toBe(true);
    const languages = page.getByRole('navigation', { name: 'Idioma' });
    await expect(languages.getByRole('link', { name: /ES/ })).toHaveAttribute('aria-current', 'true');
    await languages.getByRole('link', { name: /EN/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Your Divilo account' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    // The choice made on /app holds on the login page after logging out, over the browser's Spanish.
    await page.getByRole('button', { name: 'Log out' }).click();
    await expect(page.getByRole('heading', { level: 1, name: TEXTS.en.title })).toBeVisible();
    await expect(page.getByRole('status')).toHaveText('You have logged out. See you soon.');
    await expect(page).not.toHaveURL(/loggedOut/);
  } finally {
    await context.close();
  }
});

test('the whole login by keyboard only', async ({ page }) => {
  const before = await lastOutboxId(page);
  await page.goto('/login?lang=EN');
  await expect(page.getByRole('heading', { level: 1, name: 'Log in' })).toBeFocused();
  // Tab to the ID field, type, tab to the password, type, Enter submits.
  for (let i = 0; i < 20 && !(await page.getByLabel(TEXTS.en.id).evaluate((el) => el === document.activeElement)); i += 1) await page.keyboard.press('Tab');
  await page.keyboard.type(ANA.id);
  await page.keyboard.press('Tab');
  await page.keyboard.type(ANA.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/confirm-telephone/);
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('SMS code')).toBeFocused();
  await page.keyboard.type(await lastCode(page, ANA.phone, before));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/app$/);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Log out' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login\?lang=en$/);
});

test('the main app warns before the idle limit, can be continued, and shows the end of the session', async ({ page }) => {
  await page.clock.install();
  await logIn(page, 'en');
  const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
  await expect(warning).toBeHidden();

  // A minute before the five-minute idle limit, the countdown appears and takes the focus.
  await page.clock.fastForward('04:01');
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(/Your session will end because of inactivity in 0:5\d\./);
  await expect(page.getByRole('button', { name: 'Stay signed in' })).toBeFocused();
  // Modal: the page behind is out of reach while the warning shows.
  expect(await page.locator('.dv-layout').evaluate((el) => (el as HTMLElement).inert)).toBe(true);
  await page.keyboard.press('Enter');
  await expect(warning).toBeHidden();
  // Focus goes to the news that the session goes on.
  await expect(page.getByRole('status')).toHaveText('You are still signed in. Your session has been renewed.');
  await expect(page.getByRole('status')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  // The server renewed the session: the page still shows who is signed in after a reload.
  await page.reload();
  await expect(page.getByTestId('signed-in-user')).toBeVisible();

  // Left alone, the session ends: the page says so, and the server's session is closed too.
  await page.clock.fastForward('05:01');
  await expect(page.getByRole('alert')).toContainText('Your session has ended');
  await expect(page.getByRole('link', { name: 'Log in again' })).toBeFocused();
  await expect(page.getByTestId('signed-in-user')).toBeHidden();
  await expect.poll(async () => (await page.request.get('/api/user-authorization-management/get-session')).status()).toBe(401);
});
