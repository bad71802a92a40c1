// The bank's back office in the browser, in both languages: a new member of staff, made by `npm run admin -- staff
// add` on a terminal, chooses their own password, enrols an authenticator app and signs in; a reviewer reads a signed
// application, notes and rejects it with a template; a high-risk one takes two approvers. The other members are made
// in the test through the identity service's admin calls, with the server's own admin credentials (derived from its
// secret); the app's codes come from `otpauth`. Applicants sign through the real wizard, and their photos are
// approved with `npm run admin`.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { violations } from './axe';
import { enrolApp, enterPassword, freshCode, signedInStaff, staffAddedOnTerminal, STAFF_SIGN_IN_TEXT } from './staff';
import {
  admin,
  applicationId,
  freelanceBusiness,
  freshApplicant,
  identityCheck,
  lastMessageId,
  password,
  personalInfo,
  phone,
  signContract,
  signUp,
  taxRegistration,
  tellUsMore,
  type Applicant,
  type Lang,
} from './wizard';

// axe is injected by the test, not served: the page's CSP (rightly) refuses foreign scripts.
test.use({ bypassCSP: true });

const TEXT = {
  en: {
    ...STAFF_SIGN_IN_TEXT.en,
    signOut: 'Sign out',
    signedOut: 'You have signed out.',
    application: 'Application',
    summary: 'Summary',
    answers: 'Answers',
    firstName: 'First name',
    documents: 'Documents',
    evidenceMatches: 'Matches the fingerprint',
    showSelfie: 'Show Selfie',
    documentNames: ['Back of the ID document', 'Front of the ID document', 'Modelo 036 or 037', 'Selfie'],
    risk: 'Risk',
    lowRisk: 'Level: Low',
    noReasons: 'No answer raises the risk.',
    highRisk: 'Level: High',
    pepReason: 'Politically exposed person',
    review: 'Review',
    status: 'Status',
    awaiting: 'Waiting for',
    secondApproval: 'Second approval',
    rejected: 'Rejected',
    approved: 'Approved',
    audit: 'Audit trail',
    note: 'Note for the other reviewers',
    addNote: 'Add the note',
    noteAdded: 'The note is added to the audit trail.',
    noteEntry: 'Note: ',
    template: 'Message to the applicant',
    templateTitle: 'Activity we do not serve',
    sent: 'Message sent to the applicant: ',
    preview: { en: 'What the applicant will read (English)', es: 'What the applicant will read (Spanish)' },
    reason: "The bank's reason",
    reject: 'Reject the application',
    rejectedDone: 'The application is rejected and the applicant has been told.',
    approve: 'Approve the application',
    firstLead: 'This application is high risk: your approval is the first of two. A second approver decides.',
    firstApproval: 'Your approval is recorded. The application is waiting for a second approver.',
    waitingSecond: 'Waiting for a second approver.',
    approvedFirstBy: 'Approved first by',
    secondApproverNeeded: 'You have already approved this high-risk application: a second approver has to decide.',
    approvedDone: 'The application is approved.',
    oneOfTwo: '1 of 2',
  },
  es: {
    ...STAFF_SIGN_IN_TEXT.es,
    signOut: 'Cerrar sesión',
    signedOut: 'Has cerrado la sesión.',
    application: 'Solicitud',
    summary: 'Resumen',
    answers: 'Respuestas',
    firstName: 'Nombre',
    documents: 'Documentos',
    evidenceMatches: 'Coincide con la huella',
    showSelfie: 'Ver Selfi',
    documentNames: ['Reverso del documento de identidad', 'Anverso del documento de identidad', 'Modelo 036 o 037', 'Selfi'],
    risk: 'Riesgo',
    lowRisk: 'Nivel: Bajo',
    noReasons: 'Ninguna respuesta aumenta el riesgo.',
    highRisk: 'Nivel: Alto',
    pepReason: 'Persona con responsabilidad pública',
    review: 'Revisión',
    status: 'Estado',
    awaiting: 'Pendiente de',
    secondApproval: 'Segunda aprobación',
    rejected: 'Rechazada',
    approved: 'Aprobada',
    audit: 'Registro de auditoría',
    note: 'Nota para el resto de revisores',
    addNote: 'Añadir la nota',
    noteAdded: 'La nota se ha añadido al registro de auditoría.',
    noteEntry: 'Nota: ',
    template: 'Mensaje para el solicitante',
    templateTitle: 'Actividad que no atendemos',
    sent: 'Mensaje enviado al solicitante: ',
    preview: { en: 'Lo que leerá el solicitante (Inglés)', es: 'Lo que leerá el solicitante (Español)' },
    reason: 'Motivo del banco',
    reject: 'Rechazar la solicitud',
    rejectedDone: 'La solicitud está rechazada y se ha avisado al solicitante.',
    approve: 'Aprobar la solicitud',
    firstLead: 'Esta solicitud es de riesgo alto: tu aprobación es la primera de dos. Decide una segunda persona.',
    firstApproval: 'Tu aprobación está registrada. La solicitud espera una segunda aprobación.',
    waitingSecond: 'Pendiente de una segunda aprobación.',
    approvedFirstBy: 'Primera aprobación de',
    secondApproverNeeded: 'Ya has aprobado esta solicitud de riesgo alto: tiene que decidir una segunda persona.',
    approvedDone: 'La solicitud está aprobada.',
    oneOfTwo: '1 de 2',
  },
} as const;

/** The words of the rejection template "activity-not-served" (migration 0030), as the applicant reads them. */
const ACTIVITY_NOT_SERVED = {
  en: 'For now Divilo does not offer accounts for the activity of your business.',
  es: 'Por ahora Divilo no ofrece cuentas para la actividad de tu negocio.',
} as const;

interface SignedApplicant extends Applicant {
  id: string;
  firstName: string;
}

/**
 * A freelancer who signs through the wizard, with a first name no other test gives (to be found in the queue) and
 * `pep` answering that they hold a public office; their photos are approved, so the application waits for a decision.
 */
async function signedApplicant(page: Page, lang: Lang, { pep = false } = {}): Promise<SignedApplicant> {
  const who = freshApplicant();
  const firstName = `Lucía ${who.dni.slice(0, 8).replace(/\d/g, (digit) => 'bcdfghjlmn'[Number(digit)])}`;
  await signUp(page, lang, who);
  await personalInfo(page, lang, undefined, firstName);
  await phone(page, lang, who);
  await freelanceBusiness(page, lang);
  await taxRegistration(page, lang);
  await tellUsMore(page, lang, { pep });
  await password(page, lang, who);
  await identityCheck(page, lang);
  const id = await applicationId(page);
  await signContract(page, lang, who);
  expect(admin('--reviewer', 'Marta Ruiz', 'identity', id, 'approve')).toContain('approved');
  return { ...who, id, firstName };
}

/** The applicant's row of the queue, narrowed by its filters (label, value: each kept in the address). */
async function findInQueue(page: Page, applicant: SignedApplicant, filters: [label: string, value: string][]) {
  for (const [label, value] of filters) {
    await page.getByLabel(label, { exact: true }).selectOption(value);
    await expect(page).toHaveURL(new RegExp(`=${value}(&|$)`));
  }
  const row = page.getByRole('row', { name: applicant.firstName });
  await expect(row).toBeVisible();
  return row;
}

async function openFromQueue(page: Page, lang: Lang, applicant: SignedApplicant, filters: [label: string, value: string][]) {
  await (await findInQueue(page, applicant, filters)).getByRole('link', { name: applicant.firstName }).click();
  await onApplication(page, lang, applicant.id);
}

/** The application's page has rendered: its address, its title and its summary. */
async function onApplication(page: Page, lang: Lang, id: string) {
  await expect(page).toHaveURL(new RegExp(`/back-office/applications/${id}$`));
  await expect(page.getByRole('heading', { level: 1, name: TEXT[lang].application })).toBeVisible();
  await expect(page.getByRole('region', { name: TEXT[lang].summary, exact: true })).toContainText(id);
}

/** The value of the term `term` in a list of facts (the page's `<dl>`s), inside `within`. */
function fact(within: ReturnType<Page['locator']>, term: string) {
  return within.locator('.dv-bo-facts__row').filter({ has: within.page().locator('dt').getByText(term, { exact: true }) }).locator('dd');
}

for (const lang of ['en', 'es'] as const) {
  test(`a new member of staff chooses a password, enrols the authenticator app, signs in, sees the queue, signs out and in again (${lang})`, async ({ page }) => {
    const t = TEXT[lang];
    // Made by `npm run admin -- staff add` on a terminal, as the bank does: a temporary password.
    const { username, temporary } = staffAddedOnTerminal(['reviewer']);
    const own = `Own-Staff-Password-${lang}-2026`;

    await page.goto(`/back-office?lang=${lang}`);
    await enterPassword(page, lang, username, temporary);
    // Their own password, by the staff's rule: too short is said on the field.
    await expect(page.getByRole('heading', { name: t.newPasswordTitle })).toBeFocused();
    expect(await violations(page), 'the new password step').toEqual([]);
    await page.getByLabel(t.newPassword, { exact: true }).fill('Short-Pass1');
    await page.getByLabel(t.repeatPassword).fill('Short-Pass1');
    await page.getByRole('button', { name: t.continue }).click();
    await expect(page.getByLabel(t.newPassword, { exact: true })).toBeFocused();
    await expect(page.getByText(t.staffRule)).toBeVisible();
    await page.getByLabel(t.newPassword, { exact: true }).fill(own);
    await page.getByLabel(t.repeatPassword).fill(own);
    await page.getByRole('button', { name: t.continue }).click();
    const { secret, enrolled } = await enrolApp(page, lang);

    await expect(page).toHaveURL(/\/back-office\/queue$/);
    await expect(page.getByRole('heading', { level: 1, name: t.queue })).toBeVisible();
    await expect(page.getByText(username)).toBeVisible();
    // Nothing of the sign-in is left in the browser's storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }));
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(own);
    expect(stored).not.toContain('CognitoIdentityServiceProvider');

    await page.getByRole('button', { name: t.signOut }).click();
    await expect(page).toHaveURL(/\/back-office$/);
    await expect(page.getByRole('status')).toHaveText(t.signedOut);

    await enterPassword(page, lang, username, own);
    await page.getByLabel(t.code).fill(freshCode(secret, enrolled));
    await page.getByRole('button', { name: t.continue }).click();
    await expect(page.getByRole('heading', { level: 1, name: t.queue })).toBeVisible();
  });
}

for (const lang of ['en', 'es'] as const) {
  // The reviewer reads in the other language: the page gives the applicant's answers the reviewer's words, the
  // e-mail gives the applicant the template's in theirs.
  const staffLang: Lang = lang === 'en' ? 'es' : 'en';
  const t = TEXT[staffLang];

  test(`a reviewer finds a signed application in the queue, reads it, adds a note and rejects it with a template (applicant ${lang}, reviewer ${staffLang})`, async ({ page, browser }) => {
    const applicant = await signedApplicant(page, lang);

    const bank = await browser.newContext();
    try {
      const reviewer = await bank.newPage();
      const username = await signedInStaff(reviewer, ['reviewer'], staffLang);
      const row = await findInQueue(reviewer, applicant, [
        [t.awaiting, 'decision'],
        [t.risk, 'low'],
      ]);
      expect(await violations(reviewer), 'the queue').toEqual([]);
      await row.getByRole('link', { name: applicant.firstName }).click();
      await onApplication(reviewer, staffLang, applicant.id);

      // The answers under the wizard's labels, in the reviewer's language.
      const answers = reviewer.getByRole('region', { name: t.answers, exact: true });
      await expect(fact(answers, t.firstName)).toHaveText(applicant.firstName);
      await expect(reviewer.getByRole('region', { name: t.risk, exact: true })).toContainText(t.lowRisk);
      await expect(reviewer.getByRole('region', { name: t.risk, exact: true })).toContainText(t.noReasons);
      const documents = reviewer.getByRole('region', { name: t.documents, exact: true });
      // The tax form and the three photos, each named in the reviewer's language.
      await expect(documents.getByRole('heading', { level: 3 })).toHaveText(t.documentNames);
      await expect(documents.getByText(t.evidenceMatches).first()).toBeVisible();
      expect(await violations(reviewer), 'the application').toEqual([]);
      // A photo is fetched with the session when asked for, and shown in the page.
      await documents.getByRole('button', { name: t.showSelfie }).click();
      await expect(documents.getByRole('img', { name: t.documentNames[3] })).toBeVisible();

      const note = `Activity checked against the census ${applicant.dni}`;
      await reviewer.getByLabel(t.note).fill(note);
      await reviewer.getByRole('button', { name: t.addNote }).click();
      await expect(reviewer.getByRole('status').filter({ hasText: t.noteAdded })).toBeVisible();
      // In the trail, with who wrote it.
      const noted = reviewer.getByRole('region', { name: t.audit, exact: true }).getByRole('row').filter({ hasText: note });
      await expect(noted).toContainText(`${t.noteEntry}${note}`);
      await expect(noted).toContainText(username);

      // The template's words previewed as the applicant will read them, in the applicant's language.
      await reviewer.getByLabel(t.template).selectOption({ label: t.templateTitle });
      const preview = reviewer.getByRole('figure');
      await expect(preview).toContainText(t.preview[lang]);
      await expect(preview).toContainText(ACTIVITY_NOT_SERVED[lang]);
      const reason = `Programming services are outside the appetite ${applicant.dni}`;
      await reviewer.getByLabel(t.reason).fill(reason);
      const before = await lastMessageId(reviewer);
      await reviewer.getByRole('button', { name: t.reject }).click();
      await expect(reviewer.getByRole('status').filter({ hasText: t.rejectedDone })).toBeVisible();
      const review = reviewer.getByRole('complementary', { name: t.review });
      await expect(fact(review, t.status)).toHaveText(t.rejected);
      // The message sent, by its template's title, and its words as the applicant read them.
      await expect(review.getByText(`${t.sent}${t.templateTitle}`)).toBeVisible();
      await expect(review.getByRole('blockquote')).toContainText(ACTIVITY_NOT_SERVED[lang]);
      await expect(reviewer.getByRole('button', { name: t.reject })).toHaveCount(0);
      expect(await violations(reviewer), 'the application, rejected').toEqual([]);

      // The applicant's e-mail: the template's words in their language, never the bank's reason.
      let text = '';
      await expect
        .poll(async () => {
          const messages = (await (await reviewer.request.get('/dev/outbox.json')).json()) as { id: number; recipient: string; text: string }[];
          text = messages.find((message) => message.recipient === applicant.email && message.id > before)?.text ?? '';
          return text;
        })
        .toContain(ACTIVITY_NOT_SERVED[lang]);
      expect(text).not.toContain(reason);
      expect(text).not.toContain(ACTIVITY_NOT_SERVED[staffLang]);
    } finally {
      await bank.close();
    }
  });
}

for (const lang of ['en', 'es'] as const) {
  const t = TEXT[lang];

  test(`a high-risk application takes two approvers: the first waits for a second and cannot approve again (${lang})`, async ({ page, browser }) => {
    const applicant = await signedApplicant(page, lang, { pep: true });
    const filters: [string, string][] = [[t.risk, 'high']];

    const first = await browser.newContext();
    const second = await browser.newContext();
    try {
      const approverA = await first.newPage();
      const usernameA = await signedInStaff(approverA, ['approver'], lang);
      await openFromQueue(approverA, lang, applicant, [...filters, [t.awaiting, 'decision']]);
      const risk = approverA.getByRole('region', { name: t.risk, exact: true });
      await expect(risk).toContainText(t.highRisk);
      await expect(risk).toContainText(t.pepReason);
      // The same member has the application open in a second tab, which will not know of the approval.
      const staleTab = await first.newPage();
      await staleTab.goto(`/back-office/applications/${applicant.id}`);
      await onApplication(staleTab, lang, applicant.id);
      await expect(staleTab.getByRole('button', { name: t.approve })).toBeVisible();

      await expect(approverA.getByText(t.firstLead)).toBeVisible();
      await approverA.getByRole('button', { name: t.approve }).click();
      await expect(approverA.getByRole('status').filter({ hasText: t.firstApproval })).toBeVisible();
      const reviewA = approverA.getByRole('complementary', { name: t.review });
      await expect(reviewA).toContainText(t.waitingSecond);
      await expect(reviewA).toContainText(`${t.approvedFirstBy} ${usernameA}`);
      await expect(fact(reviewA, t.awaiting)).toHaveText(t.secondApproval);
      // Approving again is not offered…
      await expect(approverA.getByRole('button', { name: t.approve })).toHaveCount(0);
      // …and from the tab that still offers it, refused in words, the refusal focused.
      await staleTab.getByRole('button', { name: t.approve }).click();
      await expect(staleTab.getByRole('alert')).toHaveText(t.secondApproverNeeded);
      await expect(staleTab.getByRole('alert')).toBeFocused();

      const approverB = await second.newPage();
      await signedInStaff(approverB, ['approver'], lang);
      const row = await findInQueue(approverB, applicant, [...filters, [t.awaiting, 'second-approval']]);
      await expect(row).toContainText(t.oneOfTwo);
      await row.getByRole('link', { name: applicant.firstName }).click();
      await onApplication(approverB, lang, applicant.id);
      const reviewB = approverB.getByRole('complementary', { name: t.review });
      await expect(reviewB).toContainText(`${t.approvedFirstBy} ${usernameA}`);
      await approverB.getByRole('button', { name: t.approve }).click();
      await expect(approverB.getByRole('status').filter({ hasText: t.approvedDone })).toBeVisible();
      await expect(fact(reviewB, t.status)).toHaveText(t.approved);
      await expect(approverB.getByRole('button', { name: t.approve })).toHaveCount(0);
    } finally {
      await first.close();
      await second.close();
    }
  });
}

test("a form on another origin of the same site cannot approve with the approver's session", async ({ page, browser }) => {
  const applicant = await signedApplicant(page, 'en');
  const staff = await browser.newContext();
  // A page on another port of the same host: the same site, so SameSite=Strict lets the staff cookie go with its form.
  const forger = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<form method="post" enctype="text/plain" action="${new URL(`/staff-api/applications/${applicant.id}/approve`, page.url()).href}">` +
        '<input name="a" value="b"></form><script>document.forms[0].submit()</script>',
    );
  });
  await new Promise<void>((resolve) => forger.listen(0, '127.0.0.1', resolve));
  try {
    const approver = await staff.newPage();
    await signedInStaff(approver, ['approver'], 'en');
    const answer = approver.waitForResponse((response) => response.url().endsWith('/approve'));
    await approver.goto(`http://127.0.0.1:${(forger.address() as AddressInfo).port}/`);
    expect((await answer).status()).toBe(403);
    await expect(approver.locator('body')).toContainText('CROSS_ORIGIN_REFUSED');

    // The application still waits for a decision, which the back office's own button can take.
    await approver.goto(`/back-office/applications/${applicant.id}`);
    await onApplication(approver, 'en', applicant.id);
    const review = approver.getByRole('complementary', { name: TEXT.en.review });
    await expect(fact(review, TEXT.en.status)).not.toHaveText(TEXT.en.approved);
    await approver.getByRole('button', { name: TEXT.en.approve }).click();
    await expect(fact(review, TEXT.en.status)).toHaveText(TEXT.en.approved);
  } finally {
    forger.close();
    await staff.close();
  }
});
