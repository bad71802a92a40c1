import type { FastifyInstance } from 'fastify';
import { codeStepSchema } from '../../../src/validation/onboarding';
import { toFieldErrors, validateSchema } from '../../../src/validation/validate';
import { ApiError } from '../../plugins/errors';
import { requesterOf } from '../../services/messaging/budget';
import { codeText, EMAIL_CODE_SUBJECT } from '../../services/messaging/texts';
import { applicationView, confirmRegistration } from '../../services/onboardingApplications';
import { codeFailure, resendTooSoon } from '../user-authorization-management';
import { applicationOf, registrationOf } from './tokens';

const BEARER = { type: 'object', properties: { authorization: { type: 'string', maxLength: 4096 } }, required: ['authorization'] } as const;

const APPLICATION = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    status: { type: 'string' },
    personType: { type: ['string', 'null'] },
    currentStep: { type: 'string' },
    completedSteps: { type: 'array', items: { type: 'string' } },
    answers: { type: 'object', additionalProperties: true },
    maskedEmail: { type: 'string' },
  },
  required: ['id', 'status', 'currentStep', 'completedSteps', 'answers', 'maskedEmail'],
} as const;

/** The sign-up's e-mail code (/reg-code), and the application it opens or resumes. */
export async function registrationRoutes(app: FastifyInstance) {
  /** The sign-up a token names, still waiting for its code; 410 REGISTRATION_EXPIRED once it is gone. */
  const registrationFor = async (id: string) => {
    const registration = await app.applications.findRegistration(id, app.codes.now());
    if (!registration) throw new ApiError(410, 'REGISTRATION_EXPIRED', 'The sign-up has expired: start again');
    return registration;
  };

  app.post<{ Body: { code: string } }>(
    '/email/verify',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: "Confirms the sign-up's e-mail code: opens a new application, resumes one, or says the applicant is a customer already",
        description:
          'Answers `next`: `personal-info` (or the step to resume) with the application and a token naming it, or `already-exists`. ' +
          'Codes follow the login rules: 401 CODE_INVALID with attemptsLeft, 423 CODE_BLOCKED, 410 CODE_EXPIRED.',
        headers: BEARER,
        body: { type: 'object', additionalProperties: false, properties: { code: { type: 'string', maxLength: 16 } }, required: ['code'] },
        response: {
          200: {
            type: 'object',
            properties: { next: { type: 'string' }, token: { type: 'string' }, expiresIn: { type: 'integer' }, application: { anyOf: [APPLICATION, { type: 'null' }] } },
            required: ['next', 'application'],
          },
          '4xx': { $ref: 'error#' },
        },
      },
    },
    async (request) => {
      const registrationId = await registrationOf(app, request);
      const invalid = toFieldErrors(await validateSchema(codeStepSchema, request.body));
      if (invalid.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid', { errors: invalid });
      const registration = await registrationFor(registrationId);
      const actor = `registration:${registrationId}`;
      const result = await app.codes.checkLatest('email', registrationId, request.body.code.trim());
      if (result.outcome !== 'valid') {
        await app.auditLog.append({ actor, action: `onboarding.email_code_${result.outcome}`, subject: actor, requestId: request.id });
        throw codeFailure(result);
      }
      const now = app.codes.now();
      const confirmed = await confirmRegistration(registration, { applications: app.applications, identity: app.identity, holds: app.signInUsers.holds }, now);
      await app.applications.removeRegistration(registrationId);
      if (confirmed.outcome === 'already-exists') {
        await app.auditLog.append({ actor, action: 'onboarding.already_exists', subject: actor, requestId: request.id });
        return { next: 'already-exists', application: null };
      }
      const { application } = confirmed;
      await app.auditLog.append({ actor, action: `onboarding.application_${confirmed.outcome}`, subject: `application:${application.id}`, requestId: request.id });
      const view = applicationView(application);
      return { next: view.currentStep, token: await app.onboardingTokens.issue(application.id), expiresIn: app.onboardingTokens.lifetimeSeconds, application: view };
    },
  );

  app.post(
    '/email/resend',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: "Sends a new e-mail code for the sign-up, once the cooldown is over (429 RESEND_TOO_SOON with retryAfterSeconds otherwise)",
        description: '423 CODE_BLOCKED after too many wrong codes; 429 MESSAGE_BUDGET_EXCEEDED { retryAfterSeconds } when the e-mails to this address, from this client or in all are spent for now.',
        headers: BEARER,
        response: { 200: { type: 'object', properties: { resendAfterSeconds: { type: 'integer' } }, required: ['resendAfterSeconds'] }, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const registration = await registrationFor(await registrationOf(app, request));
      // Blocked, the person is told until when (the block used up the challenge).
      const blocked = await app.codes.blockedFor('email', registration.id);
      if (blocked > 0) throw codeFailure({ outcome: 'blocked', retryAfterSeconds: blocked });
      const challenge = await app.codes.findLatest('email', registration.id);
      if (!challenge) throw codeFailure({ outcome: 'expired' });
      const ready = await app.codes.resendable(challenge.id);
      if (ready.outcome === 'too-soon') throw resendTooSoon(ready.retryAfterSeconds);
      if (ready.outcome !== 'ready') throw codeFailure(ready);
      const actor = `registration:${registration.id}`;
      const ticket = await app.messages.charge({ channel: 'email', to: registration.email, purpose: 'email-code' }, requesterOf(request, actor));
      const result = await app.codes.resend(challenge.id);
      if (result.outcome === 'too-soon') throw resendTooSoon(result.retryAfterSeconds);
      if (result.outcome !== 'sent') throw codeFailure(result);
      await app.messages.send(ticket, { subject: EMAIL_CODE_SUBJECT[registration.language], text: codeText('email', registration.language, result.code, app.codes.settings.ttlSeconds) });
      await app.auditLog.append({ actor, action: 'onboarding.email_code_sent', subject: actor, requestId: request.id });
      return { resendAfterSeconds: result.resendAfterSeconds };
    },
  );

  app.get(
    '/application',
    {
      schema: {
        tags: ['onboarding'],
        summary: 'The application: its answers (never a secret), the steps done and the step to resume at',
        headers: BEARER,
        response: { 200: APPLICATION, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const application = await app.applications.find(await applicationOf(app, request));
      if (!application) throw new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application');
      return applicationView(application);
    },
  );
}
