// Nothing jumps: the layout shift of each screen (CLS, what the browser reports as layout-shift entries not
// caused by the user's own input) stays under 0.02, on a phone, from arriving at a screen to leaving it.
import { expect, test, type Page } from '@playwright/test';
import { ANA, lastCode, lastOutboxId, PENDING, TEXTS } from './helpers';
import {
  addOwner,
  companyDetails,
  companyStart,
  companyText,
  freelancerUpToIdentity,
  freshApplicant,
  onEveryPage,
  password,
  personalInfo,
  phone,
  signUp,
  tellUsMoreCompany,
  wizardText,
} from './wizard';

const LIMIT = 0.02;

test.beforeEach(async ({ page }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'the help panel moves under the screen only on a phone');
  await page.addInitScript(() => {
    const shifts: { value: number; path: string; moved: string[] }[] = [];
    (window as unknown as { shifts: typeof shifts }).shifts = shifts;
    new PerformanceObserver((list) => {
      type Shift = PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] };
      for (const entry of list.getEntries() as Shift[]) {
        // What moved, to say so when it is too much.
        const moved = (entry.sources ?? []).map(({ node }) => (node instanceof Element ? `${node.tagName.toLowerCase()}.${node.className}` : String(node?.nodeName)));
        if (!entry.hadRecentInput) shifts.push({ value: entry.value, path: location.pathname, moved });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
});
test.afterEach(() => {
  onEveryPage.check = undefined;
});

/** The layout shift since the last look, per path; the record starts again. */
async function expectStill(page: Page) {
  // Two frames: a shift of what was just drawn is reported after it paints.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  const shifts = await page.evaluate(() => (window as unknown as { shifts: { value: number; path: string; moved: string[] }[] }).shifts.splice(0));
  const paths = new Set(shifts.map(({ path }) => path));
  for (const path of paths) {
    const entries = shifts.filter((shift) => shift.path === path);
    const total = entries.reduce((sum, { value }) => sum + value, 0);
    expect(total, `layout shift on ${path}, moving ${[...new Set(entries.flatMap(({ moved }) => moved))].join(' ')}`).toBeLessThan(LIMIT);
  }
}

test('the login journey does not jump: login, SMS code, pending review, recovery', async ({ page }) => {
  await page.goto('/login?lang=es');
  await expect(page.getByRole('heading', { level: 1, name: TEXTS.es.title })).toBeVisible();
  await expectStill(page);
  await page.goto('/recover-password/init?lang=es');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectStill(page);
  await page.goto('/login?lang=es');
  // A customer whose application is pending review: from the long login form to a short page.
  await page.getByLabel(TEXTS.es.id).fill(PENDING.id);
  await page.getByLabel(TEXTS.es.password, { exact: true }).fill(PENDING.password);
  await page.getByRole('button', { name: TEXTS.es.submit }).click();
  await expect(page).toHaveURL(/\/client-verification/);
  // The page's own title: for a render after the URL changes, the login form is still on show.
  await expect(page.getByRole('heading', { level: 1, name: 'Estamos verificando tus datos' })).toBeVisible();
  await expectStill(page);

  const before = await lastOutboxId(page);
  await page.goto('/login?lang=es');
  await page.getByLabel(TEXTS.es.id).fill(ANA.id);
  await page.getByLabel(TEXTS.es.password, { exact: true }).fill(ANA.password);
  await page.getByRole('button', { name: TEXTS.es.submit }).click();
  await expect(page).toHaveURL(/confirm-telephone/);
  await expect(page.getByLabel(TEXTS.es.code)).toBeVisible();
  await expectStill(page);
  await page.getByLabel(TEXTS.es.code).fill(await lastCode(page, ANA.phone, before));
  await page.getByRole('button', { name: TEXTS.es.confirm }).click();
  await expect(page).toHaveURL(/\/app$/);
  // The main app is a page of its own: its heading takes focus once its script has run.
  await expect(page.getByRole('heading', { level: 1, name: 'Tu cuenta Divilo' })).toBeFocused();
  await expectStill(page);
});

test("the freelancer's wizard does not jump, on any of its pages", async ({ page }) => {
  onEveryPage.check = expectStill;
  await freelancerUpToIdentity(page, 'es');
  await expectStill(page);
});

test("the company's wizard does not jump either, owners added on /royal-owners included", async ({ page }) => {
  onEveryPage.check = expectStill;
  const who = freshApplicant();
  await signUp(page, 'es', who);
  await personalInfo(page, 'es');
  await phone(page, 'es', who);
  await companyStart(page, 'es', 'B12345674');
  await companyDetails(page, 'es');
  await addOwner(page, 'es', '60');
  await expectStill(page);
  await page.getByLabel(companyText('es').indirectNo).check();
  await page.getByRole('button', { name: wizardText('es').continue }).click();
  await tellUsMoreCompany(page, 'es');
  await password(page, 'es', who);
  await expectStill(page);
});
