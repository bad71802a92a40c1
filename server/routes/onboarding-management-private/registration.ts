import type { FastifyInstance } from 'fastify';
import { codeStepSchema } from '../../../src/validation/onboarding';
import { toFieldErrors, validateSchema } from '../../../src/validation/validate';
import { ApiError } from '../../plugins/errors';
import { requesterOf } from '../../services/messaging/budget';
import type { MessageTicket } from '../../services/messaging/messaging';
import type { MadeCode } from '../../services/oneTimeCodes';
import { codeText, EMAIL_CODE_SUBJECT } from '../../services/messaging/texts';
import { applicationView, confirmRegistration } from '../../services/onboardingApplications';
import { codeFailure, resendTooSoon } from '../codeAnswers';
import { anyApplicationOf, isClosed, registrationOf } from './tokens';
import { BEARER, RESENT } from './schemas';

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
    // What the bank asked this applicant to change, while they change it.
    requestedChanges: {
      type: 'object',
      properties: { steps: { type: 'array', items: { type: 'string' } }, text: { type: 'string' } },
      required: ['steps', 'text'],
    },
  },
  required: ['id', 'status', 'currentStep', 'completedSteps', 'answers', 'maskedEmail'],
} as const;

/** What a signed, approved or rejected application shows its token. */
const CLOSED_APPLICATION = {
  type: 'object',
  additionalProperties: false,
  properties: { id: { type: 'string' }, status: { type: 'string', enum: ['pending-review', 'approved', 'rejected'] } },
  required: ['id', 'status'],
} as const;

/** The sign-up's e-mail code (/reg-code), and the application it opens or resumes. */
export async function registrationRoutes(app: FastifyInstance) {
  /** The sign-up a token names, still waiting for its code; 410 REGISTRATION_EXPIRED once it is gone. */
  const registrationFor = async (id: string) => {
    const registration = await app.applications.findRegistration(id, app.clock());
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
      const result = await app.codes.checkLatest('email', registrationId, request.body.code.trim(), app.clock(), app.codes.signUpPeople(registration), request.ip);
      if (result.outcome !== 'valid') {
        await app.auditLog.append({ actor, action: `onboarding.email_code_${result.outcome}`, subject: actor, requestId: request.id }, app.clock());
        throw codeFailure(result);
      }
      // The address read its code: from now on its e-mails are a real applicant's, out of the e-mail total.
      await app.messages.budget.emailProven(registration.email);
      const now = app.clock();
      // The identity service unreachable (503): the code is not used up, and the same code confirms once it is back.
      const confirmed = await confirmRegistration(registration, { applications: app.applications, identity: app.identity, holds: app.signInUsers.holds }, now).catch(async (error: unknown) => {
        await app.codes.reopen(result.answered);
        throw error;
      });
      await app.applications.removeRegistration(registrationId);
      if (confirmed.outcome === 'already-exists') {
        await app.auditLog.append({ actor, action: 'onboarding.already_exists', subject: actor, requestId: request.id }, app.clock());
        return { next: 'already-exists', application: null };
      }
      const { application } = confirmed;
      await app.auditLog.append({ actor, action: `onboarding.application_${confirmed.outcome}`, subject: `application:${application.id}`, requestId: request.id }, app.clock());
      const view = applicationView(application);
      // The e-mail code starts the application's session: its end is fixed here and every renewal carries it.
      return { next: view.currentStep, ...(await app.onboardingTokens.grant(application.id)), application: view };
    },
  );

  app.post(
    '/email/resend',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: "Sends a new e-mail code for the sign-up, once the cooldown is over (429 RESEND_TOO_SOON with retryAfterSeconds otherwise)",
        description:
          '423 CODE_BLOCKED { retryAfterSeconds } while the e-mail or the ID document is blocked after too many wrong codes; once the block is over, ' +
          'a new code (the block used the last one up). 429 MESSAGE_BUDGET_EXCEEDED { retryAfterSeconds } when the e-mails to this address, from this client or in all are spent for now.',
        headers: BEARER,
        response: { 200: RESENT, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const registration = await registrationFor(await registrationOf(app, request));
      // Blocked, the person is told until when (the block used up the challenge).
      const blocked = await app.codes.blockedFor('email', app.codes.signUpPeople(registration), app.clock(), request.ip);
      if (blocked > 0) throw codeFailure({ outcome: 'blocked', retryAfterSeconds: blocked });
      const actor = `registration:${registration.id}`;
      const charge = () => app.messages.charge({ channel: 'email', to: registration.email, purpose: 'email-code' }, requesterOf(request, actor));
      const challenge = await app.codes.findLatest('email', registration.id);
      let ticket: MessageTicket;
      let sent: MadeCode & { resendAfterSeconds: number };
      if (challenge) {
        const ready = await app.codes.resendable(challenge.id);
        if (ready.outcome === 'too-soon') throw resendTooSoon(ready.retryAfterSeconds);
        if (ready.outcome !== 'ready') throw codeFailure(ready);
        ticket = await charge();
        const result = await app.codes.resend(challenge.id);
        if (result.outcome === 'too-soon') throw resendTooSoon(result.retryAfterSeconds);
        if (result.outcome !== 'sent') throw codeFailure(result);
        sent = result;
      } else {
        // The block is over and used the last code up: the sign-up, still live, gets a new one.
        const wait = await app.codes.reissueWait('email', registration.id);
        if (wait > 0) throw resendTooSoon(wait);
        ticket = await charge();
        const result = await app.codes.reissue({ purpose: 'email', subject: registration.id, recipient: registration.email });
        if (result.outcome === 'too-soon') throw resendTooSoon(result.retryAfterSeconds);
        sent = result;
      }
      await app.messages.send(ticket, { subject: EMAIL_CODE_SUBJECT[registration.language], text: codeText('email', registration.language, sent.code, app.codes.settings.ttlSeconds) }, () =>
        app.codes.notDelivered(sent),
      );
      await app.auditLog.append({ actor, action: 'onboarding.email_code_sent', subject: actor, requestId: request.id }, app.clock());
      return { resendAfterSeconds: sent.resendAfterSeconds };
    },
  );

  app.get(
    '/application',
    {
      schema: {
        tags: ['onboarding'],
        summary: 'The application: its answers (never a secret), the steps done and the step to resume at',
        description: 'Once the application is signed, approved or rejected, its id and status only.',
        headers: BEARER,
        response: { 200: { anyOf: [APPLICATION, CLOSED_APPLICATION] }, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const application = await app.applications.find(await anyApplicationOf(app, request));
      if (!application) throw new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application');
      // The applicant's part is over: a token still about (a shared computer, a copied link) learns how it went, no more.
      if (isClosed(application.status)) return { id: application.id, status: application.status };
      return applicationView(application);
    },
  );
}
