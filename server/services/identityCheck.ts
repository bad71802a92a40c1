// The identity check behind /check-identity: a verifier looks at the applicant's three photos, and its result
// is recorded in one place whether it comes at once (the manual check hands the photos to the bank's reviewer)
// or later from a provider through the webhook. The check's state lives in the application's answers; an
// approval, or photos waiting for the bank's review, complete the wait; a rejection sends the applicant back to
// take the photos again. The reviewer's own decision is recorded by the review (reviews.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IDENTITY_IMAGE_KINDS } from '../../src/validation/onboarding';
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';
import type { AuditLogRepository } from '../repositories/auditLogRepository';
import type { OnboardingDocument, OnboardingDocumentRepository } from '../repositories/onboardingDocumentRepository';
import { changeApplication, type ChangeRefusals } from './applicationChanges';
import type { FaceDetector } from './faceDetection';
import { IdDocumentHeldError, type SignInUsers } from './signInUsers';

export type IdentityImageKind = (typeof IDENTITY_IMAGE_KINDS)[number];
/** The storage keys of the three photos. */
export type IdentityImages = Record<IdentityImageKind, string>;

/**
 * `manual`: the server checks the images, then the bank's reviewer decides (`npm run admin -- identity`);
 * `webhook`: an external service answers later.
 */
export type IdentityProvider = 'manual' | 'webhook';

/** What a check can be: `needs-review` waits for the bank's reviewer, and lets the applicant sign meanwhile. */
export type IdentityCheckStatus = 'pending' | 'needs-review' | 'approved' | 'rejected';

/**
 * What the face detector noticed, for the reviewer: `no-face-in-selfie`, `several-faces-in-selfie`,
 * `no-face-on-document`, or `face-check-failed` when it could not look; and `id-document-held` when the provider
 * approved an identity whose ID document another application's verified identity holds already.
 */
export type IdentityFlag = 'no-face-in-selfie' | 'several-faces-in-selfie' | 'no-face-on-document' | 'face-check-failed' | 'id-document-held';

interface IdentityResult {
  status: Exclude<IdentityCheckStatus, 'pending'>;
  /**
   * The provider's answer names the check it is about (`null`: a check started before checks had ids); absent for
   * the server's own results, which are about the check at hand.
   */
  checkId?: string | null;
  /** Why a check was rejected, as a short code the screens can translate (`images-missing`). */
  reason?: string;
  provider: IdentityProvider;
  flags?: IdentityFlag[];
}

/** The check as the application keeps it (`answers.identityCheck`): never a secret. */
export interface IdentityCheckState {
  /** Each check's own (a new one for new photos): a provider's result must name it. Absent on checks from before. */
  id?: string;
  status: IdentityCheckStatus;
  provider: IdentityProvider;
  startedAt: string;
  decidedAt?: string;
  reason?: string;
  flags?: IdentityFlag[];
  /** Who at the bank decided, for a `manual` check. */
  reviewer?: string;
}

interface IdentityVerifier {
  /** Starts checking the photos; the result arrives through `recordIdentityResult`, now or later. */
  start(applicationId: string, images: IdentityImages, requestId?: string): Promise<void>;
}

export type IdentityCheckErrorCode = 'APPLICATION_NOT_FOUND' | 'IDENTITY_CHECK_NOT_PENDING' | 'CONCURRENT_CHANGE';

export class IdentityCheckError extends Error {
  constructor(
    readonly code: IdentityCheckErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'IdentityCheckError';
  }
}

const CHECK_REFUSALS: ChangeRefusals = {
  missing: () => new IdentityCheckError('APPLICATION_NOT_FOUND', 'There is no such application'),
  changed: () => new IdentityCheckError('CONCURRENT_CHANGE', 'The application changed meanwhile: try again'),
};

interface IdentityCheckDependencies {
  applications: Pick<ApplicationRepository, 'find' | 'save'>;
  documents: Pick<OnboardingDocumentRepository, 'list'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
  /** An approved identity takes its ID document (and gets its sign-in user); absent: nobody holds documents (tests of the check alone). */
  signInUsers?: Pick<SignInUsers, 'claim' | 'ensureUser'>;
  /** The server's clock (app.clock, which tests move). */
  now: () => Date;
  /** With a face detector: the bytes of a checked photo, from its evidence copy once frozen (evidence.ts). */
  photos?: { read(document: OnboardingDocument): Promise<Buffer> };
  /** Counts faces, to flag photos for the reviewer; unset: no flags. */
  faces?: Pick<FaceDetector, 'faces'>;
}

/** The check an application holds, if one was started. */
export const identityCheckOf = (application: Pick<Application, 'answers'>) => application.answers.identityCheck as IdentityCheckState | undefined;

/**
 * The answers as the applicant may see them: the check without the bank's own notes (the face detector's flags
 * would tell a fraudster what to change; a reviewer's name is the bank's business).
 */
export function withoutReviewNotes(answers: Record<string, unknown>): Record<string, unknown> {
  // The review's own record (approvals, the rejection's words) is the bank's.
  const { review: _review, ...own } = answers;
  const check = own.identityCheck as IdentityCheckState | undefined;
  if (!check) return own;
  const { flags: _flags, reviewer: _reviewer, ...shown } = check;
  return { ...own, identityCheck: shown };
}

export const WAITING_STEP = 'check-identity-waiting';
export const PHOTOS_STEP = 'check-identity';

/** How far from the server's time a delivery's signing time may be: older ones (a replay) are refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** What a webhook's signature says: who signed it, when, and whether that is recent enough. */
export type WebhookSignature = { verdict: 'valid'; signedAt: number; signature: string } | { verdict: 'invalid' | 'expired' };

const SIGNATURE_FORMAT = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/i;

/**
 * `t=<signing time, Unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the secret>`, compared in constant
 * time; valid only within WEBHOOK_TOLERANCE_SECONDS of `now`. No secret: never valid.
 */
function verifyWebhookSignature(secret: string | undefined, body: Buffer, header: string | undefined, now: Date): WebhookSignature {
  const parts = header === undefined ? null : SIGNATURE_FORMAT.exec(header.trim());
  if (!secret || !parts) return { verdict: 'invalid' };
  const [, signedAt, signature] = parts;
  const expected = createHmac('sha256', secret).update(`${signedAt}.`).update(body).digest();
  if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return { verdict: 'invalid' };
  if (Math.abs(now.getTime() / 1000 - Number(signedAt)) > WEBHOOK_TOLERANCE_SECONDS) return { verdict: 'expired' };
  return { verdict: 'valid', signedAt: Number(signedAt), signature: signature.toLowerCase() };
}

export function identityCheck(deps: IdentityCheckDependencies, settings: { provider: IdentityProvider; webhookSecret?: string }) {
  /**
   * Records the result of the application's pending check, as one conditional save (retried when another save
   * came first): approved or needs-review complete the wait (`currentStep` moves on to the contract), rejected
   * takes the photos step back. The same result delivered again changes nothing; a result with no check pending
   * is refused.
   */
  async function recordIdentityResult(applicationId: string, result: IdentityResult, requestId?: string): Promise<Application> {
    return changeApplication(deps.applications, applicationId, CHECK_REFUSALS, async (application) => {
      const check = identityCheckOf(application);
      // A provider's result about another check (an earlier one, whose photos were replaced) decides nothing now.
      if (result.checkId !== undefined && result.checkId !== (check?.id ?? null)) {
        throw new IdentityCheckError('IDENTITY_CHECK_NOT_PENDING', 'No identity check of this application with this id is waiting for a result');
      }
      if (check?.status === result.status) return application;
      if (check?.status !== 'pending' || application.status !== 'in-progress') throw new IdentityCheckError('IDENTITY_CHECK_NOT_PENDING', 'No identity check of this application is waiting for a result');
      const now = deps.now();
      const reason = result.status === 'rejected' ? result.reason : undefined;
      // The provider approved a person whose document another verified application holds: the bank's reviewer
      // looks (and cannot approve this one while the other holds it).
      const held = result.status === 'approved' && !(await claimed(application, now));
      const status = held ? 'needs-review' : result.status;
      const flagList = [...(result.flags ?? []), ...(held ? (['id-document-held'] as const) : [])];
      const flags = flagList.length ? flagList : undefined;
      const decided: IdentityCheckState = { ...check, status, provider: result.provider, decidedAt: now.toISOString(), ...(reason ? { reason } : {}), ...(flags ? { flags } : {}) };
      const completedSteps =
        result.status === 'rejected'
          ? application.completedSteps.filter((step) => step !== PHOTOS_STEP && step !== WAITING_STEP)
          : [...application.completedSteps.filter((step) => step !== WAITING_STEP), WAITING_STEP];
      const saved = await deps.applications.save(application, { answers: { ...application.answers, identityCheck: decided }, completedSteps }, now);
      if (!saved) return undefined;
      const subject = `application:${applicationId}`;
      const action = `onboarding.identity_check_${status.replace('-', '_')}`;
      await deps.auditLog.append(
        { actor: `identity-provider:${result.provider}`, action, subject, requestId, details: { provider: result.provider, ...(reason ? { reason } : {}), ...(flags ? { flags } : {}) } },
        now,
      );
      return status === 'approved' && deps.signInUsers ? deps.signInUsers.ensureUser(saved, now) : saved;
    });
  }

  /** Whether the application now holds its ID document (false: another verified application does). */
  async function claimed(application: Application, now: Date): Promise<boolean> {
    if (!deps.signInUsers) return true;
    try {
      await deps.signInUsers.claim(application, now);
      return true;
    } catch (error) {
      if (error instanceof IdDocumentHeldError) return false;
      throw error;
    }
  }

  /** What the face detector sees in the selfie and the document's front; it only ever adds flags. */
  async function faceFlags(applicationId: string, images: IdentityImages): Promise<IdentityFlag[]> {
    const { faces, photos } = deps;
    if (!faces || !photos) return [];
    const documents = await deps.documents.list(applicationId);
    const facesIn = async (kind: IdentityImageKind) => {
      const document = documents.find((candidate) => candidate.kind === kind && candidate.key === images[kind])!;
      return (await faces.faces(await photos.read(document))).length;
    };
    try {
      const [selfie, front] = [await facesIn('selfie'), await facesIn('documentFront')];
      const flags: IdentityFlag[] = [];
      if (selfie === 0) flags.push('no-face-in-selfie');
      if (selfie > 1) flags.push('several-faces-in-selfie');
      if (front === 0) flags.push('no-face-on-document');
      return flags;
    } catch {
      // The reviewer looks at the photos either way; the flag says the detector could not help this time.
      return ['face-check-failed'];
    }
  }

  /**
   * The server's own check: the three photos must be the documents it checked (decoded whole, neither blank nor
   * featureless, documents.ts); then they wait for the bank's reviewer, with what the face detector noticed. It
   * never approves: only a person can.
   */
  const manual: IdentityVerifier = {
    async start(applicationId, images, requestId) {
      const documents = await deps.documents.list(applicationId);
      const checked = IDENTITY_IMAGE_KINDS.every((kind) => documents.some((document) => document.kind === kind && document.key === images[kind]));
      if (!checked) {
        await recordIdentityResult(applicationId, { status: 'rejected', reason: 'images-missing', provider: 'manual' }, requestId);
        return;
      }
      await recordIdentityResult(applicationId, { status: 'needs-review', provider: 'manual', flags: await faceFlags(applicationId, images) }, requestId);
    },
  };
  /** An external provider: the check stays pending until the provider's result arrives at the webhook. */
  const external: IdentityVerifier = { start: async () => undefined };

  return {
    provider: settings.provider,
    verifier: settings.provider === 'manual' ? manual : external,
    recordIdentityResult,
    /** Whether a webhook body carries the provider's signature, made within WEBHOOK_TOLERANCE_SECONDS of now. */
    webhookSignature: (body: Buffer, header: string | undefined) => verifyWebhookSignature(settings.webhookSecret, body, header, deps.now()),
  };
}

export type IdentityCheck = ReturnType<typeof identityCheck>;
