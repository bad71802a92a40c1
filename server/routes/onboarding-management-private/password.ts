// /divilo-password: the sign-in credentials. The password is kept sealed until the applicant's identity is verified:
// then the applicant becomes a user of the identity service (their ID document as username, the confirmed phone for
// the login SMS), unable to sign in (ERR-2809) until approval. A user made before verification would hold the ID
// document against its real holder (server/services/signInUsers.ts).
import type { FastifyInstance } from 'fastify';
import { diviloPasswordSchema } from '../../../src/validation/onboarding';
import { toFieldErrors, validateSchema } from '../../../src/validation/validate';
import { ApiError } from '../../plugins/errors';
import { IdentityError } from '../../services/identity';
import { applicationView, nextAfter } from '../../services/onboardingApplications';
import { checkTurn } from '../../services/stepSaving';
import { openApplicationOf } from './tokens';
import { BEARER } from './schemas';

const PASSWORD_RULE = [{ field: 'diviloPassword', id: 'validations.diviloPassword', values: { min: 8, max: 99 } }];

export async function passwordRoutes(app: FastifyInstance) {
  app.post<{ Body: { diviloPassword?: string; diviloPasswordConfirmation?: string } }>(
    '/password',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Sets the password the customer will log in with (the product password rule); the answer never repeats it',
        headers: BEARER,
        body: {
          type: 'object',
          additionalProperties: false,
          properties: { diviloPassword: { type: 'string', maxLength: 256 }, diviloPasswordConfirmation: { type: 'string', maxLength: 256 } },
        },
        response: { 200: { type: 'object', properties: { next: { type: 'string' }, application: { type: 'object', additionalProperties: true } }, required: ['next', 'application'] }, '4xx': { $ref: 'error#' } },
      },
    },
    async (request) => {
      const body = { diviloPassword: request.body.diviloPassword ?? '', diviloPasswordConfirmation: request.body.diviloPasswordConfirmation ?? '' };
      const invalid = toFieldErrors(await validateSchema(diviloPasswordSchema, body));
      if (invalid.length > 0) throw new ApiError(400, 'VALIDATION_FAILED', 'The request is not valid', { errors: invalid });
      const application = await openApplicationOf(app, request);
      checkTurn(application, 'divilo-password');

      const username = application.idDocument;
      const existing = await app.identity.getUser(username);
      const ours = existing !== undefined && existing.sub === application.answers.identityUserSub;
      // Any user of this ID but the one this application made is a customer's, or a verified applicant's. One it made
      // and did not get to record (the identity service went away meanwhile) is its own: ensureUser below records it.
      if (existing && !app.signInUsers.isOwn(application, existing)) throw new ApiError(409, 'ALREADY_A_CUSTOMER', 'This ID document already has an account');
      const now = app.clock();
      try {
        // Verified already (a password chosen again): the user has it at once; otherwise it waits, sealed.
        if (ours) await app.identity.setPassword(username, body.diviloPassword, true);
        else await app.signInUsers.passwords.keep(application.id, body.diviloPassword, now);
      } catch (error) {
        if (error instanceof IdentityError && error.code === 'INVALID_PASSWORD') throw new ApiError(400, 'VALIDATION_FAILED', 'The password does not follow the rule', { errors: PASSWORD_RULE });
        throw error;
      }
      const stepped = await app.applications.save(
        application,
        { completedSteps: application.completedSteps.includes('divilo-password') ? application.completedSteps : [...application.completedSteps, 'divilo-password'] },
        now,
      );
      if (!stepped) throw new ApiError(409, 'CONCURRENT_CHANGE', 'The application changed meanwhile: try again');
      const saved = ours ? stepped : await app.signInUsers.ensureUser(stepped, now);
      const actor = `application:${application.id}`;
      await app.auditLog.append({ actor, action: 'onboarding.password_set', subject: actor, requestId: request.id }, app.clock());
      return { next: nextAfter('divilo-password', saved), application: applicationView(saved) };
    },
  );
}
