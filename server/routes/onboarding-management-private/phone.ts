// /contact-phone and /confirm-telephone: the applicant's mobile (a mobile of a country the bank texts, never a
// special-rate number), stored in E.164, confirmed by an SMS code under the login rules (attempts per person and
// purpose, block, resend cooldown). Every SMS is paid for out of the message budgets before its code is made.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { codeStepSchema } from '../../../src/validation/onboarding';
import { contactPhoneSchema, toE164 } from '../../../src/validation/phone';
import { toFieldErrors, validateSchema, type ValidatableSchema } from '../../../src/validation/validate';
import { ApiError } from '../../plugins/errors';
import { maskPhone } from '../../services/messaging/types';
import { applicationView, nextAfter } from '../../services/onboardingApplications';
import { codeFailure, resendTooSoon } from '../codeAnswers';
import { smsCodes } from './smsCodes';
import { saveFresh } from './saving';
import { checkTurn } from '../../services/stepSaving';
import { openApplicationOf } from './tokens';
import { BEARER, RESENT } from './schemas';

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
    const application = await openApplicationOf(app, request);
    return application;
  };
  const phoneSchema = contactPhoneSchema(app.smsCountries);
  const { charge: chargeSms, send: sendCode, resend } = smsCodes(app, 'phone');

  app.post<{ Body: { telephoneCountry: string; telephoneNumber: string } }>(
    '/phone',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: "Saves the applicant's mobile (a mobile of a country the bank texts) and sends it an SMS code",
        description:
          '400 VALIDATION_FAILED (validations.phoneNumber, phoneNotMobile, phoneSpecialRate, phoneCountryNotServed); 423 CODE_BLOCKED after too many wrong codes; ' +
          '429 RESEND_TOO_SOON { retryAfterSeconds } within the cooldown of the last code, whatever the number; 429 MESSAGE_BUDGET_EXCEEDED { retryAfterSeconds }.',
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
      await validated(phoneSchema, body);
      const application = await applicationFor(request);
      checkTurn(application, 'contact-phone');
      // Nothing is sent to a person blocked for wrong codes, nor sooner than a resend would be: changing the
      // number is no way around either, nor asking for several at once. Refused, the number saved stays as it was.
      const blocked = await app.codes.blockedFor('phone', application.id);
      if (blocked > 0) throw codeFailure({ outcome: 'blocked', retryAfterSeconds: blocked });
      const wait = await app.codes.claimTurn('phone', application.id);
      if (wait > 0) throw resendTooSoon(wait);
      const phone = toE164(body.telephoneNumber, body.telephoneCountry);
      const ticket = await chargeSms(request, application.id, phone);
      // A new number must be confirmed again. Checked again on the application as it now stands: signed or
      // closed meanwhile (a signature sent at the same moment), its number stays and nothing is texted.
      const saved = await saveFresh(app, application.id, (current) => {
        checkTurn(current, 'contact-phone');
        const kept = current.completedSteps.filter((step) => step !== 'confirm-telephone' || current.answers.telephoneNumber === phone);
        return {
          answers: { ...current.answers, telephoneCountry: body.telephoneCountry, telephoneNumber: phone },
          completedSteps: kept.includes('contact-phone') ? kept : [...kept, 'contact-phone'],
        };
      });
      const issued = await app.codes.issue({ purpose: 'phone', subject: application.id, recipient: phone });
      await sendCode(request, ticket, issued);
      const actor = `application:${application.id}`;
      await app.auditLog.append({ actor, action: 'onboarding.phone_code_sent', subject: actor, requestId: request.id }, app.clock());
      return { next: nextAfter('contact-phone', saved), maskedPhone: maskPhone(phone), resendAfterSeconds: issued.resendAfterSeconds, application: applicationView(saved) };
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
        await app.auditLog.append({ actor, action: `onboarding.phone_code_${result.outcome}`, subject: actor, requestId: request.id }, app.clock());
        throw codeFailure(result);
      }
      // The code confirms the number it was sent to, which must still be the one saved as the application now
      // stands (another number asked for at the same moment is not confirmed by this code).
      const saved = await saveFresh(app, application.id, (current) => {
        checkTurn(current, 'confirm-telephone');
        if (result.recipient !== current.answers.telephoneNumber) throw codeFailure({ outcome: 'expired' });
        return { completedSteps: [...new Set([...current.completedSteps, 'confirm-telephone'])] };
      });
      await app.auditLog.append({ actor, action: 'onboarding.phone_confirmed', subject: actor, requestId: request.id }, app.clock());
      return { next: nextAfter('confirm-telephone', saved), application: applicationView(saved) };
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
        response: { 200: RESENT, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const application = await applicationFor(request);
      // A code only while the phone waits for it: not once the bank cannot serve the applicant, nor in a round of changes.
      checkTurn(application, 'confirm-telephone');
      const resendAfterSeconds = await resend(request, application.id);
      const actor = `application:${application.id}`;
      await app.auditLog.append({ actor, action: 'onboarding.phone_code_sent', subject: actor, requestId: request.id, details: { resend: true } }, app.clock());
      return { resendAfterSeconds };
    },
  );
}
