// A company's onboarding in the browser, on the real server: its details, three PDFs, two real owners, the
// closing steps, approval with `npm run admin` and the first login; a refused entity type; owners over 100%; a
// reload on /royal-owners; axe's WCAG checks of every page.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import {
  addOwner,
  arrived,
  admin,
  applicationId,
  codeSentTo,
  companyDetails,
  companyStart,
  companyText,
  freshApplicant,
  freshDni,
  identityCheck,
  lastMessageId,
  onEveryPage,
  password,
  personalInfo,
  phone,
  signContract,
  signUp,
  tellUsMoreCompany,
  wizardText,
  type Lang,
} from './wizard';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
test.use({ bypassCSP: true });

async function expectAccessible(page: Page) {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] });
  });
  expect(
    result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`),
    page.url(),
  ).toEqual([]);
}

test.afterEach(() => {
  onEveryPage.check = undefined;
});

const PARTNER = { firstName: 'Javier', firstSurname: 'Ruiz', birthDate: '02/09/1980' };

for (const lang of ['es', 'en'] as const satisfies readonly Lang[]) {
  const t = { ...wizardText(lang), ...companyText(lang) };

  test(`a company goes from /signUp to /welcome with two owners and three PDFs, is approved and its representative logs in (${lang})`, async ({ page }) => {
    const who = freshApplicant();
    onEveryPage.check = expectAccessible;
    await signUp(page, lang, who, '&promo=EMPRESA26');
    await personalInfo(page, lang);
    await phone(page, lang, who);
    await companyStart(page, lang, 'B12345674');
    await companyDetails(page, lang);

    // Two real owners: the applicant, filled in from what they entered, and a partner.
    await addOwner(page, lang, '60');
    await expect(page.getByText(`${who.dni}`)).toBeVisible();
    await addOwner(page, lang, '30,5', { ...PARTNER, dni: freshDni() });
    await expectAccessible(page);

    // A reload keeps both, before Continue.
    await page.reload();
    await expect(page.getByRole('listitem').filter({ hasText: 'Lucía Martín' })).toBeVisible();
    await expect(page.getByRole('listitem').filter({ hasText: 'Javier Ruiz' })).toBeVisible();
    await page.getByLabel(t.indirectNo).check();
    await page.getByRole('button', { name: t.continue }).click();

    await tellUsMoreCompany(page, lang);
    await password(page, lang, who);
    await identityCheck(page, lang);
    const id = await applicationId(page);
    await signContract(page, lang, who);
    onEveryPage.check = undefined;

    const shown = admin('show', id);
    expect(shown).toContain('Martín Software S.L.');
    expect(shown).toContain('Javier');
    expect(admin('identity', id, 'approve')).toContain('approved');
    expect(admin('approve', id)).toContain('approved');

    const before = await lastMessageId(page);
    await page.goto(`/login?lang=${lang}`);
    await page.getByLabel(lang === 'es' ? 'DNI o NIE' : 'ID document (DNI or NIE)').fill(who.dni);
    await page.getByLabel(t.password, { exact: true }).fill(who.password);
    await page.getByRole('button', { name: lang === 'es' ? 'Entrar' : 'Log in' }).click();
    await expect(page).toHaveURL(/\/login\/confirm-telephone/);
    await page.getByLabel(t.smsCode).fill(await codeSentTo(page, `+34${who.phone}`, before));
    await page.getByRole('button', { name: t.confirm }).click();
    await expect(page).toHaveURL(/\/app$/);
  });

  test(`an association is refused at /company-error, and owners over 100% are refused next to the list (${lang})`, async ({ page }) => {
    const refused = freshApplicant();
    await signUp(page, lang, refused);
    await personalInfo(page, lang);
    await phone(page, lang, refused);
    await companyStart(page, lang, 'G28659670');
    // Asked first: one mistyped letter could have made it an association.
    await page.getByRole('button', { name: lang === 'es' ? 'El CIF es correcto' : 'The CIF is right' }).click();
    await arrived(page, /\/company-error/);
    await expect(page.getByText(lang === 'es' ? /asociaciones y fundaciones/i : /associations and foundations/i)).toBeVisible();
    await expectAccessible(page);

    const who = freshApplicant();
    await signUp(page, lang, who);
    await personalInfo(page, lang);
    await phone(page, lang, who);
    await companyStart(page, lang, 'B12345674');
    await companyDetails(page, lang);
    await addOwner(page, lang, '70');
    await addOwner(page, lang, '40', { ...PARTNER, dni: freshDni() });
    await page.getByLabel(t.indirectNo).check();
    await page.getByRole('button', { name: t.continue }).click();
    await expect(page).toHaveURL(/\/royal-owners/);
    await expect(page.getByRole('alert').filter({ hasText: t.total })).toBeVisible();
    await expectAccessible(page);
  });
}
