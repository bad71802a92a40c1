// The screens when a service behind the API is away (503 SERVICE_UNAVAILABLE) or a code's message was not sent
// (503 MESSAGE_NOT_SENT), in both languages, along a real freelancer's journey: each says so, keeps what was typed,
// and the same action goes on once the answer is a good one. The embedded services cannot be stopped apart from
// the server, so the outage's answer is given to the page here as the server words it (the server's side:
// __tests__/aws/outage.test.ts, __tests__/server/messaging/providerFailure.test.ts). Each state passes axe's
// checks, and is photographed at a phone's width and at 200% text for review.
import path from 'node:path';
import { expect, test, type Page, type Route } from '@playwright/test';
import { checkedAndPhotographed } from './axe';
import { ANA, fillLogin, TEXTS } from './helpers';
import { arrived, codeSentTo, fillSignUp, freelanceBusiness, sendSignUp, freshApplicant, personalInfo, samplePdf, tellUsMore, wizardText } from './wizard';

const SHOTS = process.env.E2E_SCREENSHOTS_DIR ?? path.join('test-results', 'outages');

test.use({ bypassCSP: true, viewport: { width: 390, height: 844 } });

/** axe's verdict, then the page at 390 px and at 200% text. */
const checked = (page: Page, name: string) => checkedAndPhotographed(page, SHOTS, name);

const answer503 = (code: 'SERVICE_UNAVAILABLE' | 'MESSAGE_NOT_SENT') => ({
  status: 503,
  contentType: 'application/json',
  headers: { 'retry-after': '5' },
  body: JSON.stringify(code === 'MESSAGE_NOT_SENT' ? { code, message: 'The message could not be sent: try again in a moment', retryAfterSeconds: 5 } : { code, message: 'A service is not reachable right now; try again in a moment' }),
});

/** The POSTs to `api` path answer `code` until undone; other methods go to the server. */
async function away(page: Page, apiPath: string, code: 'SERVICE_UNAVAILABLE' | 'MESSAGE_NOT_SENT') {
  const pattern = `**/api/${apiPath}`;
  const handler = (route: Route) => (route.request().method() === 'POST' ? route.fulfill(answer503(code)) : route.fallback());
  await page.route(pattern, handler);
  return () => page.unroute(pattern, handler);
}

const TEXT = {
  en: {
    notSent: "We couldn't send your code just now. What you typed is kept: try again in a moment.",
    sendAway: "We can't reach our service right now, so nothing was sent or saved. What you typed is kept: try again in a moment.",
    codeAway: "We can't reach our service right now. Try again in a moment with the same code; if it has expired by then, ask for a new one.",
    uploadAway: "We can't reach our document service right now, so your file has not been checked yet. Nothing is lost: try again in a moment.",
    tryAgain: /^Try again/,
    saveAway: "We can't reach our service right now, so nothing has been saved yet. What you typed is still here: try again in a moment.",
    accept: 'Accept',
    loginNotSent: "We couldn't send your SMS code just now. Nothing is wrong with what you typed: log in again in a moment.",
  },
  es: {
    notSent: 'No hemos podido enviarte el código. Lo que has escrito se conserva: inténtalo de nuevo en un momento.',
    sendAway: 'Ahora mismo no podemos conectar con nuestro servicio, así que no se ha enviado ni guardado nada. Lo que has escrito se conserva: inténtalo de nuevo en un momento.',
    codeAway: 'Ahora mismo no podemos conectar con nuestro servicio. Inténtalo de nuevo en un momento con el mismo código; si para entonces ha caducado, pide uno nuevo.',
    uploadAway: 'Ahora mismo no podemos conectar con nuestro servicio de documentos, así que tu archivo aún no se ha comprobado. No se ha perdido nada: inténtalo de nuevo en un momento.',
    tryAgain: /^Intentar de nuevo/,
    saveAway: 'Ahora mismo no podemos conectar con nuestro servicio, así que aún no se ha guardado nada. Lo que has escrito sigue aquí: inténtalo de nuevo en un momento.',
    accept: 'Aceptar',
    loginNotSent: 'No hemos podido enviarte el código por SMS. Lo que has escrito está bien: vuelve a entrar en un momento.',
  },
} as const;

for (const lang of ['es', 'en'] as const) {
  const t = { ...wizardText(lang), ...TEXT[lang] };

  test(`the wizard says when a service is away or a code was not sent, and goes on once it is back (${lang})`, async ({ page }) => {
    const who = freshApplicant();

    // /signUp: the e-mail not sent.
    await fillSignUp(page, lang, who);
    let back = await away(page, 'onboarding-management/register', 'MESSAGE_NOT_SENT');
    await page.getByRole('button', { name: t.sendCode }).click();
    await expect(page.getByRole('alert').filter({ hasText: t.notSent })).toBeVisible();
    await expect(page.getByLabel(t.email)).toHaveValue(who.email);
    await checked(page, `${lang}-signup-not-sent`);
    await back();
    await sendSignUp(page, lang, who);
    await personalInfo(page, lang);

    // /contact-phone: the service away; then /confirm-telephone: away while the code is checked.
    await arrived(page, /\/contact-phone/);
    await page.getByLabel(t.mobile).fill(who.phone);
    back = await away(page, 'onboarding-management-private/phone', 'SERVICE_UNAVAILABLE');
    await page.getByRole('button', { name: t.sendCode }).click();
    await expect(page.getByRole('alert').filter({ hasText: t.sendAway })).toBeVisible();
    await expect(page.getByLabel(t.mobile)).toHaveValue(who.phone);
    await checked(page, `${lang}-phone-away`);
    await back();
    await page.getByRole('button', { name: t.sendCode }).click();
    await arrived(page, /\/confirm-telephone/);
    const code = await codeSentTo(page, `+34${who.phone}`);
    await page.getByLabel(t.smsCode).fill(code);
    back = await away(page, 'onboarding-management-private/phone/verify', 'SERVICE_UNAVAILABLE');
    await page.getByRole('button', { name: t.confirm }).click();
    await expect(page.getByRole('alert').filter({ hasText: t.codeAway })).toBeVisible();
    await expect(page.getByLabel(t.smsCode)).toHaveValue(code);
    await checked(page, `${lang}-confirm-phone-away`);
    await back();
    await page.getByRole('button', { name: t.confirm }).click();
    await arrived(page, /\/register-as/);
    await freelanceBusiness(page, lang);

    // The modelo 036: stored, then its check with the storage away; "Try again" checks it once back.
    await page.getByLabel(t.regime).check();
    back = await away(page, 'onboarding-management-private/documents', 'SERVICE_UNAVAILABLE');
    await page.locator('input[type=file]').setInputFiles(await samplePdf());
    await expect(page.getByRole('alert').filter({ hasText: t.uploadAway })).toBeVisible();
    await checked(page, `${lang}-upload-away`);
    await back();
    await page.getByRole('button', { name: t.tryAgain }).click();
    await expect(page.getByText(t.received)).toBeVisible();
    await page.getByRole('button', { name: t.continue }).click();
    await arrived(page, /\/tell-us-more-freelance/);
    await tellUsMore(page, lang);

    // /divilo-password: the identity service away. The dialog says so; both passwords stay typed.
    await page.getByLabel(t.password, { exact: true }).fill(who.password);
    await page.getByLabel(t.repeat).fill(who.password);
    back = await away(page, 'onboarding-management-private/password', 'SERVICE_UNAVAILABLE');
    await page.getByRole('button', { name: t.continue }).click();
    await expect(page.getByRole('alertdialog')).toContainText(t.saveAway);
    await checked(page, `${lang}-password-away`);
    await page.getByRole('button', { name: t.accept }).click();
    await expect(page.getByLabel(t.password, { exact: true })).toHaveValue(who.password);
    await back();
    await page.getByRole('button', { name: t.continue }).click();
    await arrived(page, /\/check-identity/);
  });

  test(`the login says its SMS code was not sent, and the password was right (${lang})`, async ({ page }) => {
    await page.route('**/api/user-authorization-management/create-session', (route) => route.fulfill(answer503('MESSAGE_NOT_SENT')));
    await page.goto(`/login?lang=${lang.toUpperCase()}`);
    await fillLogin(page, lang, ANA.id, ANA.password);
    await expect(page.getByRole('alert').filter({ hasText: t.loginNotSent })).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByLabel(TEXTS[lang].id)).toHaveValue(ANA.id);
    await checked(page, `${lang}-login-not-sent`);
  });
}
