// `npm run admin`: the bank's review of applications and its staff's accounts (scripts/staffCommands.ts), on the
// same database and services as the server (the same environment variables). With the embedded identity service, the server must be running: the pool is
// one of its endpoints.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { userInfo } from 'node:os';
import { Command } from 'commander';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from '../server/config';
import { createDatabase, migrateToLatest } from '../server/db';
import { endSignInLockout } from '../server/embedded/cognito';
import { identityServiceOf, staffIdentityServiceOf } from '../server/plugins/identity';
import { applicationRepository, type Application } from '../server/repositories/applicationRepository';
import { canonicalIdDocument } from '../src/validation';
import { auditLogRepository } from '../server/repositories/auditLogRepository';
import { contractRepository } from '../server/repositories/contractRepository';
import { outboxRepository } from '../server/repositories/outboxRepository';
import { reviewTemplateRepository } from '../server/repositories/reviewTemplateRepository';
import { staffAdditionRepository } from '../server/repositories/staffAdditionRepository';
import { staffSessionRepository } from '../server/repositories/staffSessionRepository';
import { outboxSender } from '../server/services/messaging/outboxSender';
import { smtpSender } from '../server/services/messaging/smtpSender';
import {
  applicationAudit,
  approveApplication,
  decideIdentity,
  listApplications,
  pendingEffects,
  rejectApplication,
  requestMoreInformation,
  ReviewError,
  type ReviewState,
  type ApplicationSummary,
  type DecisionOutcome,
  type ReviewDependencies,
} from '../server/services/reviews';
import { identityCheckOf } from '../server/services/identityCheck';
import { loadHighRiskCountries } from '../server/services/risk';
import { deriveKey, loadServerSecret } from '../server/services/serverSecret';
import { signInUsers } from '../server/services/signInUsers';
import { awsClient } from '../server/services/outboundCalls';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import type { Kysely } from 'kysely';
import type { Database } from '../server/db';
import { presignGetObject } from '../src/documentStorage/uploadDocument';
import { onboardingDocumentRepository } from '../server/repositories/onboardingDocumentRepository';
import { embeddedStorageCredentials } from '../server/plugins/storage';
import { StaffError, staffCommand, type StaffDependencies } from './staffCommands';
import { addPrivacyCommands, PrivacyError, type PrivacyDependencies } from './privacyCommands';
import { atRoot } from '../server/paths';
import { documentServiceOf } from '../server/plugins/documents';
import { evidenceRetainUntil } from '../server/services/retention';
import { RelationshipEndError } from '../server/services/relationshipEnd';
import { retentionCommands, type RetentionCommandDependencies } from './retentionCommands';

/** What `show` says in place of a document's link when its output is not a terminal. */
export const LINK_WITHHELD = 'shown on a terminal only';

/** How long a document's link in `show` works. */
const DOCUMENT_LINK_SECONDS = 600;

/** What an evidence copy holds now against what was recorded when it was made. */
export type EvidenceState = 'matches' | 'does not match' | 'missing' | 'not frozen yet';

/**
 * An application's checked documents, each with a link signed with the server's storage credentials (the
 * embedded endpoint's own, or the AWS credentials of the machine) that works for DOCUMENT_LINK_SECONDS. A
 * frozen document's link is to its evidence copy, which is read whole and checked against its recorded SHA-256.
 */
export function documentsWithLinks(db: Kysely<Database>, config: Config, secret: Buffer): NonNullable<ReviewDependencies['documents']> {
  const checked = onboardingDocumentRepository(db);
  const credentials = config.storage.embedded ? embeddedStorageCredentials(secret) : fromNodeProviderChain();
  const s3 = awsClient(S3Client, { region: config.storage.region, endpoint: config.storage.endpoint, forcePathStyle: true, credentials });
  const digest = async (key: string) => {
    try {
      const object = await s3.send(new GetObjectCommand({ Bucket: config.storage.bucket, Key: key }));
      return createHash('sha256').update((await object.Body?.transformToByteArray()) ?? new Uint8Array()).digest('hex');
    } catch (error) {
      if ((error as { name?: string }).name === 'NoSuchKey' || (error as { name?: string }).name === 'NotFound') return undefined;
      throw error;
    }
  };
  const stateOf = async (evidenceKey: string | undefined, sha256: string | undefined): Promise<EvidenceState> => {
    if (!evidenceKey || !sha256) return 'not frozen yet';
    const now = await digest(evidenceKey);
    return now === undefined ? 'missing' : now === sha256 ? 'matches' : 'does not match';
  };
  return async (applicationId) =>
    Promise.all(
      (await checked.list(applicationId)).map(async (document) => ({
        kind: document.kind,
        key: document.evidenceKey ?? document.key,
        size: document.size,
        checkedAt: document.checkedAt,
        ...(document.evidenceKey ? { uploadedAs: document.key, sha256: document.sha256, frozenAt: document.frozenAt } : {}),
        evidence: await stateOf(document.evidenceKey, document.sha256),
        link: await presignGetObject(document.evidenceKey ?? document.key, { credentials, config: config.storage, expiresIn: DOCUMENT_LINK_SECONDS }),
      })),
    );
}

/** What the commands need: the review's and the staff's. */
export type AdminDependencies = ReviewDependencies & StaffDependencies & Pick<RetentionCommandDependencies, 'retention'> & { close(): Promise<void>; privacy?: PrivacyDependencies };

/** What the commands need, made from the configuration as the server makes it. */
export async function reviewDependencies(config: Config): Promise<AdminDependencies> {
  const handle = createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrateToLatest(handle.db);
  const secret = loadServerSecret(config.dataDir, config.serverSecret);
  const identity = identityServiceOf(config, secret);
  const log = pino({ level: 'warn' });
  const applications = applicationRepository(handle.db);
  const staffIdentity = staffIdentityServiceOf(config, secret);
  const documents = documentServiceOf(config, secret);
  return {
    db: handle.db,
    documents: documentsWithLinks(handle.db, config, secret),
    applications,
    contracts: contractRepository(handle.db),
    auditLog: auditLogRepository(handle.db),
    additions: staffAdditionRepository(handle.db),
    identity,
    signInUsers: signInUsers({ db: handle.db, applications, identity, passwordKey: deriveKey(secret, 'pending-passwords') }),
    messages: config.messaging.smtp ? smtpSender(config.messaging.smtp) : outboxSender(outboxRepository(handle.db), () => new Date(), log),
    supportPhone: config.supportPhone,
    resumeUrl: `${config.publicUrl}/signUp`,
    highRiskCountries: loadHighRiskCountries(config.highRiskCountriesFile),
    evidence: { retain: (id, decision, decidedAt) => documents.retainEvidence(id, evidenceRetainUntil(decision, decidedAt, config.retention)) },
    retention: { settings: config.retention, retainEvidence: (id, until) => documents.retainEvidence(id, until) },
    staffIdentity,
    // A member's roles are read at sign-in: a disabled member, or one whose roles changed, signs in again.
    revokeStaffSessions: (username) => staffSessionRepository(handle.db).revokeAllOf(username, new Date()),
    // The embedded service keeps its lockout in this database; Amazon Cognito's has no call that ends it.
    endStaffLockout:
      config.identity.embedded && config.staff
        ? (username) => endSignInLockout(handle.db, { poolId: config.staff!.userPoolId }, username, Date.now())
        : undefined,
    privacy: {
      db: handle.db,
      applications,
      auditLog: auditLogRepository(handle.db),
      contracts: contractRepository(handle.db),
      documents: (id) => onboardingDocumentRepository(handle.db).list(id),
      storage: documents,
      identity,
      localesDir: atRoot('locales'),
    },
    close: async () => {
      documents.close();
      identity.destroy();
      staffIdentity?.destroy();
      documents.close();
      await handle.destroy();
    },
  };
}

/** What a decision run did: decided, finished what an earlier run left, or found nothing left to do. */
function decisionLine(id: string, { application, already, finished }: DecisionOutcome): string {
  if (!already) return `Application ${id} ${application.status}.`;
  if (finished.length > 0) return `Application ${id} was ${application.status} already; now done: ${finished.join(', ')}.`;
  return `Application ${id} was ${application.status} already; nothing pending.`;
}

const GAP = '  ';

/** `text` in at most `width` characters: a longer one is cut and ends with "…". */
export function cut(text: string, width: number): string {
  const characters = Array.from(text);
  return characters.length <= width ? text : `${characters.slice(0, Math.max(width - 1, 0)).join('')}…`;
}

const padded = (text: string, width: number) => text + ' '.repeat(Math.max(width - Array.from(text).length, 0));

/**
 * The `list` table in `columns` characters: the short columns as wide as their longest value (the id whole, as
 * the other commands take it), the name and the e-mail sharing what is left, each cut with "…" when longer.
 * `id-shared`, shown when some applications share an ID document, says which holds it and which cannot be approved.
 */
export function applicationTable(rows: ApplicationSummary[], columns: number): string[] {
  // `id-shared` only when some application shares its ID document with another.
  const shared = rows.some((row) => row.idShared !== undefined);
  const header = ['id', 'status', 'path', 'risk', 'step', 'days', ...(shared ? ['id-shared'] : []), 'name', 'email'];
  const cells = rows.map((row) => [row.id, row.status, row.path, row.risk, row.step, String(row.ageDays), ...(shared ? [row.idShared ?? '-'] : []), row.name || '-', row.email]);
  const [nameAt, emailAt] = [header.length - 2, header.length - 1];
  const fixed = header.slice(0, nameAt).map((title, index) => Math.max(title.length, ...cells.map((cell) => cell[index].length)));
  const longest = (index: number) => Math.max(header[index].length, ...cells.map((cell) => Array.from(cell[index]).length));
  const left = columns - fixed.reduce((total, width) => total + width, 0) - GAP.length * (header.length - 1);
  // Below 10 characters a name or an e-mail says too little: the line is then wider than the terminal.
  const name = Math.min(longest(nameAt), Math.max(10, Math.floor(left * 0.45)));
  const email = Math.max(10, left - name);
  const widths = [...fixed, name, email];
  const line = (cell: string[]) =>
    cell
      .map((text, index) => (index === 5 ? text.padStart(widths[index]) : index === emailAt ? cut(text, widths[index]) : padded(cut(text, widths[index]), widths[index])))
      .join(GAP);
  return [line(header), ...cells.map(line)];
}

/** The application with this id, or the one of this ID document number (any spelling of it). */
async function applicationNamed(d: ReviewDependencies, name: string): Promise<Application> {
  const byId = await d.applications.find(name);
  if (byId) return byId;
  const ofPerson = await d.applications.listByIdDocument(canonicalIdDocument(name));
  if (ofPerson.length === 1) return ofPerson[0];
  if (ofPerson.length > 1) throw new ReviewError(`${ofPerson.length} applications of ${canonicalIdDocument(name)}: show one by its id (${ofPerson.map((application) => application.id).join(', ')})`);
  throw new ReviewError(`No application ${name}`);
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? '';
  }
}

export function adminProgram(
  deps: () => Promise<AdminDependencies>,
  out: (line: string) => void,
  /** How wide the terminal is: `list` fits in it. Output to a pipe or a file is not cut. */
  columns = Number.POSITIVE_INFINITY,
  /** The terminal, when the output is one: the only place `staff add` shows a password and `show` the documents' links. */
  terminal?: (line: string) => void,
): Command {
  const program = new Command('admin')
    .description("Review Divilo onboarding applications and manage the bank's staff")
    .option('--reviewer <name>', 'who decides, as the audit trail records it (default: the operating-system user)')
    .exitOverride();
  /** Who decides: named, or the user running the command; a decision is never recorded without a name. */
  const reviewer = () => {
    const named = ((program.opts() as { reviewer?: string }).reviewer ?? osUser()).trim();
    if (!named) throw new ReviewError('Name the reviewer with --reviewer <name>: a decision is recorded with who took it');
    return named;
  };
  const withDeps = (action: (d: ReviewDependencies, ...args: string[]) => Promise<void>) => async (...args: string[]) => {
    const d = await deps();
    try {
      await action(d, ...args);
    } finally {
      await d.close();
    }
  };
  program
    .command('list')
    .description("every application, newest first: status, path, risk, step, age, the applicant's name and e-mail")
    .action(
      withDeps(async (d) => {
        const rows = await listApplications(d, new Date());
        if (rows.length === 0) out('(no applications)');
        else for (const line of applicationTable(rows, columns)) out(line.trimEnd());
      }),
    );
  program
    .command('show <id>')
    .description(
      'one application (by its id, or by the applicant\'s ID document number in any spelling): its identity check (state, flags, reviewer), its answers (a company with its owners), its documents and identity photos with 10-minute links, its signed contract (SHA-256) and its audit trail from the sign-up on',
    )
    .action(
      withDeps(async (d, id) => {
        const application = await applicationNamed(d, id);
        const contract = (await d.contracts.find(id)) ?? null;
        const documents = (await d.documents?.(id)) ?? [];
        // The identity check first: its state, the face detector's flags, who decided; its photos are among the documents.
        const identityCheck = identityCheckOf(application) ?? null;
        // What a decision still owes outside the database (an interrupted approve or reject): run it again to finish.
        const effectsPending = (await pendingEffects(d, id)).map(({ effect, attempts, lastError, claimedUntil }) => ({ effect, attempts, lastError, heldUntil: claimedUntil }));
        // A link opens the document for 10 minutes to whoever holds it: only a terminal sees one, never output that
        // may be kept (a pipe, a file, a one-off task's log group).
        const listed = terminal ? documents : documents.map((document) => ({ ...document, link: LINK_WITHHELD }));
        out(JSON.stringify({ ...application, identityCheck, effectsPending, documents: listed, contract, audit: await applicationAudit(d, application.id) }, null, 2));
        // Said plainly, after the record: evidence that is not what was checked cannot be relied on.
        for (const document of documents) {
          if (document.evidence === 'does not match') out(`WARNING: the ${document.kind} evidence (${document.key}) does not match the SHA-256 recorded when it was frozen (${document.sha256}): do not rely on it.`);
          if (document.evidence === 'missing') out(`WARNING: the ${document.kind} evidence (${document.key}) is missing from storage.`);
        }
      }),
    );
  program
    .command('contract <id> <file>')
    .description('writes the signed, sealed contract of an application to a new file')
    .action(
      withDeps(async (d, id, file) => {
        const pdf = await d.contracts.pdf(id);
        if (!pdf) throw new ReviewError(`Application ${id} has no signed contract`);
        try {
          writeFileSync(file, pdf, { flag: 'wx', mode: 0o600 });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ReviewError(`${file} exists already: name a new file`);
          throw error;
        }
        out(`Contract of ${id} written to ${file}.`);
      }),
    );
  program
    .command('identity <id> <decision>')
    .description("decide an identity check waiting for review (approve or reject) after looking at its photos (show); rejecting a signed application rejects it")
    .option('--reason <reason>', 'why a rejection (kept in the audit trail, not sent to the applicant)')
    .action(
      withDeps(async (d, id, decision, options) => {
        if (decision !== 'approve' && decision !== 'reject') throw new ReviewError(`The decision is approve or reject, not ${JSON.stringify(decision)}`);
        const application = await decideIdentity(d, id, decision, reviewer(), new Date(), (options as unknown as { reason?: string }).reason);
        out(`Identity of ${id} ${decision === 'approve' ? 'approved' : 'rejected'}${application.status === 'rejected' ? '; the signed application is rejected' : ''}.`);
      }),
    );
  program
    .command('approve <id>')
    .description(
      'approve a signed application whose identity is approved: the customer can log in, and gets an e-mail saying so; run again, it finishes what an interrupted run left pending',
    )
    .action(
      withDeps(async (d, id) => out(decisionLine(id, await approveApplication(d, id, reviewer(), new Date())))),
    );
  program
    .command('more-info <id>')
    .description(
      "sends a signed application back to its applicant: the steps named reopen, they are e-mailed the template's words and yours, and sign again once done",
    )
    .requiredOption('--steps <steps>', 'comma-separated steps of the business section (show lists the application\'s)')
    .option('--template <id>', 'a more-info template of the bank')
    .option('--message <text>', 'your own words to the applicant (sent as written)')
    .action(
      withDeps(async (d, id, options) => {
        const { steps, template, message } = options as unknown as { steps: string; template?: string; message?: string };
        const named = steps.split(',').map((step) => step.trim()).filter(Boolean);
        const application = await requestMoreInformation({ ...d, templates: reviewTemplateRepository(d.db) }, id, { steps: named, templateId: template, message }, reviewer(), new Date());
        out(`Application ${id} sent back to its applicant for ${(application.answers.review as ReviewState).moreInfo!.steps.join(', ')}.`);
      }),
    );
  program
    .command('reject <id>')
    .description('reject, with the reason the bank records')
    .requiredOption('--reason <reason>', 'why (kept in the audit trail, not sent to the applicant)')
    .option('--template <id>', "a rejection template of the bank: its words go to the applicant, in their language")
    .action(
      withDeps(async (d, id, options) => {
        const { reason, template } = options as unknown as { reason: string; template?: string };
        out(decisionLine(id, await rejectApplication({ ...d, templates: reviewTemplateRepository(d.db) }, id, reason, reviewer(), new Date(), template)));
      }),
    );
  addPrivacyCommands(
    program,
    async (action) => {
      const d = await deps();
      try {
        if (!d.privacy) throw new PrivacyError('This configuration reaches no documents storage: a person\'s data cannot be read or erased from here');
        await action(d.privacy);
      } finally {
        await d.close();
      }
    },
    { out, operator: reviewer },
  );
  program.addCommand(staffCommand(deps, { out, terminal, operator: reviewer }));
  // Recorded as the review records the operator of a command (reviews.ts `actorOf`).
  for (const command of retentionCommands(deps, { out, operator: () => `reviewer:${reviewer()}` })) program.addCommand(command);
  return program;
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  try {
    const tty = process.stdout.isTTY;
    const print = (line: string) => console.log(line);
    await adminProgram(() => reviewDependencies(config), print, tty ? process.stdout.columns : undefined, tty ? print : undefined).parseAsync(process.argv);
  } catch (error) {
    if (error instanceof RelationshipEndError) {
      console.error(`${error.code}: ${error.message}`);
      process.exit(1);
    }
    if (error instanceof ReviewError || error instanceof StaffError || error instanceof PrivacyError) {
      console.error(error.message);
      process.exit(1);
    }
    if ((error as { code?: string }).code?.startsWith('commander.')) process.exit((error as { exitCode?: number }).exitCode ?? 1);
    throw error;
  }
}

if (require.main === module) void main();
