// Finding an activity in one's own words, in the browser on the real server: a freelancer's IAE epígrafe and a
// company's CNAE-2025 class, each typed as applicants say it (and as tax forms write the code), in both languages.
import { expect, test, type Page } from '@playwright/test';
import { companyStart, companyText, freshApplicant, personalInfo, phone, signUp, wizardText, type Lang } from './wizard';

/** The options of the picker labelled `label`, as listed. */
const optionsOf = (page: Page, label: string) => page.getByRole('listbox', { name: label }).getByRole('option');

async function upTo(page: Page, lang: Lang, person: 'freelance' | 'company') {
  const who = freshApplicant();
  await signUp(page, lang, who);
  await personalInfo(page, lang);
  await phone(page, lang, who);
  if (person === 'company') {
    await companyStart(page, lang, 'B12345674');
    await expect(page).toHaveURL(/\/about-company-info/);
    return;
  }
  const t = wizardText(lang);
  await page.getByLabel(t.freelance).check();
  await page.getByRole('button', { name: t.continue }).click();
  await page.getByRole('button', { name: t.start }).click();
  await expect(page).toHaveURL(/\/your-activity/);
}

for (const [lang, typed] of [
  ['es', 'fontanero'],
  ['en', 'plumber'],
] as const) {
  test(`a freelancer finds the plumbing epígrafe by typing "${typed}" (${lang})`, async ({ page }) => {
    await upTo(page, lang, 'freelance');
    const label = wizardText(lang).activity;
    await page.getByRole('combobox', { name: label }).fill(typed);
    await expect(optionsOf(page, label).first()).toContainText('1.504.2Instalaciones de fontaneríaInstalaciones y montajes');
    await optionsOf(page, label).first().click();
    await expect(page.getByRole('combobox', { name: label })).toHaveValue('1.504.2 Instalaciones de fontanería');
    // The code as the modelo 036 writes it finds the epígrafe alone.
    await page.getByRole('combobox', { name: label }).fill('6732');
    await expect(optionsOf(page, label)).toHaveCount(1);
    await expect(optionsOf(page, label).first()).toContainText('1.673.2');
  });
}

for (const [lang, typed, title] of [
  ['es', 'creadores de contenido', 'Otras actividades de distribución de contenidos'],
  ['en', 'content creator', 'Other content distribution activities'],
] as const) {
  test(`a company finds class 60.39 by typing "${typed}" (${lang})`, async ({ page }) => {
    await upTo(page, lang, 'company');
    const label = companyText(lang).cnae;
    await page.getByRole('combobox', { name: label }).fill(typed);
    await expect(optionsOf(page, label).first()).toContainText(`60.39${title}`);
    await page.getByRole('combobox', { name: label }).fill('6039');
    await page.getByRole('combobox', { name: label }).press('Enter');
    await expect(page.getByRole('combobox', { name: label })).toHaveValue(`60.39 ${title}`);
  });
}
