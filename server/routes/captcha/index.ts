import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../apiError';

const SESSION_ID = { type: 'string', pattern: '^[A-Za-z0-9-]{8,64}$' } as const;

/** The captcha of seed §7: the browser's token checked here; a success becomes a pass for its session id. */
export async function captchaRoutes(app: FastifyInstance) {
  app.get(
    '/challenge',
    { schema: { tags: ['captcha'], summary: 'A proof-of-work challenge (self-hosted captcha only)', response: { 200: { type: 'object', additionalProperties: true }, 404: { $ref: 'error#' } } } },
    async (_request, reply) => {
      if (!app.captcha.createChallenge) return reply.status(404).send({ code: 'NOT_FOUND', message: 'This captcha provider issues no challenges' });
      reply.header('cache-control', 'no-store');
      return app.captcha.createChallenge();
    },
  );

  app.get<{ Querystring: { response: string; sessionId: string } }>(
    '/verify',
    {
      // Each check costs the server a little work: a tighter limit than the rest of the API.
      config: { rateLimit: app.sensitiveRateLimit },
      schema: {
        tags: ['captcha'],
        summary: 'Checks a captcha token; a success lets this browser session start one protected call',
        querystring: {
          type: 'object',
          properties: { response: { type: 'string', minLength: 1, maxLength: 8192 }, sessionId: SESSION_ID },
          required: ['response', 'sessionId'],
        },
        description: '503 SERVICE_UNAVAILABLE when the captcha provider cannot be reached (the browser says so and asks to try again).',
        response: { 200: { type: 'object', properties: { success: { type: 'boolean' } }, required: ['success'] }, 503: { $ref: 'error#' } },
      },
    },
    async (request) => {
      const result = await app.captcha.verify(request.query.response, { remoteIp: request.ip, action: undefined });
      // Not the person's failure: Google's verification did not answer (FETCH_TIMEOUT_MS) or answered an error.
      if (result.reason === 'unavailable') throw new ApiError(503, 'SERVICE_UNAVAILABLE', 'The captcha provider is not reachable right now; try again in a moment');
      if (result.success) await app.captchaGate.grantPass(request.query.sessionId, app.clock());
      else request.log.info({ reason: result.reason }, 'captcha refused');
      return { success: result.success };
    },
  );
}
