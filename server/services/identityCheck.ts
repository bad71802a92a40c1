// The identity check behind /check-identity: a verifier looks at the applicant's three photos, and its result
// is recorded in one place whether it comes at once (the built-in check) or later from a provider through the
// webhook. The check's state lives in the application's answers; an approval completes the wait, a rejection
// sends the applicant back to take the photos again.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { IDENTITY_IMAGE_KINDS } from '../../src/validation/onboarding';
import type { Application, ApplicationRepository } from '../repositories/applicationRepository';
import type { AuditLogRepository } from '../repositories/auditLogRepository';
import type { OnboardingDocumentRepository } from '../repositories/onboardingDocumentRepository';

export type IdentityImageKind = (typeof IDENTITY_IMAGE_KINDS)[number];
/** The storage keys of the three photos. */
export type IdentityImages = Record<IdentityImageKind, string>;

/** `builtin`: decided by the server at once; `webhook`: an external service answers later. */
export type IdentityProvider = 'builtin' | 'webhook';

export interface IdentityResult {
  status: 'approved' | 'rejected';
  /** Why a check was rejected, as a short code the screens can translate (`images-missing`). */
  reason?: string;
  provider: IdentityProvider;
}

/** The check as the application keeps it (`answers.identityCheck`): never a secret. */
export interface IdentityCheckState {
  status: 'pending' | 'approved' | 'rejected';
  provider: IdentityProvider;
  startedAt: string;
  decidedAt?: string;
  reason?: string;
}

export interface IdentityVerifier {
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

export interface IdentityCheckDependencies {
  applications: Pick<ApplicationRepository, 'find' | 'save'>;
  documents: Pick<OnboardingDocumentRepository, 'list'>;
  auditLog: Pick<AuditLogRepository, 'append'>;
  /** The server's clock (the code rules' one, which tests move). */
  now: () => Date;
}

/** The check an application holds, if one was started. */
export const identityCheckOf = (application: Pick<Application, 'answers'>) => application.answers.identityCheck as IdentityCheckState | undefined;

const WAITING_STEP = 'check-identity-waiting';
const PHOTOS_STEP = 'check-identity';

/** Whether `signature` is the hex HMAC-SHA256 of `body` under `secret`, compared in constant time. No secret: never. */
export function signatureMatches(secret: string | undefined, body: Buffer, signature: string | undefined): boolean {
  if (!secret || signature === undefined || !/^[0-9a-f]{64}$/i.test(signature)) return false;
  return timingSafeEqual(createHmac('sha256', secret).update(body).digest(), Buffer.from(signature, 'hex'));
}

export function identityCheck(deps: IdentityCheckDependencies, settings: { provider: IdentityProvider; webhookSecret?: string }) {
  /**
   * Records the result of the application's pending check, as one conditional save (retried when another save
   * came first): approved completes the wait (`currentStep` moves on to the contract), rejected takes the photos
   * step back. The same result delivered again changes nothing; a result with no check pending is refused.
   */
  async function recordIdentityResult(applicationId: string, result: IdentityResult, requestId?: string): Promise<Application> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const application = await deps.applications.find(applicationId);
      if (!application) throw new IdentityCheckError('APPLICATION_NOT_FOUND', 'There is no such application');
      const check = identityCheckOf(application);
      if (check?.status === result.status) return application;
      if (check?.status !== 'pending' || application.status !== 'in-progress') throw new IdentityCheckError('IDENTITY_CHECK_NOT_PENDING', 'No identity check of this application is waiting for a result');
      const now = deps.now();
      const reason = result.status === 'rejected' ? result.reason : undefined;
      const decided: IdentityCheckState = { ...check, status: result.status, provider: result.provider, decidedAt: now.toISOString(), ...(reason ? { reason } : {}) };
      const completedSteps =
        result.status === 'approved'
          ? [...application.completedSteps.filter((step) => step !== WAITING_STEP), WAITING_STEP]
          : application.completedSteps.filter((step) => step !== PHOTOS_STEP && step !== WAITING_STEP);
      const saved = await deps.applications.save(application, { answers: { ...application.answers, identityCheck: decided }, completedSteps }, now);
      if (!saved) continue;
      const subject = `application:${applicationId}`;
      await deps.auditLog.append(
        { actor: `identity-provider:${result.provider}`, action: `onboarding.identity_check_${result.status}`, subject, requestId, details: { provider: result.provider, ...(reason ? { reason } : {}) } },
        now,
      );
      return saved;
    }
    throw new IdentityCheckError('CONCURRENT_CHANGE', 'The application changed meanwhile: try again');
  }

  /** The embedded default: approves when the three photos are the ones the server checked as images, at once. */
  const builtin: IdentityVerifier = {
    async start(applicationId, images, requestId) {
      const documents = await deps.documents.list(applicationId);
      const checked = IDENTITY_IMAGE_KINDS.every((kind) => documents.some((document) => document.kind === kind && document.key === images[kind]));
      await recordIdentityResult(applicationId, checked ? { status: 'approved', provider: 'builtin' } : { status: 'rejected', reason: 'images-missing', provider: 'builtin' }, requestId);
    },
  };
  /** An external provider: the check stays pending until the provider's result arrives at the webhook. */
  const external: IdentityVerifier = { start: async () => undefined };

  return {
    provider: settings.provider,
    verifier: settings.provider === 'builtin' ? builtin : external,
    recordIdentityResult,
    /** Whether a webhook body carries the provider's signature. */
    webhookSigned: (body: Buffer, signature: string | undefined) => signatureMatches(settings.webhookSecret, body, signature),
  };
}

export type IdentityCheck = ReturnType<typeof identityCheck>;
