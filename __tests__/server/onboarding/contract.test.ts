// /docu-sign against the whole server on both databases: the contract from the answers, the consent, the SMS
// code under the login rules, and the signed contract kept once, sealed, with its signature record.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { appendAuditPage, contractContent, headerValueForRecord, renderContract } from '../../../server/services/contract';
import { loadContractTemplates } from '../../../server/services/contractTemplates';
import { afterNextCall, describeEachDialect } from '../helpers';
import { lastCode, startLoginServerOn } from '../login/loginServer';
import { attachments, fontsOf, padesSignature, pageTexts, poppler } from '../pdfInspection';
import { call, consentAndSign, freelancerAnswers, PHONE, readyToSign } from './signing';

/** The sample text, used when the bank configures none. */
const SAMPLE = loadContractTemplates();

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describeEachDialect('onboarding: the contract and its signature', (dialect) => {
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    server = await startLoginServerOn(dialect);
  });
  afterAll(() => server.close());

  const contractRows = (applicationId: string) => server.app.db.selectFrom('onboarding_contracts').selectAll().where('application_id', '=', applicationId).execute();
  const actions = async (applicationId: string) => (await server.app.auditLog.listBySubject(`application:${applicationId}`)).map((entry) => entry.action);

  it('shows the contract only once the earlier steps and the identity check are done', async () => {
    const { token } = await readyToSign(server, '00000040G', { identityCheck: false });
    for (const [method, path, body] of [
      ['GET', 'contract', undefined],
      ['GET', 'contract/text', undefined],
      ['POST', 'contract/consent', { electronicIdentification: true }],
      ['POST', 'contract/sign', { code: '123456' }],
    ] as const) {
      const refused = await call(server, token, method, path, body);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ code: 'STEP_OUT_OF_ORDER', currentStep: 'check-identity' });
    }
    const { id, token: waiting } = await readyToSign(server, '00000041M', { identityCheck: false });
    const current = (await server.app.applications.find(id))!;
    await server.app.applications.save(current, { completedSteps: [...current.completedSteps, 'check-identity'] }, new Date());
    expect((await call(server, waiting, 'GET', 'contract')).body).toMatchObject({ code: 'STEP_OUT_OF_ORDER', currentStep: 'check-identity-waiting' });
  });

  it("answers the contract as a PDF in the application's language, with the applicant's answers and the consents", async () => {
    const { token } = await readyToSign(server, '00000042Y');
    const shown = await call(server, token, 'GET', 'contract');
    expect(shown.status).toBe(200);
    expect(shown.type).toBe('application/pdf');
    const text = (await pageTexts(shown.bytes)).join('\n');
    for (const expected of ['Contrato de cuenta de negocio Divilo', 'MUESTRA', 'José Núñez García', 'DNI/NIE 00000042Y', '00000042y@example.com', PHONE, 'Calle Mayor 1, 28013 Madrid, España', 'Cuenta de negocio y tarjetas']) {
      expect(text).toContain(expected);
    }
    expect(text).toContain('27 de febrero de 2026');
    expect(text).toContain('pendiente: se registra al firmar');

    const { token: english } = await readyToSign(server, '00000043F', { language: 'en' });
    const englishText = (await pageTexts((await call(server, english, 'GET', 'contract')).bytes)).join('\n');
    expect(englishText).toContain('Divilo business account contract');
    expect(englishText).toContain('SAMPLE');
    expect(englishText).toContain('Business account and cards');
  });

  it('answers the same words as text blocks for the page, in reading order, and none once signed', async () => {
    const { token } = await readyToSign(server, '00000051M');
    const shown = await call(server, token, 'GET', 'contract/text');
    expect(shown.status).toBe(200);
    const { language, blocks } = shown.body as { language: string; blocks: { kind: string; text?: string; label?: string; value?: string }[] };
    expect(language).toBe('es');
    expect(blocks[0]).toEqual({ kind: 'title', text: 'Contrato de cuenta de negocio Divilo' });
    expect(blocks.filter((block) => block.kind === 'heading').length).toBeGreaterThanOrEqual(4);
    const fields = Object.fromEntries(blocks.filter((block) => block.kind === 'field').map((block) => [block.label, block.value]));
    expect(Object.values(fields)).toEqual(expect.arrayContaining(['DNI/NIE 00000051M', PHONE, 'Calle Mayor 1, 28013 Madrid, España']));
    // Every word of the blocks is in the PDF made from the same answers.
    const pdfText = (await pageTexts((await call(server, token, 'GET', 'contract')).bytes)).join(' ').replace(/\s+/g, ' ');
    for (const block of blocks) {
      for (const words of [block.text, block.label, block.value]) if (words) expect(pdfText).toContain(words.split(/\s+/).slice(0, 4).join(' '));
    }

    await consentAndSign(server, token);
    const after = await call(server, token, 'GET', 'contract/text');
    expect(after.status).toBe(409);
    expect(after.body).toMatchObject({ code: 'APPLICATION_CLOSED', currentStep: 'welcome' });
  });

  it('consent, a wrong code (attempts left), then the right code signs: the stored PDF is sealed over every byte and names the contract\'s SHA-256', async () => {
    const { id, token: before } = await readyToSign(server, '00000044P');
    let token = before;
    expect((await call(server, token, 'POST', 'contract/sign', { code: '123456' })).body).toMatchObject({ code: 'CONSENT_MISSING' });
    const unticked = await call(server, token, 'POST', 'contract/consent', { electronicIdentification: false });
    expect(unticked.status).toBe(400);
    expect(unticked.body).toMatchObject({ code: 'VALIDATION_FAILED', errors: [{ field: 'electronicIdentification' }] });

    // The server's clock, not the caller's, dates the consent and the signature.
    server.clock.offsetMs = 3 * 86_400_000;
    try {
      // Three days on, the applicant is back through the e-mail code: a new session.
      token = await server.app.onboardingTokens.issue(id);
      const consent = await call(server, token, 'POST', 'contract/consent', { electronicIdentification: true });
      expect(consent.status).toBe(200);
      expect(consent.body).toEqual({ maskedPhone: '********333', resendAfterSeconds: 5 });
      const consentedAt = Date.parse(String((await server.app.applications.find(id))!.answers.electronicIdentificationDate));
      expect(Math.abs(consentedAt - (Date.now() + server.clock.offsetMs))).toBeLessThan(60_000);
      const sms = await server.app.db.selectFrom('outbox').selectAll().where('recipient', '=', PHONE).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(sms).toMatchObject({ channel: 'sms', purpose: 'signature-code' });
      expect(sms.text).toContain('firmar tu contrato');
      const code = await lastCode(server.app, PHONE);

      const wrong = await call(server, token, 'POST', 'contract/sign', { code: code === '000000' ? '111111' : '000000' });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ code: 'CODE_INVALID', attemptsLeft: 4 });

      const signed = await call(server, token, 'POST', 'contract/sign', { code });
      expect(signed.status).toBe(200);
      expect(signed.body).toMatchObject({ next: 'welcome', application: { status: 'pending-review', currentStep: 'welcome' } });
      expect((signed.body.application as { completedSteps: string[] }).completedSteps).toContain('docu-sign');

      const [row] = await contractRows(id);
      const pdf = Buffer.from(row.pdf);
      expect(row.sha256).toBe(sha256(pdf));
      // Once signed, the onboarding token reads no contract (nor anything but the status).
      expect((await call(server, token, 'GET', 'contract')).body).toMatchObject({ code: 'APPLICATION_CLOSED', currentStep: 'welcome' });

      expect(padesSignature(pdf)).toMatchObject({ subFilter: 'ETSI.CAdES.detached', coversWholeFileButContents: true, messageDigestMatches: true, signatureVerifies: true, signer: 'Divilo Sandbox Seal' });
      // A changed byte outside the signature breaks it.
      const tampered = Buffer.from(pdf);
      tampered[200] ^= 0x01;
      expect(padesSignature(tampered).messageDigestMatches).toBe(false);

      const pages = await pageTexts(pdf);
      const record = pages[pages.length - 1];
      expect(record).toContain('Registro de firma electrónica');
      expect(record).toContain(row.contract_sha256);
      expect(record).toContain('Código SMS enviado al +34******333 y confirmado el');
      expect(record).toContain('127.0.0.1');
      expect(record).toContain('ContractTest/1.0');
      expect(record).not.toContain(code);
      const attached = (await attachments(pdf)).get('contrato.pdf')!;
      expect(sha256(attached)).toBe(row.contract_sha256);
      const contractText = (await pageTexts(attached)).join('\n');
      expect(contractText).toContain('José Núñez García');
      expect(contractText).not.toContain('pendiente: se registra al firmar');
      // Dated by the signature (PDF dates keep whole seconds).
      expect((await PDFDocument.load(attached, { updateMetadata: false })).getCreationDate()?.toISOString()).toBe(row.signed_at.replace(/\.\d{3}Z$/, '.000Z'));

      const audit = await server.app.auditLog.listBySubject(`application:${id}`);
      expect(audit.map((entry) => entry.action)).toEqual(expect.arrayContaining(['onboarding.contract_consent', 'onboarding.contract_code_sent', 'onboarding.contract_code_wrong', 'onboarding.contract_signed']));
      expect(audit.find((entry) => entry.action === 'onboarding.contract_signed')?.details).toEqual({ sha256: row.sha256, contractSha256: row.contract_sha256, templateVersion: 'sample-2026-11' });
      expect(row.template_version).toBe('sample-2026-11');
      expect(record).toContain('Versión del texto del contrato sample-2026-11');
      // What a reader makes of it: poppler finds the seal valid, and the names as typed.
      const read = poppler(pdf);
      expect(read.signatures).toMatch(/Signature Validation: Signature is Valid/);
      expect(read.text).toContain('José Núñez García');
      expect(JSON.stringify(audit)).not.toContain(code);
    } finally {
      server.clock.offsetMs = 0;
    }
  });

  it('a later sign is refused as closed and signs nothing again; the closed application takes no new consent', async () => {
    const { id, token } = await readyToSign(server, '00000045D');
    const first = await consentAndSign(server, token);
    expect(first.status).toBe(200);
    const [stored] = await contractRows(id);
    // The SPA goes to the page the answer names, as after its own sign.
    const again = await call(server, token, 'POST', 'contract/sign', { code: '000000' });
    expect(again).toMatchObject({ status: 409, body: { code: 'APPLICATION_CLOSED', currentStep: 'welcome' } });
    expect((await contractRows(id)).map((row) => row.sha256)).toEqual([stored.sha256]);
    expect((await actions(id)).filter((action) => action === 'onboarding.contract_signed')).toHaveLength(1);
    expect((await call(server, token, 'POST', 'contract/consent', { electronicIdentification: true })).body).toMatchObject({ code: 'APPLICATION_CLOSED' });
    // Whatever path a second contract took, the database keeps one per application.
    await expect(
      server.app.contracts.store({ applicationId: id, sha256: 'a'.repeat(64), contractSha256: 'b'.repeat(64), pdf: Buffer.from('%PDF-'), signedAt: new Date().toISOString(), requestId: 'another' }),
    ).rejects.toMatchObject({ message: expect.stringMatching(/UNIQUE constraint failed|duplicate key/) });
    expect((await contractRows(id)).map((row) => row.sha256)).toEqual([stored.sha256]);
  });

  it('two signs at once with the right code keep one contract', async () => {
    const { id, token } = await readyToSign(server, '00000046X');
    await call(server, token, 'POST', 'contract/consent', { electronicIdentification: true });
    const code = await lastCode(server.app, PHONE);
    const [first, second] = await Promise.all([1, 2].map(() => call(server, token, 'POST', 'contract/sign', { code })));
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.body).toEqual(first.body);
    expect(await contractRows(id)).toHaveLength(1);
    expect((await actions(id)).filter((action) => action === 'onboarding.contract_signed')).toHaveLength(1);
    expect((await server.app.applications.find(id))!.status).toBe('pending-review');
  });

  it('keeps every name as typed through the signature and the seal: Ł, ñ, ç, ß, Greek, Cyrillic and Han in the sealed PDF', async () => {
    const names = { firstName: 'Zoë Françoise Ελένη', firstSurname: 'Łukasiewicz-Muñoz Чайковский', secondSurname: '王小明', selfEmployedFiscalAddress: 'Straße der Pariser Kommune 12' };
    const { id, token } = await readyToSign(server, '00000054P', { answers: names });
    expect((await consentAndSign(server, token)).status).toBe(200);
    const [row] = await contractRows(id);
    const sealed = poppler(Buffer.from(row.pdf));
    for (const typed of Object.values(names)) expect({ typed, printed: sealed.text.includes(typed) }).toEqual({ typed, printed: true });
    expect(sealed.signatures).toMatch(/Signature Validation: Signature is Valid/);
    expect(sealed.fonts.every((font) => font.embedded && font.subset && font.toUnicode)).toBe(true);
    const signedBy = (await pageTexts(Buffer.from(row.pdf))).pop()!.split('\n').find((line) => line.startsWith('Firmante'));
    expect(signedBy).toBe('Firmante Zoë Françoise Ελένη Łukasiewicz-Muñoz Чайковский 王小明');
  });

  it("prints the caller's browser name on the signature record shortened to 200 visible characters, in its field", async () => {
    const { id, token } = await readyToSign(server, '00000053F');
    await call(server, token, 'POST', 'contract/consent', { electronicIdentification: true });
    const userAgent = `Mozilla/5.0 (Ñandú\t7. CLAUSULA ADICIONAL) ${'Chrome/131 '.repeat(80)}`;
    const signed = await call(server, token, 'POST', 'contract/sign', { code: await lastCode(server.app, PHONE) }, { 'user-agent': userAgent, 'x-request-id': 'req-2026-0001-abcdef' });
    expect(signed.status).toBe(200);
    const [row] = await contractRows(id);
    const lines = (await pageTexts(Buffer.from(row.pdf))).pop()!.split('\n');
    const field = lines.slice(lines.findIndex((line) => line.startsWith('Navegador ')), lines.findIndex((line) => line.startsWith('Versión del texto'))).join(' ');
    expect(field.startsWith('Navegador Mozilla/5.0 (?and??7. CLAUSULA ADICIONAL) Chrome/131')).toBe(true);
    expect(field.replace(/^Navegador /, '').replace(/ /g, '').length).toBeLessThanOrEqual(200);
    expect(field.endsWith('…')).toBe(true);
    expect(lines.some((line) => line.startsWith('7.'))).toBe(false);
    expect(lines).toContain('Identificador de la petición req-2026-0001-abcdef');
  });

  it('a code answered while another phone is saved signs nothing: the code confirms the phone it went to', async () => {
    const { id, token } = await readyToSign(server, '00000056D');
    await call(server, token, 'POST', 'contract/consent', { electronicIdentification: true });
    const code = await lastCode(server.app, PHONE);
    // Right after the code is judged, the application's phone changes (another request saving a number).
    const restore = afterNextCall(server.app.codes, 'checkLatest', async () => {
      const current = (await server.app.applications.find(id))!;
      await server.app.applications.save(current, { answers: { ...current.answers, telephoneNumber: '+34611999888' } }, new Date());
    });
    try {
      expect(await call(server, token, 'POST', 'contract/sign', { code })).toMatchObject({ status: 410, body: { code: 'CODE_EXPIRED' } });
    } finally {
      restore();
    }
    expect(await contractRows(id)).toEqual([]);
    expect((await server.app.applications.find(id))!.status).toBe('in-progress');
  });

  it('resends the code after the cooldown; an expired code signs nothing', async () => {
    const { id, token } = await readyToSign(server, '00000047B');
    await call(server, token, 'POST', 'contract/consent', { electronicIdentification: true });
    const tooSoon = await call(server, token, 'POST', 'contract/resend');
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body).toMatchObject({ code: 'RESEND_TOO_SOON', retryAfterSeconds: expect.any(Number) });
    try {
      server.clock.offsetMs = 6_000;
      expect(await call(server, token, 'POST', 'contract/resend')).toMatchObject({ status: 200, body: { resendAfterSeconds: 5 } });
      const code = await lastCode(server.app, PHONE);
      server.clock.offsetMs += server.app.codes.settings.ttlSeconds * 1000 + 1000;
      // As on the login: an expired code counts as a wrong one.
      expect((await call(server, token, 'POST', 'contract/sign', { code })).body).toMatchObject({ code: 'CODE_INVALID', attemptsLeft: 4 });
      expect(await contractRows(id)).toHaveLength(0);
      // A new consent call sends a new code (the consent's first date stays) and that one signs.
      const consentedAt = (await server.app.applications.find(id))!.answers.electronicIdentificationDate;
      expect((await consentAndSign(server, token)).status).toBe(200);
      expect((await server.app.applications.find(id))!.answers.electronicIdentificationDate).toBe(consentedAt);
    } finally {
      server.clock.offsetMs = 0;
    }
  });
});

describeEachDialect("onboarding: the bank's contract template", (dialect) => {
  /** The bank's own words: no sample mark, a version of its own, a clause that names a consent date. */
  const BANK = (language: 'es' | 'en') => ({
    ...Object.fromEntries(Object.entries(SAMPLE[language]).filter(([key]) => !['language', 'notice'].includes(key))),
    version: `2026-04-${language}`,
    title: language === 'es' ? 'Contrato marco Divilo Negocios' : 'Divilo Business framework contract',
    pageHeader: 'Divilo Negocios',
    pageFooter: language === 'es' ? 'Contrato marco {version} - página {page} de {pages}' : 'Framework contract {version} - page {page} of {pages}',
    sections: [{ heading: language === 'es' ? 'Condiciones' : 'Terms', paragraphs: [language === 'es' ? 'Primera. Privacidad aceptada el {privacyPolicyDate}.' : 'One. Privacy accepted on {privacyPolicyDate}.'] }],
  });
  let server: Awaited<ReturnType<typeof startLoginServerOn>>;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'divilo-bank-templates-'));
    for (const language of ['es', 'en'] as const) writeFileSync(path.join(dir, `${language}.json`), JSON.stringify(BANK(language)));
    server = await startLoginServerOn(dialect, { CONTRACT_TEMPLATES_DIR: dir });
  });
  afterAll(() => server.close());

  it('makes the contract of the bank\'s words, shows them on the page, and records their version with the signature', async () => {
    const { id, token } = await readyToSign(server, '00000052Y');
    const page = (await call(server, token, 'GET', 'contract/text')).body as { version: string; blocks: { kind: string; text?: string }[] };
    expect(page.version).toBe('2026-04-es');
    expect(page.blocks[0]).toEqual({ kind: 'title', text: 'Contrato marco Divilo Negocios' });
    expect(page.blocks.some((block) => block.kind === 'notice')).toBe(false);
    expect(page.blocks).toContainEqual({ kind: 'paragraph', text: expect.stringMatching(/^Primera\. Privacidad aceptada el 27 de febrero de 2026 a las 10:00:00 \(hora de Madrid\)\.$/) });

    expect((await consentAndSign(server, token)).status).toBe(200);
    const [row] = await server.app.db.selectFrom('onboarding_contracts').selectAll().where('application_id', '=', id).execute();
    expect(row.template_version).toBe('2026-04-es');
    expect(await server.app.contracts.find(id)).toMatchObject({ templateVersion: '2026-04-es' });
    const signedEntry = (await server.app.auditLog.listBySubject(`application:${id}`)).find((entry) => entry.action === 'onboarding.contract_signed');
    expect(signedEntry?.details).toMatchObject({ templateVersion: '2026-04-es' });

    const pages = await pageTexts(Buffer.from(row.pdf));
    const all = pages.join('\n');
    expect(all).not.toMatch(/MUESTRA|SAMPLE/);
    expect(pages[0]).toContain('Contrato marco 2026-04-es - página 1 de');
    expect(pages[pages.length - 1]).toContain('Versión del texto del contrato 2026-04-es');
    expect(padesSignature(Buffer.from(row.pdf)).signatureVerifies).toBe(true);
  });
});

describe('the contract document', () => {
  const application = { personType: 'freelance' as const, answers: freelancerAnswers('00000048N', 'ana@example.com') };
  const now = new Date('2026-03-02T10:30:00.000Z');

  it('is the same bytes for the same answers and time, and dated by that time', async () => {
    const first = await renderContract(application, { template: SAMPLE.es, now });
    expect(sha256(await renderContract(application, { template: SAMPLE.es, now }))).toBe(sha256(first));
    expect(sha256(await renderContract(application, { template: SAMPLE.es, now: new Date(now.getTime() + 1000) }))).not.toBe(sha256(first));
    const doc = await PDFDocument.load(first, { updateMetadata: false });
    expect(doc.getTitle()).toBe('Contrato de cuenta de negocio Divilo');
    expect(doc.getCreationDate()?.toISOString()).toBe(now.toISOString());
    expect(doc.getPage(0).getSize()).toEqual({ width: 595.28, height: 841.89 });
  });

  /** Names in every script the name fields accept, as an applicant types them. */
  const NAMES = { firstName: 'Zoë', firstSurname: 'Łukasiewicz O’Neill', secondSurname: '王小明' };
  const EVERY_SCRIPT = ['Ελένη Παπαδοπούλου', 'Пётр Чайковский', 'Straße', 'Muñoz', 'Françoise', 'Gel·labert', 'Nguyễn', '佐々木'];

  it('prints every name exactly as typed, in every script the fields accept, in embedded subset fonts only', async () => {
    const named = { ...application, answers: { ...application.answers, ...NAMES } };
    const pdf = await renderContract(named, { template: SAMPLE.en, now });
    expect((await pageTexts(pdf)).join('\n')).toContain('Zoë Łukasiewicz O’Neill 王小明');
    const read = poppler(pdf);
    expect(read.text).toContain('Zoë Łukasiewicz O’Neill 王小明');
    // Every font is embedded, as a subset, with its ToUnicode map; no standard font is left for a reader to substitute.
    expect(read.fonts.length).toBeGreaterThanOrEqual(3);
    expect(read.fonts.filter((font) => !font.embedded || !font.subset || !font.toUnicode)).toEqual([]);
    expect((await fontsOf(pdf)).every((font) => font.embedded && /^[A-Z]{6}\+Noto/.test(font.name))).toBe(true);

    for (const name of EVERY_SCRIPT) {
      const text = poppler(await renderContract({ ...application, answers: { ...application.answers, firstName: name, firstSurname: 'Núñez', secondSurname: '' } }, { template: SAMPLE.es, now })).text;
      expect({ name, printed: text.includes(`${name} Núñez`) }).toEqual({ name, printed: true });
    }
    // Without Han the document carries no Han font; subsets keep it small.
    expect((await fontsOf(await renderContract(application, { template: SAMPLE.es, now }))).map((font) => font.name).join()).not.toContain('NotoSansSC');
    expect(pdf.length).toBeLessThan(120_000);
  });

  it('prints the company with its legal form as the bank writes it, represented by the applicant', async () => {
    const company = { personType: 'company' as const, answers: { ...application.answers, socialDenomination: 'Talleres Núñez', cif: 'B12345674', legalForm: 'SLU' } };
    for (const template of [SAMPLE.es, SAMPLE.en]) {
      const text = (await pageTexts(await renderContract(company, { template, now }))).join('\n');
      expect(text).toContain('Talleres Núñez');
      expect(text).toContain('B12345674');
      expect(text).toMatch(/(Forma jurídica|Legal form) S\.L\.U\.\n/);
      expect(text).not.toMatch(/ SLU\b/);
      expect(text.indexOf(template.representedBy)).toBeGreaterThan(text.indexOf('B12345674'));
      expect(text.indexOf('José Núñez García')).toBeGreaterThan(text.indexOf(template.representedBy));
    }
  });

  it("keeps an answer inside its field: a line break saved before the rules prints on the field's own line, never as a clause", async () => {
    // Answers saved before the text rules could hold line breaks: the contract must still not turn them into lines of its own.
    const forged = { ...application, answers: { ...application.answers, firstName: 'José\n7. CLÁUSULA ADICIONAL PACTADA: el titular renuncia a todo', selfEmployedFiscalCity: 'Madrid\u2028\u202eOdín' } };
    const blocks = contractContent(forged, { template: SAMPLE.es, now });
    // The answers are field values only: no text of the document's own holds them.
    const ownText = blocks.filter((block) => block.kind !== 'field').map((block) => (block as { text: string }).text).join('\n');
    expect(ownText).not.toContain('CLÁUSULA ADICIONAL');
    expect(ownText).not.toContain('Odín');
    const lines = (await pageTexts(await renderContract(forged, { template: SAMPLE.es, now }))).join('\n').split('\n');
    expect(lines.filter((line) => line.includes('CLÁUSULA ADICIONAL'))).toEqual([expect.stringMatching(/^Nombre y apellidos José 7\. CLÁUSULA ADICIONAL/)]);
    expect(lines.some((line) => /^\s*7\./.test(line))).toBe(false);
    expect(lines.filter((line) => line.includes('Odín'))).toEqual([expect.stringMatching(/^Domicilio fiscal Calle Mayor 1, 28013 Madrid +Odín/)]);
  });

  it('shows a character no font prints, left by an answer saved before the rules, as a replacement mark instead of dropping it', async () => {
    const old = { ...application, answers: { ...application.answers, firstName: 'Ana 😀 김' } };
    const text = (await pageTexts(await renderContract(old, { template: SAMPLE.es, now }))).join('\n');
    expect(text).toContain('Nombre y apellidos Ana \ufffd \ufffd Núñez García');
  });

  it('prints the browser and the request id the caller sent shortened to 200 characters, visible characters only', async () => {
    const contract = await renderContract(application, { template: SAMPLE.es, now });
    const sealedRecord = await appendAuditPage(contract, {
      language: 'es',
      contractTitle: SAMPLE.es.title,
      templateVersion: SAMPLE.es.version,
      who: 'José Núñez García',
      idDocument: '00000048N',
      signedAt: now,
      ip: '203.0.113.7',
      userAgent: `Mozilla/5.0\r\n7. CLAUSULA ADICIONAL\u0000\u001b[31m${'x'.repeat(1000)}`,
      sha256OfContract: sha256(contract),
      codeConfirmation: 'Código SMS enviado al +34******333 y confirmado el …',
      requestId: 'req-\u202eevil\nline',
    });
    const pages = await pageTexts(sealedRecord);
    const record = pages[pages.length - 1];
    // The browser's field, its value wrapped inside the box: what it holds, whitespace aside.
    const lines = record.split('\n');
    const field = lines.slice(lines.findIndex((line) => line.startsWith('Navegador ')), lines.findIndex((line) => line.startsWith('Versión del texto'))).join(' ').slice('Navegador '.length);
    const printed = field.replace(/\s/g, '');
    expect(printed.startsWith('Mozilla/5.0??7.CLAUSULAADICIONAL??[31mxxx')).toBe(true);
    expect(printed.endsWith('x…')).toBe(true);
    expect([...printed].every((char) => char === '…' || (char >= '!' && char <= '~'))).toBe(true);
    expect(printed).toBe(headerValueForRecord(`Mozilla/5.0\r\n7. CLAUSULA ADICIONAL\u0000\u001b[31m${'x'.repeat(1000)}`).replace(/\s/g, ''));
    expect(lines.some((line) => line.startsWith('7.'))).toBe(false);
    expect(record).toContain('Identificador de la petición req-?evil?line');
    expect(record).toContain(`Versión del texto del contrato ${SAMPLE.es.version}`);
    expect(record).toContain(sha256(contract));
    expect(headerValueForRecord('a'.repeat(200))).toHaveLength(200);
    expect(headerValueForRecord('a'.repeat(201))).toBe(`${'a'.repeat(199)}…`);
  });
});
