// /check-identity and /check-identity-waiting: the three photos the server checked start the identity check,
// and the waiting page asks for its result. Starting is one conditional save of the application (retried on a
// concurrent one); the same photos sent again while their check is pending or approved start no new check.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { stepById } from '../../../src/onboarding/flow';
import { checkIdentitySchema, IDENTITY_IMAGE_KINDS } from '../../../src/validation/onboarding';
import { toFieldErrors, validateSchema } from '../../../src/validation/validate';
import { ApiError } from '../../plugins/errors';
import { applicationRepository } from '../../repositories/applicationRepository';
import { onboardingDocumentRepository } from '../../repositories/onboardingDocumentRepository';
import { DocumentError } from '../../services/documents';
import { evidenceAudit, preserveDocuments } from '../../services/evidence';
import { identityCheckOf, type IdentityCheckState, type IdentityImages } from '../../services/identityCheck';
import { applicationView, nextAfter } from '../../services/onboardingApplications';
import { checkTurn } from '../../services/stepSaving';
import { onFreshApplication } from './saving';
import { applicationOf, openApplicationOf } from './tokens';
import { BEARER } from './schemas';

/** How long after its start a manual check still pending is taken for one cut short: it answers within seconds. */
const MANUAL_CHECK_RESTART_MS = 5 * 60_000;

const STEP = stepById('check-identity')!;

const RESULT = {
  type: 'object',
  properties: {
    checkId: { type: 'string', description: "The check's own id, which the identity provider's result names" },
    status: { type: 'string', enum: ['pending', 'needs-review', 'approved', 'rejected'] },
    reason: { type: 'string' },
  },
  required: ['status'],
} as const;

export async function identityCheckRoutes(app: FastifyInstance) {
  const invalid = (errors: unknown[]) => new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid', { errors });

  app.post<{ Body: Partial<IdentityImages> }>(
    '/identity-check',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Starts the identity check on the three photos (their storage keys) and answers the waiting step',
        description:
          'Each key must be the document of that kind the server checked for this application (`POST documents`): ' +
          '400 VALIDATION_FAILED with validations.documentMissing on the field otherwise. The same photos while their check is pending, ' +
          "waiting for the bank's review or approved start nothing new; after a rejection they start a new check. " +
          "Starting freezes the photos: each is copied, with its SHA-256, into the server's own area of storage, which the check and the bank's review read " +
          'from then on (400 VALIDATION_FAILED with validations.documentMissing on a photo changed in storage since it was checked). ' +
          '409 STEP_OUT_OF_ORDER { currentStep }, APPLICATION_CLOSED.',
        headers: BEARER,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: Object.fromEntries(IDENTITY_IMAGE_KINDS.map((kind) => [kind, { type: 'string', maxLength: 1024 }])),
        },
        response: { 200: { type: 'object', properties: { next: { type: 'string' }, application: { type: 'object', additionalProperties: true } }, required: ['next', 'application'] }, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const applicationId = await applicationOf(app, request);
      // Fields not sent are empty, as on a blank form.
      const images = Object.fromEntries(IDENTITY_IMAGE_KINDS.map((kind) => [kind, request.body[kind]?.trim() ?? ''])) as IdentityImages;
      const refused = toFieldErrors(await validateSchema(checkIdentitySchema, images));
      if (refused.length > 0) throw invalid(refused);
      const documents = await app.onboardingDocuments.list(applicationId);
      const unchecked = IDENTITY_IMAGE_KINDS.filter((kind) => !documents.some((document) => document.kind === kind && document.key === images[kind]));
      if (unchecked.length > 0) throw invalid(unchecked.map((field) => ({ field, id: 'validations.documentMissing' })));

      return onFreshApplication(app, applicationId, async (application) => {
        checkTurn(application, STEP.id);
        const next = nextAfter(STEP.id, application);
        const current = identityCheckOf(application);
        const samePhotos = IDENTITY_IMAGE_KINDS.every((kind) => application.answers[kind] === images[kind]);
        if (samePhotos && (current?.status === 'approved' || current?.status === 'needs-review')) return { next, application: applicationView(application) };
        if (samePhotos && current?.status === 'pending') {
          // The manual check answers within seconds: one still pending long after it started was cut short (an
          // outage) and runs again. Its new start is saved first, on the application's version, so sends at the
          // same moment run the face detector once, and sends while it runs not at all.
          const now = app.clock();
          if (app.identityCheck.provider === 'manual' && now.getTime() - Date.parse(current.startedAt) >= MANUAL_CHECK_RESTART_MS) {
            const restarted = await app.applications.save(application, { answers: { ...application.answers, identityCheck: { ...current, startedAt: now.toISOString() } } }, now);
            if (!restarted) return undefined;
            await app.identityCheck.verifier.start(applicationId, images, request.id);
          }
          return { next, application: applicationView((await app.applications.find(applicationId)) ?? application) };
        }

        // The photos this check looks at, copied where the applicant cannot reach them, before the check exists.
        const photos = (await app.onboardingDocuments.list(applicationId)).filter((document) => images[document.kind as keyof IdentityImages] === document.key);
        const missing = IDENTITY_IMAGE_KINDS.filter((kind) => !photos.some((document) => document.kind === kind));
        if (missing.length > 0) throw invalid(missing.map((field) => ({ field, id: 'validations.documentMissing' })));
        let preserved;
        try {
          preserved = await preserveDocuments(app.documents, applicationId, photos);
        } catch (error) {
          if (!(error instanceof DocumentError) || error.code !== 'DOCUMENT_CHANGED') throw error;
          throw invalid(IDENTITY_IMAGE_KINDS.map((field) => ({ field, id: 'validations.documentMissing' })));
        }

        const now = app.clock();
        // Its own id: a provider's result names it, so a result about earlier photos cannot decide these.
        const check: IdentityCheckState = { id: randomUUID(), status: 'pending', provider: app.identityCheck.provider, startedAt: now.toISOString() };
        // The check and its photos' evidence in one transaction, on the version the photos were read at: a photo
        // reported meanwhile changed that version, and this start is worked out again.
        const saved = await app.db.transaction().execute(async (trx) => {
          const started = await applicationRepository(trx).save(
            application,
            {
              answers: { ...application.answers, ...images, identityCheck: check },
              // New photos wait for their own result, even after an approval of others.
              completedSteps: [...application.completedSteps.filter((step) => step !== STEP.id && step !== 'check-identity-waiting'), STEP.id],
            },
            now,
          );
          if (started && (await onboardingDocumentRepository(trx).freeze(applicationId, preserved, now)) !== preserved.length) {
            throw new ApiError(409, 'CONCURRENT_CHANGE', 'The application changed meanwhile: try again');
          }
          return started;
        });
        if (!saved) return undefined;
        const actor = `application:${applicationId}`;
        await app.auditLog.append({ actor, action: 'onboarding.identity_check_started', subject: actor, requestId: request.id, details: { provider: check.provider } }, now);
        for (const document of preserved) {
          await app.auditLog.append({ actor, action: 'onboarding.evidence_frozen', subject: actor, requestId: request.id, details: evidenceAudit(document) }, now);
        }
        await app.identityCheck.verifier.start(applicationId, images, request.id);
        // The manual check has answered already: the application as it is now.
        return { next, application: applicationView((await app.applications.find(applicationId)) ?? saved) };
      });
    },
  );

  app.get(
    '/identity-check',
    {
      schema: {
        tags: ['onboarding'],
        summary:
          "The identity check's state: pending, needs-review (the bank will look at the photos; the contract comes next), approved (the contract comes next) " +
          'or rejected (with a reason; take the photos again)',
        description: '404 IDENTITY_CHECK_NOT_STARTED before the photos were sent.',
        headers: BEARER,
        response: { 200: RESULT, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const application = await openApplicationOf(app, request);
      const check = identityCheckOf(application);
      if (!check) throw new ApiError(404, 'IDENTITY_CHECK_NOT_STARTED', 'The identity check has not started');
      return { ...(check.id ? { checkId: check.id } : {}), status: check.status, ...(check.reason ? { reason: check.reason } : {}) };
    },
  );
}
