// /contact-phone and /confirm-telephone: the applicant's mobile, stored in E.164, confirmed by an SMS code
// under the login rules (attempts per person and purpose, block, resend cooldown).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parsePhoneNumberWithError, type CountryCode } from 'libphonenumber-js/min';
import { codeStepSchema, contactPhoneSchema } from '../../../src/validation/onboarding';
import { toFieldErrors, validateSchema, type ValidatableSchema } from '../../../src/validation/validate';
import { ApiError } from '../../plugins/errors';
import { maskPhone } from '../../services/messaging/types';
import { codeText, messageLocale } from '../../services/messaging/texts';
import { applicationView } from '../../services/onboardingApplications';
import { codeFailure } from '../user-authorization-management';
import { saveFresh } from './saving';
import { checkTurn } from './steps';
import { applicationOf } from './tokens';

const BEARER = { type: 'object', properties: { authorization: { type: 'string', maxLength: 4096 } }, required: ['authorization'] } as const;
const ANSWER = {
  type: 'object',
  properties: { next: { type: 'string' }, maskedPhone: { type: 'string' }, resendAfterSeconds: { type: 'integer' }, application: { type: 'object', additionalProperties: true } },
  required: ['next', 'application'],
} as const;

export async function phoneRoutes(app: FastifyInstance) {
  const validated = async (schema: ValidatableSchema, body: unknown) => {
    const invalid = toFieldErrors(await validateSchema(schema, body));
    if (invalid.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid', { errors: invalid });
  };
  const applicationFor = async (request: FastifyRequest) => {
    const application = await app.applications.find(await applicationOf(app, request));
    if (!application) throw new ApiError(404, 'APPLICATION_NOT_FOUND', 'There is no such application');
    return application;
  };
  const sendCode = async (request: FastifyRequest, phone: string, code: string) =>
    app.messages.send({ channel: 'sms', to: phone, purpose: 'phone-code', text: codeText('phone', messageLocale(request.headers['accept-language']), code, app.codes.settings.ttlSeconds) });

  app.post<{ Body: { telephoneCountry: string; telephoneNumber: string } }>(
    '/phone',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: "Saves the applicant's mobile (country and number, checked for that country) and sends it an SMS code",
        headers: BEARER,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { telephoneCountry: { type: 'string', maxLength: 2 }, telephoneNumber: { type: 'string', maxLength: 32 } },
        },
        response: { 200: ANSWER, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const body = { telephoneCountry: request.body.telephoneCountry ?? '', telephoneNumber: request.body.telephoneNumber ?? '' };
      await validated(contactPhoneSchema, body);
      const application = await applicationFor(request);
      checkTurn(application, 'contact-phone');
      const phone = parsePhoneNumberWithError(body.telephoneNumber, body.telephoneCountry as CountryCode).number;
      // A new number must be confirmed again.
      const saved = await saveFresh(app, application.id, (current) => {
        const kept = current.completedSteps.filter((step) => step !== 'confirm-telephone' || current.answers.telephoneNumber === phone);
        return {
          answers: { ...current.answers, telephoneCountry: body.telephoneCountry, telephoneNumber: phone },
          completedSteps: kept.includes('contact-phone') ? kept : [...kept, 'contact-phone'],
        };
      });
      const issued = await app.codes.issue({ purpose: 'phone', subject: application.id, recipient: phone });
      await sendCode(request, phone, issued.code);
      const actor = `application:${application.id}`;
      await app.auditLog.append({ actor, action: 'onboarding.phone_code_sent', subject: actor, requestId: request.id });
      return { next: 'confirm-telephone', maskedPhone: maskPhone(phone), resendAfterSeconds: issued.resendAfterSeconds, application: applicationView(saved) };
    },
  );

  app.post<{ Body: { code: string } }>(
    '/phone/verify',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Confirms the SMS code sent to the mobile; codes follow the login rules (401 CODE_INVALID with attemptsLeft, 423, 410)',
        headers: BEARER,
        body: { type: 'object', additionalProperties: false, properties: { code: { type: 'string', maxLength: 16 } }, required: ['code'] },
        response: { 200: ANSWER, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      await validated(codeStepSchema, request.body);
      const application = await applicationFor(request);
      checkTurn(application, 'confirm-telephone');
      const actor = `application:${application.id}`;
      const result = await app.codes.checkLatest('phone', application.id, request.body.code.trim());
      if (result.outcome !== 'valid') {
        await app.auditLog.append({ actor, action: `onboarding.phone_code_${result.outcome}`, subject: actor, requestId: request.id });
        throw codeFailure(result);
      }
      // The code confirms the number it was sent to, which must still be the one saved.
      if (result.recipient !== application.answers.telephoneNumber) throw codeFailure({ outcome: 'expired' });
      const saved = await saveFresh(app, application.id, (current) => ({ completedSteps: [...new Set([...current.completedSteps, 'confirm-telephone'])] }));
      await app.auditLog.append({ actor, action: 'onboarding.phone_confirmed', subject: actor, requestId: request.id });
      return { next: 'register-as', application: applicationView(saved) };
    },
  );

  app.post(
    '/phone/resend',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Sends a new SMS code to the mobile, once the cooldown is over (429 RESEND_TOO_SOON with retryAfterSeconds otherwise)',
        headers: BEARER,
        response: { 200: { type: 'object', properties: { resendAfterSeconds: { type: 'integer' } }, required: ['resendAfterSeconds'] }, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const application = await applicationFor(request);
      const challenge = await app.codes.findLatest('phone', application.id);
      if (!challenge) throw codeFailure({ outcome: 'expired' });
      const result = await app.codes.resend(challenge.id);
      if (result.outcome === 'too-soon') throw new ApiError(429, 'RESEND_TOO_SOON', 'Wait before asking for another code', { retryAfterSeconds: result.retryAfterSeconds });
      if (result.outcome !== 'sent') throw codeFailure(result);
      await sendCode(request, result.recipient, result.code);
      return { resendAfterSeconds: result.resendAfterSeconds };
    },
  );
}
