import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { OnboardingDocument } from '../repositories/onboardingDocumentRepository';
import { faceDetector } from '../services/faceDetection';
import { identityCheck, type IdentityCheck } from '../services/identityCheck';

declare module 'fastify' {
  interface FastifyInstance {
    identityCheck: IdentityCheck;
  }
}

/**
 * The identity check of the applicants' photos, with the verifier IDENTITY_PROVIDER names: it reads the
 * checked documents and records its result on the application, on the clock of the code rules. The manual
 * check runs the face detector (IDENTITY_FACE_DETECTION) on the stored photos, in a thread of its own.
 */
export const identityCheckPlugin = fp(async (app: FastifyInstance, { config }: { config: Config }) => {
  const detector = config.identityCheck.provider === 'manual' && config.identityCheck.faceDetection ? faceDetector() : undefined;
  if (detector) app.addHook('onClose', () => detector.close());
  // The photo the check started on: its evidence copy (checked against its SHA-256), not what storage holds now.
  const photoOf = (document: OnboardingDocument) =>
    document.evidenceKey && document.sha256 ? app.documents.readEvidence(document.evidenceKey, document.sha256) : app.documents.read(document.key, document.etag);
  app.decorate(
    'identityCheck',
    identityCheck(
      {
        applications: app.applications,
        documents: app.onboardingDocuments,
        auditLog: app.auditLog,
        signInUsers: app.signInUsers,
        now: app.clock,
        ...(detector ? { faces: detector, photos: { read: photoOf } } : {}),
      },
      config.identityCheck,
    ),
  );
});
