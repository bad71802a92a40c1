import { expect, type Page } from '@playwright/test';

export const ANA = { id: '12345678Z', password: 'Divilo-Demo-2026', phone: '+34600000001', name: 'Ana García López' };
export const PENDING = { id: 'X1234567L', password: 'Divilo-Demo-2026' };

export const TEXTS = {
  en: { id: 'ID document (DNI or NIE)', password: 'Password', submit: 'Log in', code: 'SMS code', confirm: 'Confirm', title: 'Log in' },
  es: { id: 'DNI o NIE', password: 'Contraseña', submit: 'Entrar', code: 'Código SMS', confirm: 'Confirmar', title: 'Inicia sesión' },
} as const;

/** The last code the embedded outbox "sent" to a phone, newest first in /dev/outbox.json. */
export async function lastCode(page: Page, phone: string, after = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const messages = (await (await page.request.get('/dev/outbox.json')).json()) as { id: number; recipient: string; text: string }[];
      const message = messages.find((m) => m.recipient === phone && m.id > after);
      code = message ? /\b(\d{6})\b/.exec(message.text)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  return code!;
}

export async function lastOutboxId(page: Page): Promise<number> {
  const messages = (await (await page.request.get('/dev/outbox.json')).json()) as { id: number }[];
  return messages[0]?.id ?? 0;
}

/**
 * Waits until the app has taken over the login screen /login's page drew before the app ran: from then on its
 * links navigate within the app (on the drawn screen they are plain links, a full page load).
 */
export async function appTookOver(page: Page) {
  await expect(page.locator('#divilo-first-screen')).toHaveCount(0);
}

export async function fillLogin(page: Page, lang: 'en' | 'es', id: string, password: string) {
  const t = TEXTS[lang];
  await page.getByLabel(t.id).fill(id);
  await page.getByLabel(t.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: t.submit }).click();
}

/** Password and SMS code, ending on the main app. */
export async function logIn(page: Page, lang: 'en' | 'es' = 'en', password = ANA.password) {
  const before = await lastOutboxId(page);
  await page.goto(`/login?lang=${lang.toUpperCase()}`);
  await fillLogin(page, lang, ANA.id, password);
  await expect(page).toHaveURL(/\/login\/confirm-telephone/);
  await page.getByLabel(TEXTS[lang].code).fill(await lastCode(page, ANA.phone, before));
  await page.getByRole('button', { name: TEXTS[lang].confirm }).click();
  await expect(page).toHaveURL(/\/app$/);
}
