// The bank asks an applicant for more information, and the applicant gives it: a reviewer sends a signed
// application back for its fiscal address from the back office; the applicant reads the e-mail, signs up again,
// lands on that step with the bank's words, changes it, goes straight on to the contract and signs again; the
// application is back in the queue (a step the bank did not name, gone back to, says so and returns). Then the
// funnel counts the journey. Both languages.
import { expect, test, type Browser, type Locator, type Page } from '@playwright/test';
import { violations } from './axe';
import { signedInStaff, STAFF_SIGN_IN_TEXT } from './staff';
import { admin, applicationId, arrived, codeSentTo, freelancerUpToIdentity, identityCheck, lastMessageId, signContract, wizardText, type Lang } from './wizard';

const TEXT = {
  en: {
    ask: 'Ask for more information',
    send: 'Send back to the applicant',
    step: 'Your fiscal address',
    template: 'Answers to check',
    asked: 'The applicant has been asked for more information',
    templateWords: 'We need you to check some of the answers you gave us.',
    note: 'Divilo asked you to check this step',
    signAgain: 'sign the contract again',
    back: 'Back',
    accept: 'Accept',
    notReopened: 'Divilo asked you to review only some of your details, and this step is not one of them',
    funnel: 'Funnel',
    templates: 'Message templates',
    funnelTitle: 'Where applicants give up',
    show: 'Show',
  },
  es: {
    ask: 'Pedir más información',
    send: 'Devolver al solicitante',
    step: 'Tu domicilio fiscal',
    template: 'Datos por revisar',
    asked: 'Se ha pedido más información al solicitante',
    templateWords: 'Necesitamos que revises algunos de los datos que nos diste.',
    note: 'Divilo te pide que revises este paso',
    signAgain: 'vuelve a firmar el contrato',
    back: 'Atrás',
    accept: 'Aceptar',
    notReopened: 'Divilo te ha pedido revisar solo algunos de tus datos, y este paso no es uno de ellos',
    funnel: 'Embudo',
    templates: 'Plantillas de mensajes',
    funnelTitle: 'Dónde abandonan los solicitantes',
    show: 'Mostrar',
  },
} as const;

/** Presses Tab until `target` has the focus (at most 80 times): it can be reached without a mouse. */
async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 80; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** A member of staff with these roles, signed in through the back office's page in a browser of their own. */
async function staffPage(browser: Browser, lang: Lang, roles: string[]): Promise<Page> {
  const page = await (await browser.newContext({ bypassCSP: true })).newPage();
  await signedInStaff(page, roles, lang);
  return page;
}

// axe is injected by the test, not served: the page's CSP (rightly) refuses foreign scripts.
test.use({ bypassCSP: true });

for (const lang of ['en', 'es'] as const) {
  test(`a reviewer asks for more information, the applicant gives it and signs again, and the funnel counts them (${lang})`, async ({ page, browser }) => {
    test.setTimeout(240_000);
    const t = TEXT[lang];
    const w = wizardText(lang);

    // An applicant signs, and the bank approves their photos.
    const who = await freelancerUpToIdentity(page, lang);
    await identityCheck(page, lang);
    const id = await applicationId(page);
    await signContract(page, lang, who);
    expect(admin('--reviewer', 'marta', 'identity', id, 'approve')).toContain('approved');

    // A reviewer sends it back for the fiscal address.
    const reviewer = await staffPage(browser, lang, ['reviewer']);
    await reviewer.goto(`/back-office/applications/${id}`);
    await expect(reviewer.getByRole('heading', { level: 1 })).toBeVisible();
    // With the keyboard only, as a reviewer who does not use a mouse.
    await tabTo(reviewer, reviewer.getByRole('button', { name: t.ask }));
    await reviewer.keyboard.press('Enter');
    await tabTo(reviewer, reviewer.getByRole('checkbox', { name: t.step }));
    await reviewer.keyboard.press('Space');
    const template = reviewer.getByRole('combobox', { name: /template|plantilla/i });
    await tabTo(reviewer, template);
    // A closed select changes with the arrow keys: down until the template is chosen.
    for (let presses = 0; presses < 10 && (await template.locator('option:checked').innerText()) !== t.template; presses += 1) await reviewer.keyboard.press('ArrowDown');
    await expect(template.locator('option:checked')).toHaveText(t.template);
    await tabTo(reviewer, reviewer.getByRole('button', { name: t.send }));
    await reviewer.keyboard.press('Enter');
    await expect(reviewer.getByRole('status').filter({ hasText: t.asked })).toBeVisible();
    expect(await violations(reviewer)).toEqual([]);

    // The applicant reads what the bank asked, signs up again and lands on that step, with the bank's words.
    const notice = (await (await page.request.get('/dev/outbox.json')).json()) as { recipient: string; text: string }[];
    expect(notice.find((message) => message.recipient === who.email)?.text).toContain(t.templateWords);
    const before = await lastMessageId(page);
    await page.goto(`/signUp?lang=${lang}`);
    await page.getByLabel(w.email).fill(who.email);
    await page.getByLabel(w.id).fill(who.dni);
    await page.getByLabel(w.privacy).check();
    await page.getByLabel(w.precontract).check();
    await page.getByRole('button', { name: w.sendCode }).click();
    await arrived(page, /\/reg-code/);
    await page.getByLabel(w.emailCode).fill(await codeSentTo(page, who.email, before));
    await page.getByRole('button', { name: w.confirm }).click();
    await arrived(page, /\/fiscal-address/);
    const note = page.getByRole('note', { name: t.note });
    await expect(note).toContainText(t.templateWords);
    expect(await violations(page)).toEqual([]);
    // A step the bank did not name stays as it was: going back to it and on again says so, and returns here.
    await page.getByRole('link', { name: t.back }).click();
    await arrived(page, /\/your-activity/);
    await page.getByRole('button', { name: w.continue }).click();
    const refusal = page.getByRole('alertdialog');
    await expect(refusal).toContainText(t.notReopened);
    await arrived(page, /\/fiscal-address/);
    await page.screenshot({ path: test.info().outputPath(`not-reopened-${lang}.png`) });
    expect(await violations(page)).toEqual([]);
    await refusal.getByRole('button', { name: t.accept }).click();
    await expect(refusal).toBeHidden();
    await page.getByLabel(w.street).fill('Calle Mayor 7');
    await page.getByRole('button', { name: w.continue }).click();
    // Straight to the contract: the steps after it were done already.
    await arrived(page, /\/docu-sign/);
    await expect(page.getByText(t.signAgain)).toBeVisible();
    await signContract(page, lang, who);

    // Back in the queue, waiting for a decision.
    await reviewer.goto(`/back-office/queue?lang=${lang}`);
    await expect(reviewer.getByRole('heading', { level: 1, name: STAFF_SIGN_IN_TEXT[lang].queue })).toBeVisible();
    await expect(reviewer.locator(`a[href="/back-office/applications/${id}"]`)).toBeVisible();
    expect(admin('show', id)).toContain('Calle Mayor 7');

    // The funnel of today counts this applicant from the sign-up to the signature.
    const administrator = await staffPage(browser, lang, ['administrator']);
    await administrator.getByRole('link', { name: t.funnel }).click();
    await expect(administrator.getByRole('heading', { level: 1, name: t.funnelTitle })).toBeVisible();
    const table = administrator.getByRole('table').first();
    await expect(table).toBeVisible();
    const signRow = table.getByRole('row').filter({ hasText: lang === 'es' ? 'Firma tu contrato' : 'Sign your contract' });
    await expect(signRow).toBeVisible();
    expect(Number((await signRow.getByRole('cell').first().innerText()).replace(/\D/g, ''))).toBeGreaterThanOrEqual(1);
    expect(await violations(administrator)).toEqual([]);
    await administrator.getByRole('link', { name: t.templates }).click();
    await expect(administrator.getByRole('heading', { level: 1, name: t.templates })).toBeVisible();
    expect(await violations(administrator)).toEqual([]);
  });
}
