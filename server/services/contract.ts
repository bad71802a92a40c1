// The business account contract made from the applicant's answers (the PDF /docu-sign shows and the applicant
// signs), and the signature record appended to it once the SMS code confirms the signature. The words are the
// bank's template (contractTemplates.ts); the answers go only into labelled fields, never into its text. The
// same answers, template and `now` give the same bytes, so the contract's SHA-256 names exactly what the
// applicant saw.
import { PDFDocument } from 'pdf-lib';
import type { ContractBlock } from '../../src/onboarding/contractBlocks';
import { LEGAL_FORM_ABBREVIATIONS, type LegalForm } from '../../src/validation/onboarding';
import type { Application } from '../repositories/applicationRepository';
import { fill, type ContractLanguage, type ContractTemplate } from './contractTemplates';
import { CONTRACT_TEXTS, type ContractTexts } from './contractTexts';
import { textWriter, type TextStyle } from './pdfLayout';

type ContractApplication = Pick<Application, 'personType' | 'answers'>;

type Answers = Record<string, unknown>;
type LabelId = keyof ContractTexts['labels'];

/** A line of a party's description: its label and how the answers give its value (empty: left out). */
interface PartyField {
  label: LabelId;
  value: (answers: Answers, texts: ContractTexts, language: ContractLanguage) => string;
}

const answer = (answers: Answers, name: string) => (typeof answers[name] === 'string' ? (answers[name] as string).trim() : '');
const countryName = (code: string, language: ContractLanguage) => (code ? (new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code) : '');

/** The address a step saved under `prefix` (selfEmployedFiscal…): street, more, postal code and city, country. */
const addressOf =
  (prefix: string): PartyField['value'] =>
  (answers, _texts, language) =>
    [
      answer(answers, `${prefix}Address`),
      answer(answers, `${prefix}AdditionalAddress`),
      [answer(answers, `${prefix}PostalCode`), answer(answers, `${prefix}City`)].filter(Boolean).join(' '),
      countryName(answer(answers, `${prefix}Country`), language),
    ]
      .filter(Boolean)
      .join(', ');

/** The applicant's names and surnames, as the personal-info step saved them. */
export const applicantName = (answers: Answers) => ['firstName', 'firstSurname', 'secondSurname'].map((name) => answer(answers, name)).filter(Boolean).join(' ');

/** The applicant as a person: the one who signs, in every application. */
const APPLICANT: PartyField[] = [
  { label: 'name', value: applicantName },
  {
    label: 'idDocument',
    value: (answers, texts, language) => {
      const type = texts.idTypes[answer(answers, 'idType')] ?? '';
      const country = answer(answers, 'idType') === 'passport' ? countryName(answer(answers, 'passportExpeditionCountry'), language) : '';
      return [type, answer(answers, 'id'), country && `(${country})`].filter(Boolean).join(' ');
    },
  },
  { label: 'email', value: (answers) => answer(answers, 'email') },
  { label: 'phone', value: (answers) => answer(answers, 'telephoneNumber') },
];

/**
 * The account holder of each path: a freelancer holds the account in their own name; a company holds it,
 * represented by the applicant. A path's new fields join its list here.
 */
const HOLDERS: Record<'freelance' | 'company', { fields: PartyField[]; representedByApplicant: boolean }> = {
  freelance: {
    fields: [...APPLICANT, { label: 'nif', value: (answers) => answer(answers, 'selfEmployedId') }, { label: 'fiscalAddress', value: addressOf('selfEmployedFiscal') }],
    representedByApplicant: false,
  },
  company: {
    fields: [
      { label: 'companyName', value: (answers) => answer(answers, 'socialDenomination') },
      { label: 'cif', value: (answers) => answer(answers, 'cif') },
      { label: 'legalForm', value: (answers) => LEGAL_FORM_ABBREVIATIONS[answer(answers, 'legalForm') as LegalForm] ?? answer(answers, 'legalForm') },
      { label: 'registeredAddress', value: addressOf('company') },
    ],
    representedByApplicant: true,
  },
};

/** A moment as the documents show it: the date and time in Madrid, where the bank is. */
export function contractDateTime(date: Date, language: ContractLanguage): string {
  return `${DATE_TIME_FORMATS[language].format(date)} (${CONTRACT_TEXTS[language].madridTime})`;
}

/** Made once: a formatter takes longer to make than a contract's other dates take to format. */
const DATE_TIME_FORMATS = {
  es: new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'medium', timeZone: 'Europe/Madrid' }),
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'medium', timeZone: 'Europe/Madrid' }),
};

const dateAnswer = (answers: Answers, name: string, language: ContractLanguage, otherwise: string) => {
  const value = Date.parse(answer(answers, name));
  return Number.isNaN(value) ? otherwise : contractDateTime(new Date(value), language);
};

/** Document information every reader shows; the dates are `now`, so the bytes depend on the input alone. */
function describe(doc: PDFDocument, template: ContractTemplate, now: Date) {
  doc.setTitle(template.title, { showInWindowTitleBar: true });
  doc.setAuthor('Divilo');
  doc.setSubject(template.notice ?? template.title);
  doc.setKeywords([`version ${template.version}`]);
  doc.setCreator('Divilo onboarding');
  doc.setProducer('Divilo');
  doc.setLanguage(template.language === 'es' ? 'es-ES' : 'en-GB');
  doc.setCreationDate(now);
  doc.setModificationDate(now);
}

/**
 * The contract of `application` in the template's language, dated `now`, as blocks in reading order: what the
 * PDF prints and what /docu-sign shows (a screen reader and a phone without a PDF viewer read the words the
 * applicant signs). The template's text makes the title, notice, headings and paragraphs; every answer is a
 * field's value.
 */
export function contractContent(application: ContractApplication, { template, now }: { template: ContractTemplate; now: Date }): ContractBlock[] {
  const language = template.language;
  const texts = CONTRACT_TEXTS[language];
  const answers = application.answers;
  const blocks: ContractBlock[] = [];
  const block = (kind: Exclude<ContractBlock['kind'], 'field'>, text: string) => blocks.push({ kind, text });
  const field = (label: string, value: string) => blocks.push({ kind: 'field', label, value });

  block('title', template.title);
  if (template.notice) block('notice', template.notice);
  block('paragraph', fill(template.placeAndDate, { date: contractDateTime(now, language) }));

  block('heading', template.partiesHeading);
  block('paragraph', template.provider);
  block('paragraph', template.holder);
  const holder = HOLDERS[application.personType ?? 'freelance'];
  const fields = (list: PartyField[]) => {
    for (const each of list) {
      const value = each.value(answers, texts, language);
      if (value) field(texts.labels[each.label], value);
    }
  };
  fields(holder.fields);
  if (holder.representedByApplicant) {
    block('subheading', template.representedBy);
    fields(APPLICANT);
  }

  block('heading', template.productHeading);
  const product = answer(answers, 'diviloProduct');
  field(texts.labels.product, texts.products[product as keyof ContractTexts['products']] ?? product);

  const privacy = dateAnswer(answers, 'privacyPolicyDate', language, texts.consentPending);
  const precontractual = dateAnswer(answers, 'precontractualinformationDate', language, texts.consentPending);
  for (const section of template.sections) {
    block('heading', section.heading);
    for (const paragraph of section.paragraphs) block('paragraph', fill(paragraph, { privacyPolicyDate: privacy, precontractualInformationDate: precontractual }));
  }

  block('heading', template.consentsHeading);
  field(texts.consents.privacy, privacy);
  field(texts.consents.precontractual, precontractual);
  field(texts.consents.electronicIdentification, dateAnswer(answers, 'electronicIdentificationDate', language, texts.consentPending));
  block('paragraph', template.signatureNote);
  return blocks;
}

/** How each kind of block prints. */
const PDF_STYLES: Record<Exclude<ContractBlock['kind'], 'field'>, TextStyle> = {
  title: { size: 18, bold: true },
  notice: { bold: true, before: 6 },
  paragraph: { before: 6 },
  heading: { size: 13, bold: true, before: 16 },
  subheading: { bold: true, before: 8 },
};

/** The contract of `application` as an A4 PDF in the template's language, dated `now`. */
export async function renderContract(application: ContractApplication, { template, now }: { template: ContractTemplate; now: Date }): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  describe(doc, template, now);
  const writer = textWriter(doc, template.pageHeader);
  for (const block of contractContent(application, { template, now })) {
    if (block.kind === 'field') writer.field(block.label, block.value);
    else writer.text(block.text, PDF_STYLES[block.kind]);
  }
  await writer.finish((page, pages) => fill(template.pageFooter, { page, pages, version: template.version }));
  return doc.save({ useObjectStreams: false });
}

/** The longest value taken from a request header (the browser's name, the request id) for the record. */
const HEADER_VALUE_MAX = 200;

/**
 * A value the caller sent in a header, as the signature record prints it: visible ASCII only (anything else,
 * a control character or a byte of another encoding, becomes "?"), at most 200 characters ("…" after). It is
 * the caller's word, printed in a field of its own, never as the record's text.
 */
export function headerValueForRecord(value: string | undefined): string {
  const visible = (value ?? '').replace(/[^\x20-\x7e]/g, '?').trim();
  return visible.length > HEADER_VALUE_MAX ? `${visible.slice(0, HEADER_VALUE_MAX - 1)}…` : visible;
}

interface SignatureRecord {
  language: ContractLanguage;
  /** The contract's title and the version of its template's text. */
  contractTitle: string;
  templateVersion: string;
  who: string;
  idDocument: string;
  signedAt: Date;
  ip: string;
  /** The User-Agent header as sent: printed cleaned and shortened (headerValueForRecord). */
  userAgent?: string;
  sha256OfContract: string;
  /** How the signature was confirmed, e.g. "SMS code to +34******333 confirmed at …" (never the code). */
  codeConfirmation: string;
  /** Printed cleaned and shortened, as the User-Agent. */
  requestId: string;
  /** The documents the applicant provided, frozen at signature: each kind with the SHA-256 of its evidence copy. */
  evidence?: { kind: string; sha256: string }[];
}

/**
 * The contract with its signature record as a last page, and the contract's exact bytes attached, so the
 * SHA-256 the record names can be checked against the document itself.
 */
export async function appendAuditPage(pdfBytes: Uint8Array, record: SignatureRecord): Promise<Uint8Array> {
  const texts = CONTRACT_TEXTS[record.language];
  const doc = await PDFDocument.load(pdfBytes, { updateMetadata: false });
  await doc.attach(pdfBytes, record.language === 'es' ? 'contrato.pdf' : 'contract.pdf', {
    mimeType: 'application/pdf',
    description: record.contractTitle,
    creationDate: record.signedAt,
    modificationDate: record.signedAt,
  });
  const writer = textWriter(doc, `${texts.record.title} - ${record.contractTitle}`);
  writer.text(texts.record.title, { size: 16, bold: true });
  writer.text(texts.record.intro, { before: 8 });
  writer.field(texts.record.who, record.who);
  writer.field(texts.record.idDocument, record.idDocument);
  writer.field(texts.record.signedAt, `${contractDateTime(record.signedAt, record.language)} - ${record.signedAt.toISOString()}`);
  writer.field(texts.record.ip, record.ip);
  const userAgent = headerValueForRecord(record.userAgent);
  if (userAgent) writer.field(texts.record.userAgent, userAgent);
  writer.field(texts.record.contractVersion, record.templateVersion);
  writer.field(texts.record.sha256, record.sha256OfContract);
  writer.text(texts.record.sha256Note, { grey: true, size: 8, before: 2 });
  writer.field(texts.record.code, record.codeConfirmation);
  writer.field(texts.record.requestId, headerValueForRecord(record.requestId));
  if (record.evidence?.length) {
    writer.text(texts.record.evidence, { bold: true, before: 12 });
    for (const { kind, sha256 } of record.evidence) writer.field(texts.record.evidenceKinds[kind] ?? kind, sha256);
    writer.text(texts.record.evidenceNote, { grey: true, size: 8, before: 2 });
  }
  writer.text(texts.record.seal, { before: 12 });
  await writer.finish(() => '');
  doc.setModificationDate(record.signedAt);
  return doc.save({ useObjectStreams: false });
}
