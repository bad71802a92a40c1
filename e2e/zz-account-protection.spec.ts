import { expect, test } from '@playwright/test';
import { ANA, fillLogin, lastCode, lastOutboxId, logIn } from './helpers';

// These change the demo customer for good (new password, blocked for a while): desktop only, last.
test.describe.configure({ mode: 'serial' });

const NEW_PASSWORD = 'Nueva-Clave-2026';

test('recovers the password by SMS code and logs in with the new one', async ({ page }) => {
  const before = await lastOutboxId(page);
  await page.goto('/login?lang=ES');
  await page.getByRole('link', { name: 'Recupérala' }).click();
  await expect(page).toHaveURL(/\/recover-password\/init/);
  await page.getByLabel('DNI o NIE').fill(ANA.id);
  await page.getByRole('button', { name: 'Enviarme un código' }).click();
  await expect(page).toHaveURL(/\/recover-password\/confirm/);
  await page.getByLabel('Código SMS').fill(await lastCode(page, ANA.phone, before));
  await page.getByLabel('Contraseña nueva', { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel('Repite la contraseña nueva').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(page).toHaveURL(/\/recover-password\/success/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contraseña cambiada');

  await page.goto('/login?lang=EN');
  await fillLogin(page, 'en', ANA.id, ANA.password);
  await expect(page.getByRole('alert').filter({ hasText: 'Check your ID document number and your password' })).toBeVisible();
  await logIn(page, 'en', NEW_PASSWORD);
});

test('five wrong SMS codes block the sign-in', async ({ page }) => {
  const before = await lastOutboxId(page);
  await page.goto('/login?lang=EN');
  await fillLogin(page, 'en', ANA.id, NEW_PASSWORD);
  await expect(page).toHaveURL(/confirm-telephone/);
  const code = await lastCode(page, ANA.phone, before);
  const wrong = code === '000000' ? '111111' : '000000';
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    await page.getByLabel('SMS code').fill(wrong);
    await page.getByRole('button', { name: 'Confirm' }).click();
    if (attempt < 5) await expect(page.getByRole('alert')).toContainText(`${5 - attempt} attempt`);
  }
  // One clear state: blocked until a time, the support phone, a way back; no field or buttons that cannot be used.
  await expect(page.getByRole('alert')).toContainText(/Too many wrong codes\. For your security, sign-in is blocked until \d{2}:\d{2}/);
  await expect(page.getByLabel('SMS code')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Back to the login page' }).click();
  await expect(page).toHaveURL(/\/login\?lang=EN$/);
});
