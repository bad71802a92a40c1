// Rows that have served their purpose: expired codes and their counts, ended blocks, dead customer sessions,
// message budgets whose window is over, e-mail addresses proven over a year ago, old outbox messages and sign-ups never confirmed; and stored files no application reported as a
// document. Removed on a schedule (services and documents plugins), like the captcha sweep and the storage sweep.
// On the same schedule, review decisions whose effects an interrupted run left pending are finished
// (`finishPendingDecisions` in reviews.ts: it needs the identity service and the e-mail provider, not only rows).
// And applications abandoned for a month, with what they hold.
import { DeleteObjectsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { Kysely } from 'kysely';
import type { Database } from '../db';
import { STORAGE_AREAS } from '../awsPermissions';
import { applicationRepository, type Application } from '../repositories/applicationRepository';
import { erasureRepository } from '../repositories/erasureRepository';
import type { AuditLogRepository } from '../repositories/auditLogRepository';
import { loginSessionRepository } from '../repositories/loginSessionRepository';
import { messageBudgetRepository } from '../repositories/messageBudgetRepository';
import { onboardingDocumentRepository } from '../repositories/onboardingDocumentRepository';
import { oneTimeCodeRepository } from '../repositories/oneTimeCodeRepository';
import { outboxRepository } from '../repositories/outboxRepository';
import { webhookDeliveryRepository } from '../repositories/webhookDeliveryRepository';
import type { IdentityService } from './identity';
import type { DocumentService } from './documents';
import { removeSignInUser } from './signInUsers';

interface HousekeepingSettings {
  /** How long a used or expired code stays (its resend cooldown and audit no longer need it). */
  codeRetentionSeconds: number;
  /** How long an ended, revoked or idle session stays. */
  sessionRetentionSeconds: number;
  /** How long a message stays in the outbox (a developer reading /dev/outbox needs the last hours). */
  outboxRetentionSeconds: number;
}

const HOUSEKEEPING_DEFAULTS: HousekeepingSettings = { codeRetentionSeconds: 86_400, sessionRetentionSeconds: 86_400, outboxRetentionSeconds: 86_400 };

/**
 * How long an e-mail address stays proven (a year): enough for an applicant or customer to come back; forgotten,
 * it costs the address only the one e-mail an hour of any address not proven, until its next code.
 */
const PROVEN_ADDRESS_RETENTION_SECONDS = 365 * 86_400;

/** Deletes what is past keeping at `now`; answers how many rows of each table went. */
export async function expireOldRows(db: Kysely<Database>, now: Date, settings: HousekeepingSettings = HOUSEKEEPING_DEFAULTS): Promise<Record<string, number>> {
  const before = (seconds: number) => new Date(now.getTime() - seconds * 1000);
  return {
    ...(await oneTimeCodeRepository(db).removeOld(before(settings.codeRetentionSeconds), now)),
    message_budgets: await messageBudgetRepository(db).removeEnded(now),
    proven_email_addresses: await messageBudgetRepository(db).removeProvenBefore(before(PROVEN_ADDRESS_RETENTION_SECONDS)),
    login_sessions: await loginSessionRepository(db).removeEndedBefore(before(settings.sessionRetentionSeconds)),
    outbox: await outboxRepository(db).removeStoredBefore(before(settings.outboxRetentionSeconds)),
    // A sign-up's row holds an e-mail and an ID document: once its code can no longer be confirmed, it goes with
    // its code (the audit log keeps that it happened).
    onboarding_registrations: await applicationRepository(db).removeRegistrationsExpiredBefore(before(settings.codeRetentionSeconds)),
    identity_webhook_deliveries: await webhookDeliveryRepository(db).removeExpired(now),
  };
}

/** The applicants' areas: everything else in the bucket is the server's alone (docs/storage.md, "Who may do what"). */
const APPLICANT_AREAS = STORAGE_AREAS.applicants;

interface UnreportedUploadSweep {
  /** The storage client with the server's credentials, and the documents bucket. */
  storage: { client: Pick<S3Client, 'send'>; bucket: string };
  db: Kysely<Database>;
  now: Date;
  /** Told of each removal: its key and size only. */
  log: { info(details: { key: string; size: number }, message: string): void; warn(details: { key: string; code?: string }, message: string): void };
  /** Age from which an unreported file goes (default a day: an applicant uploads and reports within minutes). */
  maxAgeSeconds?: number;
}

/**
 * Removes the files in applicants' areas stored more than `maxAgeSeconds` ago that no application reported as a
 * document (an abandoned attempt, or storage used for something else); reported documents and the server's
 * areas stay. Through ListObjectsV2 and DeleteObjects, so it works on Amazon S3 as on the embedded endpoint.
 */
export async function removeUnreportedUploads(sweep: UnreportedUploadSweep): Promise<{ removed: number; bytes: number }> {
  const { storage, log } = sweep;
  const documents = onboardingDocumentRepository(sweep.db);
  const cutoff = sweep.now.getTime() - (sweep.maxAgeSeconds ?? 86_400) * 1000;
  let removed = 0;
  let bytes = 0;
  let token: string | undefined;
  do {
    const page = await storage.client.send(new ListObjectsV2Command({ Bucket: storage.bucket, Prefix: APPLICANT_AREAS, ContinuationToken: token }));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
    const old = (page.Contents ?? []).filter((object) => object.Key && object.LastModified && object.LastModified.getTime() <= cutoff);
    if (old.length === 0) continue;
    // Asked page by page, just before the removal: a document reported since the listing stays.
    const keys = old.map((object) => object.Key!);
    const reported = await documents.reportedAmong(keys);
    const unreported = old.filter((object) => !reported.has(object.Key!));
    if (unreported.length === 0) continue;
    const answer = await storage.client.send(
      new DeleteObjectsCommand({ Bucket: storage.bucket, Delete: { Objects: unreported.map((object) => ({ Key: object.Key })), Quiet: true } }),
    );
    const failed = new Map((answer.Errors ?? []).map((error) => [error.Key, error.Code]));
    for (const object of unreported) {
      const key = object.Key!;
      if (failed.has(key)) {
        log.warn({ key, code: failed.get(key) }, 'an unreported upload could not be removed');
        continue;
      }
      log.info({ key, size: object.Size ?? 0 }, 'unreported upload removed');
      removed += 1;
      bytes += object.Size ?? 0;
    }
  } while (token);
  return { removed, bytes };
}

/** How long an application nobody touches (no step saved) is kept before it expires. */
const APPLICATION_INACTIVE_DAYS = 30;

export interface ApplicationExpiryDependencies {
  db: Kysely<Database>;
  identity: Pick<IdentityService, 'getUser' | 'deleteUser'>;
  auditLog: AuditLogRepository;
  /** The documents' storage: an application's storage identity (if it was given one), removing its areas, forgetting it. */
  storage: Pick<DocumentService, 'identityOf' | 'removeArea' | 'forgetIdentity'>;
}

/**
 * Expires the applications not sent to the bank (in progress, or closed as not allowed) whose last change is
 * `inactiveDays` old: each is marked `expired` by one conditional update (an applicant saving at that moment
 * either comes first, and the application stays, or finds it closed), then its sign-in user, its checked
 * documents (rows and stored files) and the application itself are removed; its audit entries stay. A removal
 * that fails half-way is finished by the next run (the row stays `expired` until then). Answers how many ended.
 */
export async function expireInactiveApplications(
  deps: ApplicationExpiryDependencies,
  now: Date,
  { inactiveDays = APPLICATION_INACTIVE_DAYS, batch = 100 }: { inactiveDays?: number; batch?: number } = {},
): Promise<number> {
  const applications = applicationRepository(deps.db);
  const rows = await applications.listExpiring(new Date(now.getTime() - inactiveDays * 86_400_000), batch);
  let ended = 0;
  for (const row of rows) {
    if (row.status !== 'expired') {
      if (!(await applications.markExpired(row.id, row.version))) continue;
      await deps.auditLog.append({ actor: 'housekeeping', action: 'onboarding.application_expired', subject: `application:${row.id}`, details: { lastChangeAt: row.updatedAt, inactiveDays } }, now);
    }
    await removeExpired(deps, row.id, now);
    ended += 1;
  }
  return ended;
}

/** The expired application's erasure, if it is still marked `expired` (another run may have finished it). */
async function removeExpired(deps: ApplicationExpiryDependencies, id: string, now: Date): Promise<void> {
  const expired = await applicationRepository(deps.db).findExpired(id);
  if (expired) await eraseApplication(deps, expired, { actor: 'housekeeping', why: 'expired' }, now);
}

/** How an erasure is told in the audit trail, and the record of the request that asked for it, if one did. */
export interface ErasureReason {
  /** Who erases: `housekeeping`, or the staff member or operator who answered a request. */
  actor: string;
  /** Why: `expired`, `retention-ended`, `erasure-request`. */
  why: string;
  /** The decision whose period ended (`approved`, `rejected`). */
  decision?: string;
  /** Written with the erasure, in the same transaction, under the application's new name. */
  record?: Parameters<ReturnType<typeof erasureRepository>['erase']>[4];
}

/**
 * Erases an application marked `expired` (by housekeeping, or by an erasure request). Answers whether this call
 * erased it (false: not marked, or another call erased it meanwhile).
 */
export async function eraseMarkedApplication(deps: ApplicationExpiryDependencies, id: string, now: Date, reason: ErasureReason): Promise<boolean> {
  const expired = await applicationRepository(deps.db).findExpired(id);
  return expired !== undefined && (await eraseApplication(deps, expired, reason, now)) !== undefined;
}

/**
 * Everything an application holds: the sign-in user first, then its files and their evidence copies, then in one
 * transaction every row that names it or its applicant, the application's row last (what a later run retries from,
 * if it is still in its status); its audit entries stay, renamed and without what could name anyone
 * (erasureRepository.ts), the last one saying why. Answers how many rows each table lost, or undefined when another
 * run erased it first. An evidence copy still locked refuses its delete: nothing is then erased.
 */
export async function eraseApplication(
  deps: ApplicationExpiryDependencies,
  application: Application,
  { actor, why, decision, record }: ErasureReason,
  now: Date,
): Promise<Record<string, number> | undefined> {
  const id = application.id;
  if (await removeSignInUser(deps.identity, application)) {
    await deps.auditLog.append({ actor, action: 'onboarding.sign_in_user_removed', subject: `application:${id}`, details: { why } }, now);
  }
  // Every file, reported or not, and every evidence copy, those of photos taken again included.
  const identityId = await deps.storage.identityOf(id);
  if (identityId) await deps.storage.removeArea(`${STORAGE_AREAS.applicants}${identityId}/`);
  await deps.storage.removeArea(`${STORAGE_AREAS.evidence}${id}/`);
  if (identityId) await deps.storage.forgetIdentity(identityId);
  const erasure = erasureRepository(deps.db);
  return erasure.erase(
    { applicationId: id, identityId, registrationIds: await erasure.registrationsOf(id) },
    application.status,
    { actor, action: 'onboarding.application_erased', details: decision === undefined ? { why } : { why, decision } },
    now,
    record,
  );
}
