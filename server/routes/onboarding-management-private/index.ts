import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../../plugins/errors';
import { answersPersonalData } from '../../plugins/personalData';
import { applicationRepository } from '../../repositories/applicationRepository';
import { onboardingDocumentRepository } from '../../repositories/onboardingDocumentRepository';
import { DOCUMENT_KINDS, DOCUMENT_NAME_PATTERN, DocumentError, IMAGE_SIDE_PIXELS, type DocumentErrorCode, type DocumentKind } from '../../services/documents';
import { allEvidenceFrozen, evidenceFrozen } from '../../services/evidence';
import { identityCheckRoutes } from './identityCheck';
import { contractRoutes } from './contract';
import { passwordRoutes } from './password';
import { phoneRoutes } from './phone';
import { registrationRoutes } from './registration';
import { onFreshApplication } from './saving';
import { stepRoutes } from './steps';
import { applicationClosed, applicationOf as applicationOfToken, isClosed, isRegistrationSubject, sessionOf } from './tokens';
import { BEARER } from './schemas';

const DOCUMENT_ERROR_STATUS: Record<DocumentErrorCode, number> = {
  DOCUMENT_NOT_OWN: 403,
  DOCUMENT_NOT_FOUND: 404,
  DOCUMENT_EMPTY: 422,
  DOCUMENT_TOO_LARGE: 422,
  DOCUMENT_NOT_PDF: 422,
  DOCUMENT_NOT_IMAGE: 422,
  DOCUMENT_NOT_DECODABLE: 422,
  DOCUMENT_ACTIVE_CONTENT: 422,
  DOCUMENT_ENCRYPTED: 422,
  IMAGE_TOO_SMALL: 422,
  IMAGE_TOO_LARGE: 422,
  IMAGE_BLANK: 422,
  IMAGE_UNIFORM: 422,
  DOCUMENT_CHANGED: 409,
};

const evidenceFrozenError = () => new ApiError(409, 'EVIDENCE_FROZEN', 'This document was relied on already and can no longer change');

/** What the applicant needs to fix a refused document: the limit it went past. */
function refusalDetails(code: DocumentErrorCode, maxBytes: number): Record<string, unknown> | undefined {
  if (code === 'DOCUMENT_TOO_LARGE') return { maxBytes };
  if (code === 'IMAGE_TOO_SMALL' || code === 'IMAGE_TOO_LARGE') return { minPixels: IMAGE_SIDE_PIXELS.min, maxPixels: IMAGE_SIDE_PIXELS.max };
  return undefined;
}

const DOCUMENT = {
  type: 'object',
  properties: {
    kind: { type: 'string', enum: [...DOCUMENT_KINDS] },
    key: { type: 'string' },
    size: { type: 'integer' },
    checkedAt: { type: 'string', format: 'date-time' },
  },
  required: ['kind', 'key', 'size', 'checkedAt'],
} as const;

/** Routes of an applicant holding an onboarding session token (the wizard's steps join them here). */
export async function onboardingPrivateRoutes(app: FastifyInstance) {
  answersPersonalData(app);
  const applicationOf = (request: FastifyRequest) => applicationOfToken(app, request);
  await app.register(registrationRoutes);
  await app.register(stepRoutes);
  await app.register(phoneRoutes);
  await app.register(passwordRoutes);
  await app.register(identityCheckRoutes);
  await app.register(contractRoutes);

  app.post(
    '/session/renew',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Renews a live onboarding session token (the applicant chose to continue), never past the end of its session',
        description:
          'The session ends `ONBOARDING_SESSION_MAX_SECONDS` after its e-mail code (a sign-up\'s, when the sign-up expires): ' +
          '401 SESSION_ENDED when the session\'s end leaves a new token no longer than the current one. 409 APPLICATION_CLOSED once the application is signed, approved or rejected.',
        headers: BEARER,
        response: {
          200: { type: 'object', properties: { token: { type: 'string' }, expiresIn: { type: 'integer' } }, required: ['token', 'expiresIn'] },
          '4xx': { $ref: 'error#' },
        },
      },
    },
    async (request) => {
      // A sign-up waiting for its code renews too: the new token names the same thing.
      const session = await sessionOf(app, request);
      const subject = session.applicationId;
      if (!isRegistrationSubject(subject)) {
        const application = await app.applications.find(subject);
        if (application && isClosed(application.status)) throw applicationClosed();
      }
      const renewed = await app.onboardingTokens.grant(subject, session.sessionEndsAt);
      const expiresAt = Math.floor(app.clock().getTime() / 1000) + renewed.expiresIn;
      // Cut by the session's end and no later than the token held: there is nothing left to renew.
      if (expiresAt >= session.sessionEndsAt && expiresAt <= session.expiresAt) {
        throw new ApiError(401, 'SESSION_ENDED', 'The onboarding session has ended: confirm the e-mail again');
      }
      const actor = isRegistrationSubject(subject) ? subject : `application:${subject}`;
      await app.auditLog.append({ actor, action: 'onboarding.session_renewed', subject: actor, requestId: request.id }, app.clock());
      return renewed;
    },
  );

  app.post(
    '/storage-identity',
    {
      schema: {
        tags: ['onboarding'],
        summary: "The applicant's storage identity and a short-lived token to get upload credentials for it",
        description:
          'Documents go straight from the browser to storage, under `private/<identityId>/`. The browser trades the token for ' +
          "temporary credentials at the identity pool (GetCredentialsForIdentity with `Logins: { 'cognito-identity.amazonaws.com': token }`). " +
          '409 EVIDENCE_FROZEN once the application is signed or closed: there is nothing left to upload.',
        headers: BEARER,
        response: {
          200: {
            type: 'object',
            properties: { identityId: { type: 'string' }, token: { type: 'string' }, expiresIn: { type: 'integer' }, maxDocumentBytes: { type: 'integer' } },
            required: ['identityId', 'token', 'expiresIn', 'maxDocumentBytes'],
          },
          '4xx': { $ref: 'error#' },
        },
      },
    },
    async (request) => {
      const applicationId = await applicationOf(request);
      // Signed: nothing is left to upload, so no credentials to write with (the evidence copies hold anyway).
      const application = await app.applications.find(applicationId);
      if (application && allEvidenceFrozen(application)) throw evidenceFrozenError();
      const identity = await app.documents.storageIdentity(applicationId);
      return { ...identity, maxDocumentBytes: app.documents.maxDocumentBytes };
    },
  );

  app.post(
    '/documents',
    {
      // Each report downloads the file again and inspects it whole (a PDF parsed, a photo decoded): the tighter limit.
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: "Reports an uploaded document: the server checks it is the applicant's, within size, of its kind's format, and records it",
        description:
          'The key must be in the applicant\'s private area (`private/<identityId>/<name>`). A document of the same kind reported ' +
          'before is replaced (and its stored file removed) only once the new one passes; a refused one is removed from storage. ' +
          'The identity photos (documentFront, documentBack, selfie) must be typed image/jpeg or image/png and decode as that format, ' +
          `each side from ${IMAGE_SIDE_PIXELS.min} to ${IMAGE_SIDE_PIXELS.max} pixels; the other kinds are PDFs. ` +
          'Errors: 403 DOCUMENT_NOT_OWN, 404 DOCUMENT_NOT_FOUND, 422 DOCUMENT_EMPTY, DOCUMENT_TOO_LARGE (with maxBytes), DOCUMENT_NOT_PDF, ' +
          'DOCUMENT_NOT_IMAGE (another type or format), DOCUMENT_NOT_DECODABLE (truncated, corrupt, a PDF that does not parse or has no page), ' +
          'DOCUMENT_ENCRYPTED, DOCUMENT_ACTIVE_CONTENT (a PDF with scripts, launch actions, attached files…), IMAGE_TOO_SMALL or IMAGE_TOO_LARGE ' +
          '(with minPixels and maxPixels; also past 64 megapixels), IMAGE_BLANK (one colour), IMAGE_UNIFORM (too little detail); ' +
          '409 EVIDENCE_FROZEN for a photo once the identity check started (until a rejection), and for any kind once the contract is signed.',
        headers: BEARER,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            kind: { type: 'string', enum: [...DOCUMENT_KINDS] },
            key: { type: 'string', minLength: 1, maxLength: 1024, pattern: `^private/[\\w-]+:[0-9a-f-]+/${DOCUMENT_NAME_PATTERN.slice(1)}` },
          },
          required: ['kind', 'key'],
        },
        response: { 200: DOCUMENT, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const applicationId = await applicationOf(request);
      const { kind, key } = request.body as { kind: DocumentKind; key: string };
      const audit = (action: string, details: Record<string, unknown>) =>
        app.auditLog.append({ actor: `application:${applicationId}`, action, subject: `application:${applicationId}`, requestId: request.id, details }, app.clock());
      const before = await app.applications.find(applicationId);
      if (!before) throw new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application');
      const frozen = async () => {
        await audit('onboarding.document_refused', { kind, code: 'EVIDENCE_FROZEN' });
        return evidenceFrozenError();
      };
      if (evidenceFrozen(before, kind)) throw await frozen();
      const kept = await app.onboardingDocuments.list(applicationId);
      let checked;
      try {
        checked = await app.documents.check(applicationId, key, kind);
      } catch (error) {
        if (!(error instanceof DocumentError)) throw error;
        await audit('onboarding.document_refused', { kind, code: error.code });
        // A refused upload is removed, unless it is a document already recorded (never lose what was accepted).
        if (error.code !== 'DOCUMENT_NOT_OWN' && !kept.some((document) => document.key === key)) {
          await app.documents.remove(key).catch((cause: unknown) => request.log.warn({ err: cause }, 'a refused document could not be removed'));
        }
        throw new ApiError(DOCUMENT_ERROR_STATUS[error.code], error.code, error.message, refusalDetails(error.code, app.documents.maxBytesOf(kind)));
      }
      const now = app.clock();
      // Recorded on the application's version it was allowed on: an identity check or a signature saved
      // meanwhile (which freeze) makes this save fail and the rule be asked again.
      await onFreshApplication(
        app,
        applicationId,
        async (current) => {
          if (evidenceFrozen(current, kind)) throw await frozen();
          return app.db.transaction().execute(async (trx) => {
            const saved = await applicationRepository(trx).save(current, {}, now);
            if (saved) await onboardingDocumentRepository(trx).save(applicationId, { kind, ...checked }, now);
            return saved;
          });
        },
        before,
      );
      await audit('onboarding.document_uploaded', { kind, size: checked.size });
      const replaced = kept.find((document) => document.kind === kind && document.key !== key);
      if (replaced && !kept.some((document) => document.kind !== kind && document.key === replaced.key)) {
        await app.documents.remove(replaced.key).catch((cause: unknown) => request.log.warn({ err: cause }, 'a replaced document could not be removed'));
      }
      return { kind, key, size: checked.size, checkedAt: now.toISOString() };
    },
  );

  app.get(
    '/documents',
    {
      schema: {
        tags: ['onboarding'],
        summary: 'The documents of the application that passed the check',
        headers: BEARER,
        response: { 200: { type: 'object', properties: { documents: { type: 'array', items: DOCUMENT } }, required: ['documents'] }, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const documents = await app.onboardingDocuments.list(await applicationOf(request));
      return { documents: documents.map(({ kind, key, size, checkedAt }) => ({ kind, key, size, checkedAt })) };
    },
  );
}
