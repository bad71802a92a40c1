// `npm run admin`: the bank's review of applications, on the same database and services as the server (the
// same environment variables). With the embedded identity service, the server must be running: the pool is
// one of its endpoints.
import { writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { Command } from 'commander';
import pino from 'pino';
import { ConfigError, loadConfig, type Config } from '../server/config';
import { createDatabase, migrateToLatest } from '../server/db';
import { embeddedIdentityCredentials } from '../server/plugins/identity';
import { applicationRepository } from '../server/repositories/applicationRepository';
import { auditLogRepository } from '../server/repositories/auditLogRepository';
import { contractRepository } from '../server/repositories/contractRepository';
import { createIdentityService } from '../server/services/identity';
import { outboxSender } from '../server/services/messaging/outboxSender';
import { smtpSender } from '../server/services/messaging/smtpSender';
import { approveApplication, decideIdentity, listApplications, rejectApplication, ReviewError, type ReviewDependencies } from '../server/services/reviews';
import { identityCheckOf } from '../server/services/identityCheck';
import { loadServerSecret } from '../server/services/serverSecret';
import { fromNodeProviderChain } from '@aws-sdk/credential-providers';
import type { Kysely } from 'kysely';
import type { Database } from '../server/db';
import { presignGetObject } from '../src/features/documents/uploadDocument';
import { onboardingDocumentRepository } from '../server/repositories/onboardingDocumentRepository';
import { embeddedStorageCredentials } from '../server/plugins/storage';

/** How long a document's link in `show` works. */
const DOCUMENT_LINK_SECONDS = 600;

/**
 * An application's checked documents, each with a link signed with the server's storage credentials (the
 * embedded endpoint's own, or the AWS credentials of the machine) that works for DOCUMENT_LINK_SECONDS.
 */
export function documentsWithLinks(db: Kysely<Database>, config: Config, secret: Buffer): NonNullable<ReviewDependencies['documents']> {
  const checked = onboardingDocumentRepository(db);
  const credentials = config.storage.embedded ? embeddedStorageCredentials(secret) : fromNodeProviderChain();
  return async (applicationId) =>
    Promise.all(
      (await checked.list(applicationId)).map(async (document) => ({
        kind: document.kind,
        key: document.key,
        size: document.size,
        checkedAt: document.checkedAt,
        link: await presignGetObject(document.key, { credentials, config: config.storage, expiresIn: DOCUMENT_LINK_SECONDS }),
      })),
    );
}

/** What the commands need, made from the configuration as the server makes it. */
export async function reviewDependencies(config: Config): Promise<ReviewDependencies & { close(): Promise<void> }> {
  const handle = createDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrateToLatest(handle.db);
  const secret = loadServerSecret(config.dataDir, config.serverSecret);
  const identity = createIdentityService({
    region: config.identity.region,
    userPoolId: config.identity.userPoolId,
    clientId: config.identity.clientId,
    endpoint: config.identity.endpoint,
    issuerBaseUrl: config.identity.embedded ? config.identity.endpoint : undefined,
    credentials: config.identity.embedded ? embeddedIdentityCredentials(secret) : undefined,
  });
  const log = pino({ level: 'warn' });
  return {
    db: handle.db,
    documents: documentsWithLinks(handle.db, config, secret),
    applications: applicationRepository(handle.db),
    contracts: contractRepository(handle.db),
    auditLog: auditLogRepository(handle.db),
    identity,
    messages: config.messaging.smtp ? smtpSender(config.messaging.smtp) : outboxSender(handle.db, log),
    supportPhone: config.supportPhone,
    close: () => handle.destroy(),
  };
}

function osUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? '';
  }
}

export function adminProgram(deps: () => Promise<ReviewDependencies & { close(): Promise<void> }>, out: (line: string) => void): Command {
  const program = new Command('admin')
    .description('Review Divilo onboarding applications')
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
    .description('every application: status, path, risk, step and age')
    .action(
      withDeps(async (d) => {
        const rows = await listApplications(d, new Date());
        out(['id', 'status', 'path', 'risk', 'step', 'days'].join('\t'));
        for (const row of rows) out([row.id, row.status, row.path, row.risk, row.step, String(row.ageDays)].join('\t'));
        if (rows.length === 0) out('(no applications)');
      }),
    );
  program
    .command('show <id>')
    .description(
      'one application: its identity check (state, flags, reviewer), its answers (a company with its owners), its documents and identity photos with 10-minute links, its signed contract (SHA-256) and its audit trail',
    )
    .action(
      withDeps(async (d, id) => {
        const application = await d.applications.find(id);
        if (!application) throw new ReviewError(`No application ${id}`);
        const contract = (await d.contracts.find(id)) ?? null;
        const documents = (await d.documents?.(id)) ?? [];
        // The identity check first: its state, the face detector's flags, who decided; its photos are among the documents.
        const identityCheck = identityCheckOf(application) ?? null;
        out(JSON.stringify({ ...application, identityCheck, documents, contract, audit: await d.auditLog.listBySubject(`application:${id}`) }, null, 2));
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
    .description('approve a signed application whose identity is approved: the customer can log in, and gets an e-mail saying so')
    .action(
      withDeps(async (d, id) => {
        await approveApplication(d, id, reviewer());
        out(`Application ${id} approved.`);
      }),
    );
  program
    .command('reject <id>')
    .description('reject, with the reason the bank records')
    .requiredOption('--reason <reason>', 'why (kept in the audit trail, not sent to the applicant)')
    .action(
      withDeps(async (d, id, options) => {
        await rejectApplication(d, id, (options as unknown as { reason: string }).reason, reviewer());
        out(`Application ${id} rejected.`);
      }),
    );
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
    await adminProgram(() => reviewDependencies(config), (line) => console.log(line)).parseAsync(process.argv);
  } catch (error) {
    if (error instanceof ReviewError) {
      console.error(error.message);
      process.exit(1);
    }
    if ((error as { code?: string }).code?.startsWith('commander.')) process.exit((error as { exitCode?: number }).exitCode ?? 1);
    throw error;
  }
}

if (require.main === module) void main();
