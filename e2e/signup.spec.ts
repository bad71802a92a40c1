// The freelancer's onboarding in the browser, on the real server: from /signUp through every step, with
// reloads and a second device, the outcome pages, refused uploads, and axe's WCAG checks of each screen.
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { ANA } from './helpers';
import {
  codeSentTo,
  freelanceBusiness,
  admin,
  applicationId,
  arrived,
  freelancerUpToIdentity,
  freshApplicant,
  lastMessageId,
  onEveryPage,
  signContract,
  identityCheck,
  password,
  personalInfo,
  phone,
  pick,
  signUp,
  taxRegistration,
  tellUsMore,
  wizardText,
  type Lang,
} from './wizard';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
test.use({ bypassCSP: true });

async function violations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> } }).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] });
  });
  return result.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

/** axe on the page as it is, after its title is there (the screen has rendered). */
async function expectAccessible(page: Page) {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await violations(page), page.url()).toEqual([]);
}

test.afterEach(() => {
  onEveryPage.check = undefined;
});

for (const lang of ['es', 'en'] as const satisfies readonly Lang[]) {
  const t = wizardText(lang);

  test(`a freelancer goes from /signUp to /welcome, reloading on the way, is approved and logs in (${lang})`, async ({ page }) => {
    const who = freshApplicant();
    // axe on every page the journey reaches, as it arrives.
    onEveryPage.check = expectAccessible;
    await page.goto(`/signUp?lang=${lang}&promo=VERANO26`);
    await expect(page.getByLabel(/promo/i)).toHaveValue('VERANO26');
    await expectAccessible(page);
    await signUp(page, lang, who, '&promo=VERANO26');
    await personalInfo(page, lang);
    await expect(page).toHaveURL(/\/contact-phone/);

    // Reload 1: the page and the query stay; Back shows the answers saved.
    await page.reload();
    await expect(page).toHaveURL(/\/contact-phone\?.*promo=VERANO26/);
    await page.getByRole('link', { name: lang === 'es' ? 'Atrás' : 'Back' }).click();
    await expect(page.getByLabel(t.firstName, { exact: true })).toHaveValue('Lucía');
    await expect(page.getByLabel(t.birthDate)).toHaveValue('14/03/1990');
    await page.getByRole('button', { name: t.continue }).click();

    await phone(page, lang, who);
    await freelanceBusiness(page, lang);
    await taxRegistration(page, lang);

    // Reload 2, on the next step: the upload and the regime are still there behind Back.
    await page.reload();
    await page.getByRole('link', { name: lang === 'es' ? 'Atrás' : 'Back' }).click();
    await expect(page.getByLabel(t.regime)).toBeChecked();
    await expect(page.getByText(t.received)).toBeVisible();
    await page.getByRole('button', { name: t.continue }).click();
    await expectAccessible(page);
    await tellUsMore(page, lang);

    // Reload 3, on the password: a secret is never kept, the rest is.
    await page.reload();
    await expect(page.getByLabel(t.password, { exact: true })).toHaveValue('');
    const stored = await page.evaluate(() => JSON.stringify(localStorage));
    expect(stored).toContain('VERANO26');
    expect(stored).not.toContain(who.password);
    await password(page, lang, who);
    await identityCheck(page, lang);
    const id = await applicationId(page);
    await signContract(page, lang, who);
    onEveryPage.check = undefined;
    // The end of the journey: no query string, nothing of the application left in the browser.
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => localStorage.getItem('USER_FORM') ?? '')).not.toContain('Martín');

    const listed = admin('list')
      .split('\n')
      .find((line) => line.startsWith(id));
    expect(listed?.split(/\s{2,}/).slice(1, 3)).toEqual(['pending-review', 'freelance']);
    // The bank looks at the photos before anything else: the application waits for the identity decision.
    const shown = JSON.parse(admin('show', id)) as { identityCheck: { status: string; flags?: string[] }; documents: { kind: string; link: string }[] };
    expect(shown.identityCheck).toMatchObject({ status: 'needs-review', provider: 'manual' });
    expect(shown.documents.filter((document) => ['documentFront', 'documentBack', 'selfie'].includes(document.kind)).map((document) => document.link)).toHaveLength(3);
    expect(admin('--reviewer', 'Marta Ruiz', 'identity', id, 'approve')).toContain('approved');

    // Verified (its sign-in user made), not a customer until the bank approves: the login says the application is being reviewed.
    await page.goto(`/login?lang=${lang}`);
    await page.getByLabel(lang === 'es' ? 'DNI o NIE' : 'ID document (DNI or NIE)').fill(who.dni);
    await page.getByLabel(t.password, { exact: true }).fill(who.password);
    await page.getByRole('button', { name: lang === 'es' ? 'Entrar' : 'Log in' }).click();
    await expect(page).toHaveURL(/\/client-verification/);

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

  test(`another device resumes the application where it was left, with its answers (${lang})`, async ({ page, browser }) => {
    const who = freshApplicant();
    await signUp(page, lang, who);
    await personalInfo(page, lang);
    await phone(page, lang, who);

    const context = await browser.newContext();
    const other = await context.newPage();
    await signUp(other, lang, who);
    await expect(other).toHaveURL(/\/register-as/);
    await other.getByRole('link', { name: lang === 'es' ? 'Atrás' : 'Back' }).click();
    await expect(other).toHaveURL(/\/confirm-telephone/);
    await other.goto(`/personal-info?lang=${lang}`);
    await expect(other.getByLabel(t.firstSurname)).toHaveValue('Martín');
    await context.close();
  });

  test(`an ID that is a customer's already lands on /already-exists, one outside Spain on /forbidden-user (${lang})`, async ({ page }) => {
    await signUp(page, lang, { email: `someone-${Date.now()}@example.com`, dni: ANA.id, phone: '', password: '' });
    await arrived(page, /\/already-exists/);
    await expectAccessible(page);

    const who = freshApplicant();
    await signUp(page, lang, who);
    await personalInfo(page, lang, { typed: lang === 'es' ? 'Francia' : 'France', option: lang === 'es' ? 'Francia' : 'France' });
    await arrived(page, /\/forbidden-user/);
    await expectAccessible(page);
  });

  test(`the names refuse hidden characters and scripts the contract cannot print, each with its message, and take every script it prints (${lang})`, async ({ page }) => {
    const who = freshApplicant();
    await signUp(page, lang, who);
    await arrived(page, /\/personal-info/);
    const first = page.getByLabel(t.firstName, { exact: true });
    const second = page.getByLabel(lang === 'es' ? 'Segundo apellido (opcional)' : 'Second surname (optional)');
    // A right-to-left override pasted into a name, a surname in Hangul, a digit.
    await first.fill('Lu\u202ecía');
    await page.getByLabel(t.firstSurname).fill('Martín3');
    await second.fill('김민준');
    await page.getByRole('button', { name: t.continue }).click();
    await expect(page).toHaveURL(/\/personal-info/);
    await expect(first).toHaveAttribute('aria-invalid', 'true');
    await expect(first).toBeFocused();
    await expect(page.getByText(lang === 'es' ? 'Quita los saltos de línea, tabuladores o caracteres ocultos: escríbelo en una sola línea' : 'Remove the line breaks, tabs or hidden characters: write it on one line')).toBeVisible();
    await expect(page.getByText(lang === 'es' ? 'Usa solo letras, espacios, apóstrofos, guiones y puntos' : 'Use only letters, spaces, apostrophes, hyphens and dots')).toBeVisible();
    await expect(page.getByText(lang === 'es' ? 'El contrato no puede imprimir 김 민 준. Escríbelo con caracteres latinos, griegos, cirílicos o chinos' : 'The contract cannot print 김 민 준. Write it in Latin, Greek, Cyrillic or Chinese characters')).toBeVisible();
    await expectAccessible(page);

    // Latin with its accents and Ł, and a surname in Han characters: taken, and saved as typed.
    await first.fill('Zoë');
    await page.getByLabel(t.firstSurname).fill('Łukasiewicz O’Neill');
    await second.fill('王小明');
    await pick(page, t.birthCountry, t.spain);
    await page.getByLabel(t.birthDate).fill('14/03/1990');
    await page.getByRole('button', { name: t.continue }).click();
    await arrived(page, /\/contact-phone/);
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('JWT') ?? 'null') as string | null);
    const application = await (await page.request.get('/api/onboarding-management-private/application', { headers: { authorization: `Bearer ${token}` } })).json();
    expect(application.answers).toMatchObject({ firstName: 'Zoë', firstSurname: 'Łukasiewicz O’Neill', secondSurname: '王小明' });
  });

  test(`the tax step refuses a file that is not a PDF and a form without the document, next to it (${lang})`, async ({ page }) => {
    const who = freshApplicant();
    await signUp(page, lang, who);
    await personalInfo(page, lang);
    await phone(page, lang, who);
    await freelanceBusiness(page, lang);
    await page.getByLabel(t.regime).check();
    await page.getByRole('button', { name: t.continue }).click();
    await arrived(page, /\/tax-registration-income/);
    await expect(page.locator('input[type=file]')).toBeFocused();
    await page.locator('input[type=file]').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('not a pdf at all') });
    await expect(page.getByText(t.notPdf)).toBeVisible();
    await expectAccessible(page);
  });
}

test('a first visit to /signUp asks for no customer session, and the console shows no error', async ({ page }) => {
  const errors: string[] = [];
  const sessionCalls: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('request', (request) => {
    if (request.url().includes('/get-session')) sessionCalls.push(request.url());
  });
  const t = wizardText('en');
  await page.goto('/signUp?lang=en');
  await expect(page.getByLabel(t.email)).toBeVisible();
  // Every call the page makes on its own has answered.
  await page.waitForLoadState('networkidle');
  expect(sessionCalls).toEqual([]);
  expect(errors).toEqual([]);
});

test('the e-mail code step says how many attempts are left after a wrong code', async ({ page }) => {
  const who = freshApplicant();
  const t = wizardText('en');
  await page.goto('/signUp?lang=en');
  await page.getByLabel(t.email).fill(who.email);
  await page.getByLabel(t.id).fill(who.dni);
  await page.getByLabel(t.privacy).check();
  await page.getByLabel(t.precontract).check();
  await page.getByRole('button', { name: t.sendCode }).click();
  const right = await codeSentTo(page, who.email);
  await page.getByLabel(t.emailCode).fill(right === '000000' ? '111111' : '000000');
  await page.getByRole('button', { name: t.confirm }).click();
  await expect(page.getByRole('alert')).toContainText('4 attempts left');
  await expect(page.getByLabel(t.emailCode)).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel(t.emailCode)).toBeFocused();
});

test('the identity waiting page, while the check is pending and when it is refused, says so, offers the photos again and passes axe', async ({ page }) => {
  await freelancerUpToIdentity(page, 'es');
  // Each photo keeps one line for its outcome: the status and the error are in the same place, not one above the other.
  await arrived(page, /\/check-identity/);
  const [status, error] = await Promise.all(['.dv-upload__status', '.dv-upload__error'].map((selector) => page.locator(selector).first().boundingBox()));
  expect(status!.y).toBe(error!.y);
  // The manual check answers at once: the result the page polls for is held back, then refused.
  let result = 'pending';
  await page.route('**/api/onboarding-management-private/identity-check', (route) =>
    route.request().method() === 'GET' ? route.fulfill({ json: { status: result } }) : route.continue(),
  );
  await identityCheck(page, 'es', { toContract: false });
  await arrived(page, /\/check-identity-waiting/);
  await expect(page.getByRole('status')).toContainText('Estamos comprobando tus fotos');
  await expectAccessible(page);

  result = 'rejected';
  await expect(page.getByRole('status')).toContainText('No hemos podido verificar tu identidad con estas fotos.', { timeout: 10_000 });
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Hacer las fotos de nuevo' }).click();
  await expect(page).toHaveURL(/\/check-identity(\?|$)/);
});

test('a browser that shows no PDF itself (most phones) gets the contract as a named file, its words being in the page', async ({ page }) => {
  // Chrome on Android, for one: it reports no PDF viewer.
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'pdfViewerEnabled', { get: () => false }));
  const who = await freelancerUpToIdentity(page, 'es');
  await identityCheck(page, 'es');
  await arrived(page, /\/docu-sign/);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Descargar el contrato (PDF)' }).click()]);
  expect(download.suggestedFilename()).toBe('contrato-divilo.pdf');
  const file = readFileSync((await download.path())!);
  expect(file.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(file.toString('latin1')).toContain('%%EOF');
  await expectAccessible(page);
  await signContract(page, 'es', who, { pdfViewer: false });
});

test('a wizard step whose application cannot be read says so, passes axe, and reads it again on Try again', async ({ page }) => {
  const who = freshApplicant();
  await signUp(page, 'en', who);
  await arrived(page, /\/personal-info/);
  // The reload reads the saved application first: the connection drops for that read.
  await page.route('**/api/onboarding-management-private/application', (route) => route.abort('internetdisconnected'));
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'We could not load your application' })).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Check your connection and try again');
  await expect(page.getByLabel('First name')).toHaveCount(0);
  await expectAccessible(page);
  await page.unroute('**/api/onboarding-management-private/application');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('h1[id="personal-info-title"]')).toBeVisible();
  await expect(page.getByLabel('First name')).toBeVisible();
});
