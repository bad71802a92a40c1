// The freelancer's journey through the onboarding wizard, step by step, as the browser tests drive it: each
// helper fills one screen as an applicant would (labels, pickers, uploads) and ends on the next route.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { documentPhoto, realSelfie } from '../__tests__/server/images';
import { E2E_SERVER_SECRET } from './secrets';

export type Lang = 'es' | 'en';

const TEXT = {
  en: {
    email: 'E-mail', id: 'DNI or NIE number', privacy: /privacy policy/, precontract: /pre-contract information/, sendCode: 'Send me the code',
    emailCode: 'Code from the e-mail', confirm: 'Confirm', continue: 'Continue', firstName: 'First name', firstSurname: 'First surname',
    birthCountry: 'Country of birth', residence: 'Country where you live', birthDate: 'Date of birth', spain: 'Spain', mobile: 'Mobile number', smsCode: 'SMS code',
    freelance: 'Self-employed (autónomo)', start: 'I have everything, start', activity: 'Activity (IAE epigraph)', startDate: 'Date you started the activity',
    street: 'Street and number', postalCode: 'Postal code', city: 'Town or city', regime: 'Direct assessment, simplified (estimación directa simplificada)',
    received: /Document received/, product: 'A business account', funds: 'Where will the money in the account come from?', assets: 'Where do your assets come from?',
    notPep: "No, I don't", pep: 'a public office of importance', isPep: 'Yes, I do', password: 'Password', repeat: 'Repeat the password', notPdf: /must be a PDF/,
  },
  es: {
    email: 'Correo electrónico', id: 'Número de DNI o NIE', privacy: /política de privacidad/, precontract: /información precontractual/, sendCode: 'Enviarme el código',
    emailCode: 'Código del correo', confirm: 'Confirmar', continue: 'Continuar', firstName: 'Nombre', firstSurname: 'Primer apellido',
    birthCountry: 'País de nacimiento', residence: 'País de residencia', birthDate: 'Fecha de nacimiento', spain: 'España', mobile: 'Número de móvil', smsCode: 'Código SMS',
    freelance: 'Autónomo', start: 'Lo tengo todo, empezar', activity: 'Actividad (epígrafe del IAE)', startDate: 'Fecha de inicio de la actividad',
    street: 'Calle y número', postalCode: 'Código postal', city: 'Municipio', regime: 'Estimación directa simplificada',
    received: /Documento recibido/, product: 'Una cuenta de negocio', funds: '¿De dónde vendrá el dinero de la cuenta?', assets: '¿De dónde procede tu patrimonio?',
    notPep: 'No', pep: 'un cargo público de responsabilidad', isPep: 'Sí', password: 'Contraseña', repeat: 'Repite la contraseña', notPdf: /debe ser un documento PDF/,
  },
} as const;

export const wizardText = (lang: Lang) => TEXT[lang];

/** A valid DNI no other test uses: eight digits and their check letter. */
export function freshDni(): string {
  const number = Math.floor(Math.random() * 90_000_000) + 1_000_000;
  return `${String(number).padStart(8, '0')}${'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23]}`;
}

export interface Applicant {
  email: string;
  dni: string;
  phone: string;
  password: string;
}

export function freshApplicant(): Applicant {
  const dni = freshDni();
  return { email: `${dni.toLowerCase()}@example.com`, dni, phone: `6${dni.slice(0, 8)}`, password: 'Nueva-Clave-2026' };
}

/** The newest code the embedded outbox sent to `recipient` (an e-mail or a phone in E.164) after message `after`. */
export async function codeSentTo(page: Page, recipient: string, after = 0): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const messages = (await (await page.request.get('/dev/outbox.json')).json()) as { id: number; recipient: string; text: string }[];
      const message = messages.find((m) => m.recipient === recipient && m.id > after);
      code = message ? /\b(\d{6})\b/.exec(message.text)?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  return code!;
}

/** Chooses an option of a searchable picker by typing part of it. */
export async function pick(page: Page, label: string, typed: string, option: string | RegExp = typed) {
  await page.getByRole('combobox', { name: label }).fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

/**
 * What a test wants done on every page the journey reaches (axe's checks), once its title is there. Set by the
 * test, reset after it.
 */
export const onEveryPage: { check?: (page: Page) => Promise<void> } = {};

/**
 * The journey is on the page `url` matches: its own title has rendered, and the test's per-page check ran. The
 * router changes the URL a render before the screen (the new screen is drawn in a transition), so for a moment the
 * address is new and the page still shows the previous screen: the title checked is this step's own
 * (`<step>-title`), never "a heading".
 */
export async function arrived(page: Page, url: RegExp) {
  await expect(page).toHaveURL(url);
  const step = new URL(page.url()).pathname.slice(1);
  await expect(page.locator(`h1[id="${step}-title"]`)).toBeVisible();
  await onEveryPage.check?.(page);
}

const continueOn = async (page: Page, lang: Lang, next: RegExp) => {
  await page.getByRole('button', { name: TEXT[lang].continue }).click();
  await arrived(page, next);
};

/** /signUp filled in as the applicant would, not sent yet. */
export async function fillSignUp(page: Page, lang: Lang, who: Applicant, query = '') {
  const t = TEXT[lang];
  await page.goto(`/signUp?lang=${lang}${query}`);
  await page.getByLabel(t.email).fill(who.email);
  await page.getByLabel(t.id).fill(who.dni);
  await page.getByLabel(t.privacy).check();
  await page.getByLabel(t.precontract).check();
}

/** The filled-in /signUp sent, and the e-mail's code confirmed on /reg-code. */
export async function sendSignUp(page: Page, lang: Lang, who: Applicant) {
  const t = TEXT[lang];
  await page.getByRole('button', { name: t.sendCode }).click();
  await arrived(page, /\/reg-code/);
  await page.getByLabel(t.emailCode).fill(await codeSentTo(page, who.email));
  await page.getByRole('button', { name: t.confirm }).click();
}

export async function signUp(page: Page, lang: Lang, who: Applicant, query = '') {
  await fillSignUp(page, lang, who, query);
  await sendSignUp(page, lang, who);
}

export async function personalInfo(page: Page, lang: Lang, residence?: { typed: string; option: string }, firstName = 'Lucía') {
  const t = TEXT[lang];
  await arrived(page, /\/personal-info/);
  await page.getByLabel(t.firstName, { exact: true }).fill(firstName);
  await page.getByLabel(t.firstSurname).fill('Martín');
  if (residence) await pick(page, t.residence, residence.typed, residence.option);
  await pick(page, t.birthCountry, t.spain);
  await page.getByLabel(t.birthDate).fill('14/03/1990');
  await page.getByRole('button', { name: t.continue }).click();
}

export async function phone(page: Page, lang: Lang, who: Applicant) {
  const t = TEXT[lang];
  await arrived(page, /\/contact-phone/);
  await page.getByLabel(t.mobile).fill(who.phone);
  await page.getByRole('button', { name: t.sendCode }).click();
  await arrived(page, /\/confirm-telephone/);
  await page.getByLabel(t.smsCode).fill(await codeSentTo(page, `+34${who.phone}`));
  await page.getByRole('button', { name: t.confirm }).click();
  await arrived(page, /\/register-as/);
}

export async function freelanceBusiness(page: Page, lang: Lang) {
  const t = TEXT[lang];
  await page.getByLabel(t.freelance).check();
  await continueOn(page, lang, /\/requirements-freelance/);
  await page.getByRole('button', { name: t.start }).click();
  await arrived(page, /\/your-activity/);
  await pick(page, t.activity, 'programadores', /Programadores/);
  await page.getByLabel(t.startDate).fill('01/02/2020');
  await continueOn(page, lang, /\/fiscal-address/);
  await page.getByLabel(t.street).fill('Calle Mayor 1');
  await page.getByLabel(t.postalCode).fill('28013');
  await page.getByLabel(t.city).fill('Madrid');
  await continueOn(page, lang, /\/tax-registration-income/);
}

/** A real one-page PDF, as a tax form downloaded from the tax agency would be (small). */
export async function samplePdf(name = 'modelo-036.pdf') {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([595, 842]).drawText('Modelo 036 - Declaracion censal de alta (sample)', { x: 50, y: 780, size: 14, font });
  return { name, mimeType: 'application/pdf', buffer: Buffer.from(await document.save()) };
}

export async function taxRegistration(page: Page, lang: Lang) {
  const t = TEXT[lang];
  await page.getByLabel(t.regime).check();
  await page.locator('input[type=file]').setInputFiles(await samplePdf());
  await expect(page.getByText(t.received)).toBeVisible();
  await continueOn(page, lang, /\/tell-us-more-freelance/);
}

/** The last questions; `pep` answers that the applicant holds a public office (which makes them high risk). */
export async function tellUsMore(page: Page, lang: Lang, { pep = false } = {}) {
  const t = TEXT[lang];
  await page.getByLabel(t.product).check();
  await page.getByLabel(t.funds).selectOption('business-activity');
  await page.getByLabel(t.assets).selectOption('savings');
  await page
    .getByRole('group', { name: t.pep })
    .getByLabel(pep ? t.isPep : t.notPep, { exact: true })
    .check();
  await continueOn(page, lang, /\/divilo-password/);
}

export async function password(page: Page, lang: Lang, who: Applicant) {
  const t = TEXT[lang];
  await page.getByLabel(t.password, { exact: true }).fill(who.password);
  await page.getByLabel(t.repeat).fill(who.password);
  await continueOn(page, lang, /\/check-identity/);
}

/** The browser tests' server's configuration, for `npm run admin` to run on. */
function adminEnv(): NodeJS.ProcessEnv {
  const port = process.env.E2E_PORT ?? '8181';
  const { dataDir, databaseUrl } = JSON.parse(readFileSync(path.join(tmpdir(), `divilo-e2e-server-${port}.json`), 'utf8')) as { dataDir: string; databaseUrl: string };
  return { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl, SERVER_SECRET: E2E_SERVER_SECRET, PORT: port, PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' };
}

/** `npm run admin …` against the browser tests' server, as the bank's staff run it. */
export function admin(...args: string[]): string {
  return execFileSync(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], { encoding: 'utf8', env: adminEnv() });
}

/**
 * The same on a terminal, as an operator types it: a pseudo-terminal of util-linux's `script`, so that what is
 * shown only on a terminal (a temporary password) is shown. Its output, with the terminal's line ends.
 */
export function adminOnTerminal(...args: string[]): string {
  const quoted = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
  const command = [process.execPath, '--import', 'tsx', 'scripts/admin.ts', ...args].map(quoted).join(' ');
  return execFileSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: adminEnv() });
}

/**
 * Both sides of the ID document and a selfie, as a phone would send them: JPEG photos of a card on a desk and of
 * a real face (the server decodes and measures them). Then the wait: the photos go to the bank's review, the
 * page says so, and (unless `toContract` is false) the applicant goes on to the contract.
 */
export async function identityCheck(page: Page, lang: Lang, { toContract = true } = {}) {
  await arrived(page, /\/check-identity$|\/check-identity\?/);
  const inputs = page.locator('input[type=file]');
  const photos = [
    { name: 'front.jpg', buffer: await documentPhoto('jpeg') },
    { name: 'back.jpg', buffer: await documentPhoto('jpeg', { portrait: false, seed: 3 }) },
    { name: 'selfie.jpg', buffer: await realSelfie() },
  ];
  for (const [index, photo] of photos.entries()) {
    await inputs.nth(index).setInputFiles({ ...photo, mimeType: 'image/jpeg' });
    await expect(page.getByText(lang === 'es' ? 'Foto recibida' : 'Photo received', { exact: false })).toHaveCount(index + 1);
  }
  await page.getByRole('button', { name: lang === 'es' ? 'Enviar las fotos' : 'Send the photos' }).click();
  if (!toContract) return;
  await arrived(page, /\/check-identity-waiting/);
  await expect(page.getByRole('status')).toContainText(lang === 'es' ? 'Una persona de Divilo las revisará' : 'A person at Divilo will check them');
  await page.getByRole('button', { name: lang === 'es' ? 'Continuar con el contrato' : 'Go on to the contract' }).click();
}

/**
 * /docu-sign: the contract's words are shown, with the PDF one link away (a named download for a browser that
 * shows no PDF itself), the consent given, and the SMS code signs it.
 */
export async function signContract(page: Page, lang: Lang, who: Applicant, { pdfViewer = true } = {}) {
  await arrived(page, /\/docu-sign/);
  const contract = page.getByRole('region', { name: lang === 'es' ? 'Tu contrato de Divilo' : 'Your Divilo contract' });
  await expect(contract.getByRole('heading', { level: 2 })).toHaveText(lang === 'es' ? 'Contrato de cuenta de negocio Divilo' : 'Divilo business account contract');
  await expect(contract).toContainText(who.email);
  const pdfLink = pdfViewer ? (lang === 'es' ? 'Abrir el contrato en PDF' : 'Open the contract as a PDF') : lang === 'es' ? 'Descargar el contrato (PDF)' : 'Download the contract (PDF)';
  await expect(page.getByRole('link', { name: pdfLink })).toBeVisible();
  // The version of the text the signature will record, under the contract in the page's language.
  await expect(page.getByText(lang === 'es' ? 'Versión del texto del contrato: sample-2026-11' : 'Version of the contract text: sample-2026-11')).toBeVisible();
  const before = await lastMessageId(page);
  await page.getByLabel(lang === 'es' ? /Acepto identificarme/ : /I agree to be identified/).check();
  await page.getByRole('button', { name: lang === 'es' ? 'Enviarme el código para firmar' : 'Send me the code to sign' }).click();
  await page.getByLabel(TEXT[lang].smsCode).fill(await codeSentTo(page, `+34${who.phone}`, before));
  await page.getByRole('button', { name: lang === 'es' ? 'Firmar el contrato' : 'Sign the contract' }).click();
  await arrived(page, /\/welcome$/);
}

export async function lastMessageId(page: Page): Promise<number> {
  const messages = (await (await page.request.get('/dev/outbox.json')).json()) as { id: number }[];
  return messages[0]?.id ?? 0;
}

/** The application this browser's onboarding token names (read before the journey ends and forgets it). */
export async function applicationId(page: Page): Promise<string> {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('JWT') ?? 'null') as string | null);
  const answer = await page.request.get('/api/onboarding-management-private/application', { headers: { authorization: `Bearer ${token}` } });
  return ((await answer.json()) as { id: string }).id;
}

const COMPANY_TEXT = {
  en: {
    company: 'A company', cif: 'Company tax ID (CIF)', denomination: 'Company name', legalForm: 'Legal form', cnae: 'Main activity (CNAE-2025)',
    founded: 'Date of incorporation', deeds: 'Deeds of incorporation', articles: 'Articles of association (estatutos)', employees: 'Number of employees',
    turnover: 'Yearly turnover, in euros', addOwner: 'Add a beneficial owner', addMe: 'Add myself', role: 'A beneficial owner (more than 25%)', direct: 'Directly',
    percentage: 'Share of capital or votes (%)', pepNo: 'No, they are not', save: 'Save this person', firstName: 'First name', firstSurname: 'First surname',
    document: 'DNI or NIE', birthDate: 'Date of birth', indirectNo: 'No, all directly',
    onlySpain: 'No, only in Spain', companyAssets: "Where do the company's assets come from?",
    kind: 'What does the company mainly do?', subsidiariesNone: 'No, none', total: 'The shares add up to more than 100%',
  },
  es: {
    company: 'Una empresa', cif: 'NIF de la sociedad (CIF)', denomination: 'Denominación social', legalForm: 'Forma jurídica', cnae: 'Actividad principal (CNAE-2025)',
    founded: 'Fecha de constitución', deeds: 'Escritura de constitución', articles: 'Estatutos sociales', employees: 'Número de empleados',
    turnover: 'Facturación anual, en euros', addOwner: 'Añadir un titular real', addMe: 'Añadirme a mí', role: 'Titular real (más del 25 %)', direct: 'Directamente',
    percentage: 'Participación en el capital o los votos (%)', pepNo: 'No, no lo es', save: 'Guardar esta persona', firstName: 'Nombre', firstSurname: 'Primer apellido',
    document: 'DNI o NIE', birthDate: 'Fecha de nacimiento', indirectNo: 'No, todo directamente',
    onlySpain: 'No, solo en España', companyAssets: '¿De dónde procede el patrimonio de la sociedad?',
    kind: '¿A qué se dedica principalmente la sociedad?', subsidiariesNone: 'No, ninguna', total: 'Los porcentajes suman más del 100 %',
  },
} as const;

export const companyText = (lang: Lang) => COMPANY_TEXT[lang];

/** From /register-as to /about-company with the CIF given: the company's tax ID decides where it goes. */
export async function companyStart(page: Page, lang: Lang, cif: string) {
  const t = { ...TEXT[lang], ...COMPANY_TEXT[lang] };
  await page.getByLabel(t.company).check();
  await continueOn(page, lang, /\/requirements-company/);
  await page.getByRole('button', { name: t.start }).click();
  await arrived(page, /\/about-company$|\/about-company\?/);
  await page.getByLabel(t.cif).fill(cif);
  await page.getByRole('button', { name: t.continue }).click();
}

/** The company's details, address, three PDFs and figures, up to /royal-owners. */
export async function companyDetails(page: Page, lang: Lang) {
  const t = { ...TEXT[lang], ...COMPANY_TEXT[lang] };
  await arrived(page, /\/about-company-info/);
  await page.getByLabel(t.denomination).fill('Martín Software S.L.');
  await page.getByLabel(t.legalForm).selectOption('SL');
  await pick(page, t.cnae, '62.10', /62\.10/);
  await page.getByLabel(t.founded).fill('15/06/2019');
  await continueOn(page, lang, /\/about-company-address/);
  await page.getByLabel(t.street).fill('Paseo de la Castellana 100');
  await page.getByLabel(t.postalCode).fill('28046');
  await page.getByLabel(t.city).fill('Madrid');
  await continueOn(page, lang, /\/articles-of-association/);
  const inputs = page.locator('input[type=file]');
  await inputs.nth(0).setInputFiles(await samplePdf('escritura.pdf'));
  await expect(page.getByText(t.received)).toHaveCount(1);
  await inputs.nth(1).setInputFiles(await samplePdf('estatutos.pdf'));
  await expect(page.getByText(t.received)).toHaveCount(2);
  await continueOn(page, lang, /\/corporate-tax/);
  await page.locator('input[type=file]').setInputFiles(await samplePdf('modelo-200.pdf'));
  await expect(page.getByText(t.received)).toBeVisible();
  await continueOn(page, lang, /\/about-company-numbers/);
  await page.getByLabel(t.employees).fill('12');
  await page.getByLabel(t.turnover).fill('850000');
  await continueOn(page, lang, /\/royal-owners/);
}

/** Adds a real owner with a direct share; `me` fills in the applicant from what they entered already. */
export async function addOwner(page: Page, lang: Lang, share: string, person?: { firstName: string; firstSurname: string; dni: string; birthDate: string }) {
  const t = { ...TEXT[lang], ...COMPANY_TEXT[lang] };
  if (person) {
    await page.getByRole('button', { name: t.addOwner }).click();
    await page.getByLabel(t.firstName, { exact: true }).fill(person.firstName);
    await page.getByLabel(t.firstSurname).fill(person.firstSurname);
    await page.getByLabel(t.document, { exact: true }).fill(person.dni);
    await page.getByLabel(t.birthDate).fill(person.birthDate);
  } else {
    await page.getByRole('button', { name: t.addMe }).click();
    await page.getByLabel(t.role).check();
  }
  await page.getByLabel(t.direct, { exact: true }).check();
  await page.getByLabel(t.percentage).fill(share);
  await page.getByLabel(t.pepNo, { exact: true }).check();
  await page.getByRole('button', { name: t.save }).click();
}

/** The company's questions of /tell-us-more-company, up to /divilo-password. */
export async function tellUsMoreCompany(page: Page, lang: Lang) {
  const t = { ...TEXT[lang], ...COMPANY_TEXT[lang] };
  await arrived(page, /\/tell-us-more-company/);
  await page.getByLabel(t.onlySpain).check();
  await page.getByLabel(t.kind).selectOption('services');
  await page.getByLabel(t.subsidiariesNone).check();
  await page.getByLabel(t.product).check();
  await page.getByLabel(t.funds).selectOption('business-activity');
  await page.getByLabel(t.companyAssets).selectOption('business-activity');
  await page.getByLabel(t.notPep, { exact: true }).check();
  await continueOn(page, lang, /\/divilo-password/);
}

/** A new freelancer from /signUp through the password step (where the identity check starts). */
export async function freelancerUpToIdentity(page: Page, lang: Lang) {
  const who = freshApplicant();
  await signUp(page, lang, who);
  await personalInfo(page, lang);
  await phone(page, lang, who);
  await freelanceBusiness(page, lang);
  await taxRegistration(page, lang);
  await tellUsMore(page, lang);
  await password(page, lang, who);
  return who;
}
