// The business account contract made from the applicant's answers (the PDF /docu-sign shows and the applicant
// signs), and the signature record appended to it once the SMS code confirms the signature. The same answers
// and the same `now` give the same bytes, so the contract's SHA-256 names exactly what the applicant saw.
import { PDFDocument } from 'pdf-lib';
import type { Application } from '../repositories/applicationRepository';
import { CONTRACT_TEXTS, type ContractTexts } from './contractTexts';
import { textWriter } from './pdfLayout';

export type ContractLanguage = 'es' | 'en';
export type ContractApplication = Pick<Application, 'personType' | 'answers'>;

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
      { label: 'legalForm', value: (answers) => answer(answers, 'legalForm') },
      { label: 'registeredAddress', value: addressOf('company') },
    ],
    representedByApplicant: true,
  },
};

/** A moment as the documents show it: the date and time in Madrid, where the bank is. */
export function contractDateTime(date: Date, language: ContractLanguage): string {
  const shown = new Intl.DateTimeFormat(language === 'es' ? 'es-ES' : 'en-GB', { dateStyle: 'long', timeStyle: 'medium', timeZone: 'Europe/Madrid' }).format(date);
  return `${shown} (${CONTRACT_TEXTS[language].madridTime})`;
}

const dateAnswer = (answers: Answers, name: string, language: ContractLanguage, otherwise: string) => {
  const value = Date.parse(answer(answers, name));
  return Number.isNaN(value) ? otherwise : contractDateTime(new Date(value), language);
};

/** Document information every reader shows; the dates are `now`, so the bytes depend on the input alone. */
function describe(doc: PDFDocument, title: string, language: ContractLanguage, now: Date) {
  doc.setTitle(title, { showInWindowTitleBar: true });
  doc.setAuthor('Divilo');
  doc.setSubject(CONTRACT_TEXTS[language].sampleNotice);
  doc.setCreator('Divilo onboarding');
  doc.setProducer('Divilo');
  doc.setLanguage(language === 'es' ? 'es-ES' : 'en-GB');
  doc.setCreationDate(now);
  doc.setModificationDate(now);
}

/** The contract of `application` as an A4 PDF in `language`, dated `now`. */
export async function renderContract(application: ContractApplication, { language, now }: { language: ContractLanguage; now: Date }): Promise<Uint8Array> {
  const texts = CONTRACT_TEXTS[language];
  const answers = application.answers;
  const doc = await PDFDocument.create({ updateMetadata: false });
  describe(doc, texts.title, language, now);
  const writer = await textWriter(doc, texts.sampleMark);

  writer.text(texts.title, { size: 18, bold: true });
  writer.text(texts.sampleNotice, { bold: true, before: 6 });
  writer.text(texts.placeAndDate(contractDateTime(now, language)), { before: 10 });

  writer.text(texts.partiesHeading, { size: 13, bold: true, before: 16 });
  writer.text(texts.provider, { before: 6 });
  writer.text(texts.holderHeading, { before: 8 });
  const holder = HOLDERS[application.personType ?? 'freelance'];
  const fields = (list: PartyField[]) => {
    for (const field of list) {
      const value = field.value(answers, texts, language);
      if (value) writer.field(texts.labels[field.label], value);
    }
  };
  fields(holder.fields);
  if (holder.representedByApplicant) {
    writer.text(texts.representedBy, { bold: true, before: 8 });
    fields(APPLICANT);
  }

  writer.text(texts.productHeading, { size: 13, bold: true, before: 16 });
  const product = answer(answers, 'diviloProduct');
  writer.text(texts.products[product as keyof ContractTexts['products']] ?? product, { before: 4 });

  const privacy = dateAnswer(answers, 'privacyPolicyDate', language, texts.consentPending);
  const precontractual = dateAnswer(answers, 'precontractualinformationDate', language, texts.consentPending);
  writer.text(texts.clausesHeading, { size: 13, bold: true, before: 16 });
  for (const clause of texts.clauses({ privacy, precontractual })) writer.text(clause, { before: 6 });

  writer.text(texts.consentsHeading, { size: 13, bold: true, before: 16 });
  writer.field(texts.consents.privacy, privacy);
  writer.field(texts.consents.precontractual, precontractual);
  writer.field(texts.consents.electronicIdentification, dateAnswer(answers, 'electronicIdentificationDate', language, texts.consentPending));
  writer.text(texts.signatureNote, { before: 10 });

  writer.footers(texts.pageFooter);
  return doc.save({ useObjectStreams: false });
}

export interface SignatureRecord {
  language: ContractLanguage;
  who: string;
  idDocument: string;
  signedAt: Date;
  ip: string;
  userAgent?: string;
  sha256OfContract: string;
  /** How the signature was confirmed, e.g. "SMS code to +34******333 confirmed at …" (never the code). */
  codeConfirmation: string;
  requestId: string;
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
    description: texts.title,
    creationDate: record.signedAt,
    modificationDate: record.signedAt,
  });
  const writer = await textWriter(doc, texts.record.footer);
  writer.text(texts.record.title, { size: 16, bold: true });
  writer.text(texts.record.intro, { before: 8 });
  writer.field(texts.record.who, record.who);
  writer.field(texts.record.idDocument, record.idDocument);
  writer.field(texts.record.signedAt, `${contractDateTime(record.signedAt, record.language)} - ${record.signedAt.toISOString()}`);
  writer.field(texts.record.ip, record.ip);
  if (record.userAgent) writer.field(texts.record.userAgent, record.userAgent.slice(0, 300));
  writer.field(texts.record.sha256, record.sha256OfContract);
  writer.text(texts.record.sha256Note, { grey: true, size: 8 });
  writer.field(texts.record.code, record.codeConfirmation);
  writer.field(texts.record.requestId, record.requestId);
  writer.text(texts.record.seal, { before: 12 });
  doc.setModificationDate(record.signedAt);
  return doc.save({ useObjectStreams: false });
}
