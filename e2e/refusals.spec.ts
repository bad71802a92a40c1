// Refusals in the browser, on the real server: a CIF of a refused entity is asked about before it closes the
// application; a closed application stays on its page after a reload, a language switch and on another device;
// a rejected customer is told so at login. Each changed screen is photographed at 390 px in both languages.
import { expect, test, type Page } from '@playwright/test';
import { arrived, codeSentTo, companyText, freshApplicant, lastMessageId, personalInfo, phone, signUp, wizardText, type Lang, type Applicant } from './wizard';

const SHOTS = 'test-results/refusals';
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });

const TEXT = {
  es: {
    asked: '¿Es correcto el CIF?',
    association: /Un CIF que empieza por G es de una asociación o fundación/,
    community: /Un CIF que empieza por E es de una comunidad de bienes/,
    correct: 'Corregir el CIF',
    right: 'El CIF es correcto',
    why: /asociaciones y fundaciones/i,
    forbidden: /solo puede abrir cuentas a personas mayores de edad que vivan en España/i,
    other: 'EN English',
  },
  en: {
    asked: 'Is the CIF right?',
    association: /A CIF starting with G belongs to an association or foundation/,
    community: /A CIF starting with E belongs to a community of property/,
    correct: 'Correct the CIF',
    right: 'The CIF is right',
    why: /associations and foundations/i,
    forbidden: /can only open accounts for adults who live in Spain/i,
    other: 'ES Español',
  },
} as const;

/** To /about-company with the CIF typed and Continue pressed. */
async function typeCif(page: Page, lang: Lang, cif: string) {
  const t = { ...wizardText(lang), ...companyText(lang) };
  await page.getByLabel(t.company).check();
  await page.getByRole('button', { name: t.continue }).click();
  await arrived(page, /\/requirements-company/);
  await page.getByRole('button', { name: t.start }).click();
  await arrived(page, /\/about-company(\?|$)/);
  await page.getByLabel(t.cif).fill(cif);
  await page.getByRole('button', { name: t.continue }).click();
}

/** The sign-up again, on a browser that knows nothing: the e-mail code decides where it goes. */
async function signUpAgain(page: Page, lang: Lang, who: Applicant) {
  const t = wizardText(lang);
  const before = await lastMessageId(page);
  await page.goto(`/signUp?lang=${lang}`);
  await page.getByLabel(t.email).fill(who.email);
  await page.getByLabel(t.id).fill(who.dni);
  await page.getByLabel(t.privacy).check();
  await page.getByLabel(t.precontract).check();
  await page.getByRole('button', { name: t.sendCode }).click();
  await arrived(page, /\/reg-code/);
  await page.getByLabel(t.emailCode).fill(await codeSentTo(page, who.email, before));
  await page.getByRole('button', { name: t.confirm }).click();
}

for (const lang of ['es', 'en'] as const) {
  const t = TEXT[lang];

  test(`a mistyped CIF is asked about before it closes anything; a closed application stays closed on reload, language switch and another device (${lang})`, async ({ page, browser }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const who = freshApplicant();
    await signUp(page, lang, who);
    await personalInfo(page, lang);
    await phone(page, lang, who);
    // B58378431 with its first letter mistyped.
    await typeCif(page, lang, 'G58378431');
    await expect(page.getByRole('heading', { name: t.asked })).toBeFocused();
    await expect(page.getByText(t.association)).toBeVisible();
    await shot(page, `confirm-G-${lang}`);
    await page.getByRole('button', { name: t.correct }).click();
    await expect(page.getByLabel(companyText(lang).cif)).toBeFocused();
    await expect(page).toHaveURL(/\/about-company/);

    // Kept as typed, and confirmed: now it closes.
    await page.getByRole('button', { name: wizardText(lang).continue }).click();
    await page.getByRole('button', { name: t.right }).click();
    await arrived(page, /\/company-error/);
    await expect(page.getByText(t.why)).toBeVisible();

    await page.reload();
    await arrived(page, /\/company-error/);
    await expect(page.getByText(t.why)).toBeVisible();
    await page.getByRole('button', { name: t.other }).click();
    await expect(page).toHaveURL(/\/company-error/);
    await expect(page.getByText(TEXT[lang === 'es' ? 'en' : 'es'].why)).toBeVisible();

    const other = await browser.newContext();
    const device = await other.newPage();
    await signUpAgain(device, lang, who);
    await arrived(device, /\/company-error/);
    await expect(device.getByText(t.why)).toBeVisible();
    await other.close();
  });

  test(`a community of property is offered its members' path, and /company-error points the others to it (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const who = freshApplicant();
    await signUp(page, lang, who);
    await personalInfo(page, lang);
    await phone(page, lang, who);
    await typeCif(page, lang, 'E12345674');
    await expect(page.getByText(t.community)).toBeVisible();
    await shot(page, `confirm-E-${lang}`);
    await page.getByRole('button', { name: t.right }).click();
    await arrived(page, /\/company-error/);
    await shot(page, `company-error-E-${lang}`);
  });

  test(`/forbidden-user keeps its explanation on a reload and a language switch (${lang})`, async ({ page }) => {
    const who = freshApplicant();
    await signUp(page, lang, who);
    await personalInfo(page, lang, { typed: lang === 'es' ? 'Francia' : 'France', option: lang === 'es' ? 'Francia' : 'France' });
    await arrived(page, /\/forbidden-user/);
    await expect(page.getByText(t.forbidden)).toBeVisible();
    await page.getByRole('button', { name: t.other }).click();
    await expect(page).toHaveURL(/\/forbidden-user/);
    await expect(page.getByText(TEXT[lang === 'es' ? 'en' : 'es'].forbidden)).toBeVisible();
    await page.reload();
    await arrived(page, /\/forbidden-user/);
    await expect(page.getByText(TEXT[lang === 'es' ? 'en' : 'es'].forbidden)).toBeVisible();
  });

  test(`the rejection page at 390 px (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/application-rejected?lang=${lang}`);
    await expect(page.locator('h1#rejected-title')).toBeVisible();
    await shot(page, `application-rejected-${lang}`);
  });
}
