// The wizard's forms at a phone's width, in both languages and at 200% text: an error that goes while the value is
// corrected moves nothing the next tap aims at, and a document's upload shows its progress as the bytes go.
import { expect, test, type Page } from '@playwright/test';
import { addOwner, companyDetails, companyStart, companyText, freelanceBusiness, freshApplicant, personalInfo, phone, samplePdf, signUp, wizardText, type Lang } from './wizard';

test.use({ viewport: { width: 390, height: 844 } });

test.beforeEach(({ page: _page }, testInfo) => {
  test.skip(testInfo.project.name !== 'phone', 'a phone-width check');
});

const ID_ERROR = { en: 'Enter a valid DNI or NIE', es: 'Introduce un DNI o NIE válido' } as const;

/** 200% text, as a browser's text setting gives it: the root font size doubled (as e2e/reflow.spec.ts sets it). */
async function largeText(page: Page) {
  await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => void (document.documentElement.style.fontSize = '200%')));
}

for (const lang of ['en', 'es'] as Lang[]) {
  for (const zoom of ['100%', '200%'] as const) {
    test(`sign-up (${lang}, text ${zoom}): the ID error goes as it is corrected, and the consent box stays under the tap`, async ({ page }, testInfo) => {
      const t = wizardText(lang);
      if (zoom === '200%') await largeText(page);
      await page.goto(`/signUp?lang=${lang}`);
      const id = page.getByLabel(t.id);
      if (zoom === '200%') {
        // The header and progress stay compact: the title starts in the top third of the first screen.
        await page.screenshot({ path: testInfo.outputPath(`signup-top-${lang}-${zoom}.png`) });
        await expect(page.locator('.dv-progress__sections')).toBeHidden();
        const title = await page.getByRole('heading', { level: 1 }).boundingBox();
        expect(title!.y).toBeLessThan(844 / 3);
      }
      await id.fill('12345678A');
      await id.blur();
      await expect(page.getByText(ID_ERROR[lang])).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`signup-error-${lang}-${zoom}.png`), fullPage: true });
      await id.fill('12345678Z');
      // Gone while the field still has focus, so leaving it moves nothing.
      await expect(page.getByText(ID_ERROR[lang])).toHaveCount(0);
      await expect(id).toBeFocused();
      const consent = page.getByLabel(t.privacy);
      await consent.scrollIntoViewIfNeeded();
      const before = await consent.boundingBox();
      await id.blur();
      const after = await consent.boundingBox();
      expect(after?.y).toBe(before?.y);
      // A tap where the box was lands on it.
      await page.mouse.click(before!.x + before!.width / 2, before!.y + before!.height / 2);
      await expect(consent).toBeChecked();
      await page.screenshot({ path: testInfo.outputPath(`signup-corrected-${lang}-${zoom}.png`), fullPage: true });
    });
  }
}

test('an upload on a slow connection moves in small steps, not 0% until the end', async ({ page }) => {
  const who = freshApplicant();
  await signUp(page, 'en', who);
  await personalInfo(page, 'en');
  await phone(page, 'en', who);
  await freelanceBusiness(page, 'en');
  // 300 kB/s up: a 2 MB PDF takes about 7 s.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 300 * 1024 });
  const pdf = await samplePdf('modelo-036.pdf');
  const padded = Buffer.concat([pdf.buffer, Buffer.from(`\n%${'0'.repeat(2 * 1024 * 1024)}\n`)]);
  await page.locator('input[type=file]').setInputFiles({ ...pdf, buffer: padded });
  const bar = page.getByRole('progressbar', { name: /Uploading modelo-036.pdf/ });
  await expect(bar).toBeVisible();
  const seen = new Set<number>();
  await expect
    .poll(
      async () => {
        const value = Number(await bar.getAttribute('value').catch(() => null));
        if (value > 0 && value < 100) seen.add(value);
        return seen.size;
      },
      { intervals: [200] },
    )
    .toBeGreaterThanOrEqual(3);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
});

const SERVER_FULL = {
  en: "We can't store documents at the moment: the problem is on our side, not with your file.",
  es: 'Ahora mismo no podemos guardar documentos: el problema es nuestro, no de tu archivo.',
} as const;

for (const lang of ['en', 'es'] as Lang[]) {
  test(`an upload refused because the server's disk is full (${lang}) says the problem is ours`, async ({ page }, testInfo) => {
    const who = freshApplicant();
    await signUp(page, lang, who);
    await personalInfo(page, lang);
    await phone(page, lang, who);
    await freelanceBusiness(page, lang);
    // The storage's answer when its disk is full, MinIO's 507 (the browser tests' server shares this machine's disk:
    // a really full one runs in __tests__/src/features/documents/DocumentUploadDiskFull.test.tsx).
    await page.route('**/s3/**', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 507, contentType: 'application/xml', body: '<?xml version="1.0" encoding="UTF-8"?><Error><Code>XMinioStorageFull</Code><Message>The storage has no free space left.</Message></Error>' })
        : route.continue(),
    );
    await page.locator('input[type=file]').setInputFiles(await samplePdf());
    await expect(page.getByText(SERVER_FULL[lang])).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath(`upload-server-full-${lang}.png`), fullPage: true });
  });
}

for (const lang of ['en', 'es'] as Lang[]) {
  test(`owners (${lang}): the same DNI twice is refused in the editor, and focus goes to it`, async ({ page }, testInfo) => {
    const who = freshApplicant();
    const t = { ...wizardText(lang), ...companyText(lang) };
    await signUp(page, lang, who);
    await personalInfo(page, lang);
    await phone(page, lang, who);
    await companyStart(page, lang, 'B12345674');
    await companyDetails(page, lang);
    await addOwner(page, lang, '60');
    await page.getByRole('button', { name: t.addOwner }).click();
    await expect(page.getByLabel(t.firstName, { exact: true })).toBeFocused();
    await page.getByLabel(t.firstName, { exact: true }).fill('Javier');
    await page.getByLabel(t.firstSurname).fill('Ruiz');
    await page.getByLabel(t.document, { exact: true }).fill(who.dni);
    await page.getByLabel(t.birthDate).fill('02/09/1980');
    await page.getByLabel(t.direct, { exact: true }).check();
    await page.getByLabel(t.percentage).fill('50');
    await page.getByLabel(t.pepNo, { exact: true }).check();
    await page.getByRole('button', { name: t.save }).click();
    await expect(page.getByLabel(t.document, { exact: true })).toBeFocused();
    await expect(page.getByLabel(t.document, { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await page.screenshot({ path: testInfo.outputPath(`owners-duplicate-${lang}-100%.png`), fullPage: true });
    await page.evaluate(() => void (document.documentElement.style.fontSize = '200%'));
    await page.getByLabel(t.document, { exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath(`owners-duplicate-${lang}-200%.png`) });
  });
}
