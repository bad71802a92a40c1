import type { FastifyInstance } from 'fastify';
import { ID_TYPES, signUpSchema } from '../../../src/validation/onboarding';
import { toFieldErrors, validateSchema } from '../../../src/validation/validate';
import { canonicalIdDocument } from '../../../src/validation';
import { ApiError } from '../../plugins/errors';
import { codeFailure } from '../codeAnswers';
import { requesterOf } from '../../services/messaging/budget';
import { answersPersonalData } from '../../plugins/personalData';
import { codeText, EMAIL_CODE_SUBJECT, messageLocale } from '../../services/messaging/texts';
import { maskEmail, REGISTRATION_SECONDS } from '../../services/onboardingApplications';
import { identityCheckWebhookRoutes } from './identityCheckWebhook';

const REGISTERED = {
  type: 'object',
  properties: { token: { type: 'string' }, expiresIn: { type: 'integer' }, maskedEmail: { type: 'string' }, resendAfterSeconds: { type: 'integer' } },
  required: ['token', 'expiresIn', 'maskedEmail', 'resendAfterSeconds'],
} as const;

interface RegisterBody {
  email: string;
  idType: (typeof ID_TYPES)[number];
  id: string;
  passportExpeditionCountry?: string;
  privacyPolicy: boolean;
  precontractualInformation: boolean;
  promotionalCode?: string;
  promotionalCodeFromParam?: boolean;
  sessionId: string;
}

/** The public start of onboarding (/signUp's answers, confirmed by a code sent to the e-mail given) and the identity provider's webhook. */
export async function onboardingRoutes(app: FastifyInstance) {
  answersPersonalData(app);
  await app.register(identityCheckWebhookRoutes);
  app.post<{ Body: RegisterBody }>(
    '/register',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Starts a sign-up: sends a 6-digit code to the e-mail given; the same answer whether or not the e-mail or the ID is known',
        description:
          'Needs a captcha pass for sessionId. The token names the sign-up until its code is confirmed at ' +
          '`onboarding-management-private/email/verify`, which decides between a new application, one to resume and an existing customer. ' +
          '423 CODE_BLOCKED { retryAfterSeconds } while the e-mail or the ID document is blocked after too many wrong codes (nothing is sent: ' +
          'the code could not be used). 429 MESSAGE_BUDGET_EXCEEDED { retryAfterSeconds } when the e-mails to this address, from this client or in all are spent for now.',
        body: {
          type: 'object',
          additionalProperties: false,
          properties: {
            email: { type: 'string', maxLength: 254 },
            idType: { type: 'string', enum: [...ID_TYPES] },
            id: { type: 'string', maxLength: 32 },
            passportExpeditionCountry: { type: 'string', maxLength: 2 },
            privacyPolicy: { type: 'boolean' },
            precontractualInformation: { type: 'boolean' },
            promotionalCode: { type: 'string', maxLength: 20 },
            promotionalCodeFromParam: { type: 'boolean' },
            sessionId: { type: 'string', pattern: '^[A-Za-z0-9-]{8,64}$' },
          },
          required: ['email', 'idType', 'id', 'privacyPolicy', 'precontractualInformation', 'sessionId'],
        },
        response: { 200: REGISTERED, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const { sessionId, ...answers } = request.body;
      // The browser's rules, run again: a request the screen would refuse gets the same field errors.
      const invalid = toFieldErrors(await validateSchema(signUpSchema, answers));
      if (invalid.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid', { errors: invalid });
      if (!(await app.captchaGate.consumePass(sessionId, app.clock()))) throw new ApiError(403, 'CAPTCHA_REQUIRED', 'Solve the captcha first');

      const now = app.clock();
      const email = answers.email.trim().toLowerCase();
      const idDocument = answers.idType === 'passport' ? answers.id.trim().toUpperCase() : canonicalIdDocument(answers.id);
      const language = messageLocale(request.headers['accept-language']);
      // An e-mail or ID document blocked after wrong codes would refuse the code sent now: nothing is sent, and
      // the screen says until when (as a new code asked for on the code's screen would).
      const blocked = await app.codes.blockedFor('email', app.codes.signUpPeople({ email, idDocument }), app.clock(), request.ip);
      if (blocked > 0) throw codeFailure({ outcome: 'blocked', retryAfterSeconds: blocked });
      // The e-mail is paid for first: refused, nothing is made. Its budgets know nothing of customers, so the
      // refusal says nothing about who is one.
      const ticket = await app.messages.charge({ channel: 'email', to: email, purpose: 'email-code' }, requesterOf(request));
      // Nothing is looked up here: what happens to an e-mail or ID already known is decided once the code is confirmed.
      const registration = await app.applications.createRegistration(
        {
          email,
          idType: answers.idType,
          idDocument,
          language,
          answers: {
            privacyPolicyDate: now.toISOString(),
            precontractualinformationDate: now.toISOString(),
            promotionalCode: answers.promotionalCode?.trim() ?? '',
            promotionalCodeFromParam: answers.promotionalCodeFromParam ?? false,
            passportExpeditionCountry: answers.idType === 'passport' ? (answers.passportExpeditionCountry ?? '') : '',
          },
        },
        REGISTRATION_SECONDS,
        now,
      );
      const issued = await app.codes.issue({ purpose: 'email', subject: registration.id, recipient: email }, now);
      // Not sent: the sign-up goes too (its token never reaches the browser), and the form is sent again.
      await app.messages.send(ticket, { subject: EMAIL_CODE_SUBJECT[language], text: codeText('email', language, issued.code, app.codes.settings.ttlSeconds) }, () =>
        app.applications.removeRegistration(registration.id),
      );
      await app.auditLog.append({ actor: `registration:${registration.id}`, action: 'onboarding.registered', subject: `registration:${registration.id}`, requestId: request.id }, app.clock());
      // The sign-up's session ends with the sign-up: its renewals do not outlive it.
      const session = await app.onboardingTokens.grant(`registration:${registration.id}`, Math.floor(Date.parse(registration.expiresAt) / 1000));
      return {
        ...session,
        maskedEmail: maskEmail(email),
        resendAfterSeconds: issued.resendAfterSeconds,
      };
    },
  );
}
