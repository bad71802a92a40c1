import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../plugins/errors';
import { OnboardingTokenError } from '../../services/onboardingTokens';

/** Routes of an applicant holding an onboarding session token (the wizard's steps join them here). */
export async function onboardingPrivateRoutes(app: FastifyInstance) {
  app.post(
    '/session/renew',
    {
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['onboarding'],
        summary: 'Renews a live onboarding session token (the applicant chose to continue)',
        headers: { type: 'object', properties: { authorization: { type: 'string', maxLength: 4096 } }, required: ['authorization'] },
        response: {
          200: { type: 'object', properties: { token: { type: 'string' }, expiresIn: { type: 'integer' } }, required: ['token', 'expiresIn'] },
          '4xx': { $ref: 'error#' },
        },
      },
    },
    async (request) => {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
      try {
        const { applicationId } = await app.onboardingTokens.verify(bearer);
        await app.auditLog.append({ actor: `application:${applicationId}`, action: 'onboarding.session_renewed', subject: `application:${applicationId}`, requestId: request.id });
        return { token: await app.onboardingTokens.issue(applicationId), expiresIn: app.onboardingTokens.lifetimeSeconds };
      } catch (error) {
        if (error instanceof OnboardingTokenError) throw new ApiError(401, error.code, 'The onboarding session is not valid');
        throw error;
      }
    },
  );
}
