// What the bank answers a person who asks for their data (GDPR art. 15): a JSON of everything held about them, in
// their language, with their files beside it. What goes in is listed in EXPORTED and nowhere else: the bank's own
// assessment (internal notes, a rejection's reason, risk and its reasons, the face detector's flags, who reviewed)
// stays out, as telling a person the bank suspects them is forbidden (Ley 10/2010, art. 24).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FIELD_LABELS } from '../../src/onboarding/fieldLabels';
import { flowAnswersOf, journey } from '../../src/onboarding/flow';
import { isAnswersStep } from '../../src/onboarding/stepSchemas';
import { canonicalIdDocument } from '../../src/validation';
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';
import type { AuditLogRepository, AuditRecord } from '../repositories/auditLogRepository';
import type { ContractRepository } from '../repositories/contractRepository';
import type { OnboardingDocument } from '../repositories/onboardingDocumentRepository';
import type { DocumentService } from './documents';
import { identityCheckOf } from './identityCheck';
import { applicationAudit, reviewStateOf } from './reviews';

type Language = Application['language'];
type Bilingual = Record<Language, string>;

/**
 * Everything an export may hold, in one place. Answers: the fields a screen asked the applicant (FIELD_LABELS), so
 * what the server adds to the answers (the review's record, the sign-in user, the identity check's flags) never
 * goes. Activity: the applicant's own doings, each with only the details named here.
 */
export const EXPORTED = {
  application: ['id', 'status', 'language', 'createdAt', 'updatedAt'],
  applicant: ['email', 'idDocument', 'idType'],
  identityCheck: ['status', 'startedAt', 'decidedAt'],
  /** What the bank told the applicant: a rejection's words (a template's, never the reason) and its requests for more. */
  review: { rejection: ['text'], moreInfo: ['steps', 'text', 'at'] },
  activity: {
    'onboarding.registered': [],
    'onboarding.email_code_sent': [],
    'onboarding.application_created': [],
    'onboarding.application_resumed': [],
    'onboarding.step_saved': ['step'],
    'onboarding.phone_code_sent': ['resend'],
    'onboarding.phone_confirmed': [],
    'onboarding.password_set': [],
    'onboarding.document_uploaded': ['kind', 'size'],
    'onboarding.identity_check_started': [],
    'onboarding.contract_consent': [],
    'onboarding.contract_code_sent': ['resend'],
    'onboarding.contract_signed': ['sha256'],
  } as Record<string, string[]>,
  /** The bank's decisions, by when they were taken only (their audit entries' details are the bank's). */
  decisions: { 'onboarding.review_approved': 'approved', 'onboarding.review_rejected': 'rejected' } as Record<string, 'approved' | 'rejected'>,
} as const;

/** The words of the export's own labels, in both languages (field labels come from locales/{es,en}.json). */
const WORDS = {
  notice: {
    es: 'Copia de los datos personales que Divilo trata sobre usted (art. 15 RGPD), con los documentos y contratos en los archivos que la acompañan. Para cualquier duda, responda a la comunicación con la que la recibió.',
    en: 'A copy of the personal data Divilo processes about you (GDPR art. 15), with the documents and contracts in the files beside it. For any question, reply to the message it came with.',
  },
  status: {
    'in-progress': { es: 'En curso', en: 'In progress' },
    'not-allowed': { es: 'No admitida', en: 'Not allowed' },
    'pending-review': { es: 'Pendiente de revisión por el banco', en: 'Waiting for the bank' },
    approved: { es: 'Aprobada', en: 'Approved' },
    rejected: { es: 'Rechazada', en: 'Rejected' },
    expired: { es: 'Caducada', en: 'Expired' },
  },
  identityCheck: {
    pending: { es: 'En curso', en: 'In progress' },
    'needs-review': { es: 'En revisión', en: 'Being reviewed' },
    approved: { es: 'Verificada', en: 'Verified' },
    rejected: { es: 'No verificada', en: 'Not verified' },
  },
  activity: {
    'onboarding.registered': { es: 'Registro', en: 'Signed up' },
    'onboarding.email_code_sent': { es: 'Código enviado por correo electrónico', en: 'Code sent by e-mail' },
    'onboarding.application_created': { es: 'Solicitud abierta', en: 'Application opened' },
    'onboarding.application_resumed': { es: 'Solicitud retomada', en: 'Application resumed' },
    'onboarding.step_saved': { es: 'Paso guardado', en: 'Step saved' },
    'onboarding.phone_code_sent': { es: 'Código enviado por SMS', en: 'Code sent by SMS' },
    'onboarding.phone_confirmed': { es: 'Teléfono confirmado', en: 'Phone confirmed' },
    'onboarding.password_set': { es: 'Contraseña elegida', en: 'Password chosen' },
    'onboarding.document_uploaded': { es: 'Documento subido', en: 'Document uploaded' },
    'onboarding.identity_check_started': { es: 'Verificación de identidad iniciada', en: 'Identity check started' },
    'onboarding.contract_consent': { es: 'Consentimiento de firma electrónica', en: 'Consent to sign electronically' },
    'onboarding.contract_code_sent': { es: 'Código de firma enviado', en: 'Signing code sent' },
    'onboarding.contract_signed': { es: 'Contrato firmado', en: 'Contract signed' },
  } as Record<string, Bilingual>,
  contract: { es: 'Contrato firmado', en: 'Signed contract' },
  contractSuperseded: { es: 'Contrato firmado antes de una solicitud de más información', en: 'Contract signed before a request for more information' },
} as const;

export interface PersonalDataDependencies {
  applications: Pick<ApplicationRepository, 'find' | 'listByIdDocument'>;
  auditLog: Pick<AuditLogRepository, 'listBySubject' | 'append'>;
  contracts: Pick<ContractRepository, 'find' | 'pdf' | 'superseded' | 'supersededPdf'>;
  /** The application's checked documents. */
  documents: (applicationId: string) => Promise<OnboardingDocument[]>;
  storage: Pick<DocumentService, 'read' | 'readEvidence'>;
  /** Where locales/{es,en}.json are. */
  localesDir: string;
}

/** A file of the export: its path beside the JSON, its bytes and their SHA-256 (the JSON names both). */
export interface ExportedFile {
  path: string;
  bytes: Buffer;
  sha256: string;
}

export interface PersonalDataExport {
  /** The person's language: that of their latest application. */
  language: Language;
  data: Record<string, unknown>;
  files: ExportedFile[];
}

/** Refused: no application by that id or ID document. */
export class PersonalDataNotFound extends Error {}

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const picked = (source: Record<string, unknown>, names: readonly string[]) => Object.fromEntries(names.filter((name) => source[name] !== undefined).map((name) => [name, source[name]]));

/** The extension a stored file's first bytes call for (the onboarding takes PDF, JPEG and PNG only). */
function extensionOf(bytes: Buffer): string {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return '.pdf';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return '.jpg';
  if (bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))) return '.png';
  return '';
}

/**
 * The applications of a person: the one of this id, or every one of this ID document number in any spelling
 * (upper or lower case, spaces anywhere), the id's applicant's other applications too, as the person is the same.
 */
export async function applicationsOfPerson(deps: Pick<PersonalDataDependencies, 'applications'>, named: string): Promise<Application[]> {
  const byId = await deps.applications.find(named.trim());
  // As a person reads it out or an operator types it: spaces anywhere, any case.
  const idDocument = byId?.idDocument ?? canonicalIdDocument(named.replace(/\s+/g, ''));
  const all = await deps.applications.listByIdDocument(idDocument);
  const found = all.length > 0 ? all : byId ? [byId] : [];
  if (found.length === 0) throw new PersonalDataNotFound(`No application ${named.trim()} (by id or ID document)`);
  return [...found].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
}

async function catalogOf(localesDir: string, language: Language): Promise<Record<string, string>> {
  return JSON.parse(await readFile(path.join(localesDir, `${language}.json`), 'utf8')) as Record<string, string>;
}

/** The answers step by step, each field with the label its screen showed, in the person's language. */
function answersOf(application: Application, messages: Record<string, string>) {
  return journey(flowAnswersOf(application.answers, application.personType)).flatMap((step) => {
    if (!isAnswersStep(step.id)) return [];
    const labels = FIELD_LABELS[step.id] as Record<string, string>;
    const fields = Object.entries(labels)
      .filter(([field]) => application.answers[field] !== undefined)
      .map(([field, label]) => ({ field, label: messages[label] ?? field, value: application.answers[field] }));
    return fields.length > 0 ? [{ step: step.id, fields }] : [];
  });
}

/** The applicant's own doings, with only the details EXPORTED names. */
function activityOf(audit: AuditRecord[], application: Application, language: Language) {
  const own = (actor: string) => actor === `application:${application.id}` || actor.startsWith('registration:');
  return audit
    .filter((entry) => own(entry.actor) && entry.action in EXPORTED.activity)
    .map((entry) => ({
      at: entry.occurredAt,
      action: entry.action,
      label: WORDS.activity[entry.action][language],
      details: picked(entry.details ?? {}, EXPORTED.activity[entry.action]),
    }));
}

/** The bank's decision as the applicant was told it: which and when, and a rejection's words if they were given some. */
function decisionOf(audit: AuditRecord[], application: Application, language: Language) {
  const outcome = application.status === 'approved' || application.status === 'rejected' ? application.status : undefined;
  if (!outcome) return null;
  const taken = audit.filter((entry) => EXPORTED.decisions[entry.action] === outcome).at(-1);
  const rejection = reviewStateOf(application).rejection;
  return {
    outcome,
    label: WORDS.status[outcome][language],
    decidedAt: taken?.occurredAt ?? null,
    ...(outcome === 'rejected' && rejection ? { message: picked(rejection, EXPORTED.review.rejection).text } : {}),
  };
}

async function filesOf(deps: PersonalDataDependencies, application: Application, language: Language) {
  const folder = application.id;
  const files: ExportedFile[] = [];
  const add = (name: string, bytes: Buffer) => {
    const file = { path: `${folder}/${name}`, bytes, sha256: sha256Of(bytes) };
    files.push(file);
    return file;
  };
  const contracts = [];
  const current = await deps.contracts.find(application.id);
  const pdf = current && (await deps.contracts.pdf(application.id));
  if (current && pdf) contracts.push({ label: WORDS.contract[language], signedAt: current.signedAt, file: add('contracts/contract.pdf', pdf).path, sha256: sha256Of(pdf) });
  let round = 0;
  for (const superseded of await deps.contracts.superseded(application.id)) {
    const bytes = await deps.contracts.supersededPdf(application.id, superseded.sha256);
    if (!bytes) continue;
    round += 1;
    contracts.push({ label: WORDS.contractSuperseded[language], signedAt: superseded.signedAt, file: add(`contracts/contract-${round}.pdf`, bytes).path, sha256: sha256Of(bytes) });
  }
  const documents = [];
  for (const document of await deps.documents(application.id)) {
    // The evidence copy once frozen (what the bank relies on), else the file as it was checked.
    const bytes = document.evidenceKey && document.sha256 ? await deps.storage.readEvidence(document.evidenceKey, document.sha256) : await deps.storage.read(document.key, document.etag);
    const file = add(`documents/${document.kind}${extensionOf(bytes)}`, bytes);
    documents.push({ kind: document.kind, uploadedAt: document.checkedAt, size: bytes.length, file: file.path, sha256: file.sha256 });
  }
  return { contracts, documents, files };
}

/**
 * Everything held about the person of `named` (an application id or an ID document number), as EXPORTED says;
 * each application's audit trail records that `actor` exported it.
 */
export async function exportPersonalData(deps: PersonalDataDependencies, named: string, actor: string, now: Date): Promise<PersonalDataExport> {
  const applications = await applicationsOfPerson(deps, named);
  const language = applications.at(-1)!.language;
  const messages = await catalogOf(deps.localesDir, language);
  const files: ExportedFile[] = [];
  const exported = [];
  for (const application of applications) {
    const audit = await applicationAudit(deps, application.id);
    const review = reviewStateOf(application);
    const check = identityCheckOf(application);
    const own = await filesOf(deps, application, language);
    files.push(...own.files);
    exported.push({
      ...picked(application as unknown as Record<string, unknown>, EXPORTED.application),
      statusLabel: WORDS.status[application.status][language],
      applicant: picked({ email: application.email, idDocument: application.idDocument, idType: application.answers.idType }, EXPORTED.applicant),
      answers: answersOf(application, messages),
      identityCheck: check ? { ...picked(check as unknown as Record<string, unknown>, EXPORTED.identityCheck), label: WORDS.identityCheck[check.status as keyof typeof WORDS.identityCheck]?.[language] ?? check.status } : null,
      decision: decisionOf(audit, application, language),
      requestForMoreInformation: review.moreInfo ? picked(review.moreInfo as unknown as Record<string, unknown>, EXPORTED.review.moreInfo) : null,
      contracts: own.contracts,
      documents: own.documents,
      activity: activityOf(audit, application, language),
    });
  }
  for (const application of applications) {
    await deps.auditLog.append({ actor, action: 'privacy.personal_data_exported', subject: `application:${application.id}`, details: { applications: applications.length, files: files.length } }, now);
  }
  return {
    language,
    data: { format: 'divilo-personal-data/1', language, generatedAt: now.toISOString(), notice: WORDS.notice[language], applications: exported },
    files,
  };
}

/** The name of the JSON beside the files. */
export const EXPORT_JSON = 'personal-data.json';
