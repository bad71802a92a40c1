// The screens that refuse to send a code, in both languages: the phone step's own refusals of numbers the bank
// does not text, a new number asked for within the cooldown (the real server's answer), and a spent message
// budget. The budgets themselves are tested against the server (__tests__/server/messageBudgets.test.ts); this
// run raises them (playwright.config.ts), so their refusal is given to the page here as the server words it.
// Each state passes axe's checks, and is photographed at a phone's width and at 200% text for review.
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ANA, fillLogin, TEXTS } from './helpers';
import { checkedAndPhotographed } from './axe';
import { arrived, fillSignUp, freshApplicant, personalInfo, sendSignUp, wizardText } from './wizard';

const SHOTS = process.env.E2E_SCREENSHOTS_DIR ?? path.join('test-results', 'message-budgets');

// axe is injected by the test, not served: the page's CSP (rightly) refuses foreign scripts.
test.use({ bypassCSP: true, viewport: { width: 390, height: 844 } });

/** axe's verdict, then the page at 390 px and at 200% text. */
const checked = (page: Page, name: string) => checkedAndPhotographed(page, SHOTS, name);

const spent = (retryAfterSeconds: number) => ({
  status: 429,
  contentType: 'application/json',
  headers: { 'retry-after': String(retryAfterSeconds) },
  body: JSON.stringify({ code: 'MESSAGE_BUDGET_EXCEEDED', message: 'Too many messages have been sent: try again later', retryAfterSeconds }),
});

const TEXT = {
  en: {
    countryCode: 'Country code', noMatches: 'Nothing matches what you typed', premium: /Premium-rate, shared-cost and free-phone numbers are not accepted/,
    notServed: /We cannot send text messages to numbers of this country/, tooSoon: /We sent you a code a moment ago\. You can ask for another in \d+ seconds?\./,
    budget: /We have sent too many messages for now\. For your security, you can ask again at/,
    loginBudget: /we have sent too many codes by SMS for now\. You can try again at/,
  },
  es: {
    countryCode: 'Prefijo', noMatches: 'Nada coincide con lo que has escrito', premium: /No se aceptan números de tarificación especial/,
    notServed: /No podemos enviar SMS a números de este país/, tooSoon: /Te hemos enviado un código hace un momento\. Podrás pedir otro dentro de \d+ segundos?\./,
    budget: /Hemos enviado demasiados mensajes por ahora\. Por tu seguridad, podrás volver a pedirlo a las/,
    loginBudget: /hemos enviado demasiados códigos por SMS por ahora\. Podrás volver a intentarlo a las/,
  },
} as const;

for (const lang of ['es', 'en'] as const) {
  const t = { ...wizardText(lang), ...TEXT[lang] };

  test(`sign-up and the phone step say why no code was sent (${lang})`, async ({ page }) => {
    const who = freshApplicant();
    await fillSignUp(page, lang, who);

    // Too many e-mails for now: said under the form, nothing typed is lost.
    await page.route('**/api/onboarding-management/register', (route) => route.fulfill(spent(1500)));
    await page.getByRole('button', { name: t.sendCode }).click();
    await expect(page.getByText(t.budget)).toBeVisible();
    await expect(page.getByLabel(t.email)).toHaveValue(who.email);
    await checked(page, `${lang}-signup-budget`);
    await page.unroute('**/api/onboarding-management/register');

    await sendSignUp(page, lang, who);

    await personalInfo(page, lang);
    await arrived(page, /\/contact-phone/);
    await checked(page, `${lang}-phone`);

    // The country code offers the countries the bank texts, no other.
    const country = page.getByRole('combobox', { name: t.countryCode });
    await country.fill('cuba');
    await expect(page.getByRole('option')).toHaveText(t.noMatches);
    await country.fill('portu');
    await expect(page.getByRole('option').first()).toContainText('Portugal');
    await checked(page, `${lang}-phone-picker`);
    await page.getByRole('option').first().click();
    await country.fill(lang === 'es' ? 'españa' : 'spain');
    await page.getByRole('option').first().click();

    // A premium-rate number, then a far-away mobile: refused next to the field, nothing sent.
    const mobile = page.getByLabel(t.mobile);
    await mobile.fill('806 123 456');
    await page.getByRole('button', { name: t.sendCode }).click();
    await expect(mobile).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(t.premium)).toBeVisible();
    await checked(page, `${lang}-phone-premium`);
    await mobile.fill('+53 5 1234567');
    await page.getByRole('button', { name: t.sendCode }).click();
    await expect(page.getByText(t.notServed)).toBeVisible();

    // A mobile: the code goes. Back, and another number at once: the real server refuses it as a resend.
    await mobile.fill(who.phone);
    await page.getByRole('button', { name: t.sendCode }).click();
    await arrived(page, /\/confirm-telephone/);
    await page.goBack();
    await arrived(page, /\/contact-phone/);
    await page.getByLabel(t.mobile).fill(`${who.phone.slice(0, -1)}${(Number(who.phone.slice(-1)) + 1) % 10}`);
    await page.getByRole('button', { name: t.sendCode }).click();
    await expect(page.getByText(t.tooSoon)).toBeVisible();
    await checked(page, `${lang}-phone-too-soon`);

    // Too many messages for now: the time to come back.
    await page.route('**/api/onboarding-management-private/phone', (route) => route.fulfill(spent(1800)));
    await page.getByRole('button', { name: t.sendCode }).click();
    await expect(page.getByText(t.budget)).toBeVisible();
    await checked(page, `${lang}-phone-budget`);
  });

  test(`the login says when SMS codes can be sent again (${lang})`, async ({ page }) => {
    await page.route('**/api/user-authorization-management/create-session', (route) => route.fulfill(spent(1200)));
    await page.goto(`/login?lang=${lang.toUpperCase()}`);
    await fillLogin(page, lang, ANA.id, ANA.password);
    await expect(page.getByRole('alert').filter({ hasText: t.loginBudget })).toBeVisible();
    await expect(page).toHaveURL(/\/login/);
    await expect(page.getByLabel(TEXTS[lang].id)).toHaveValue(ANA.id);
    await checked(page, `${lang}-login-budget`);
  });
}
