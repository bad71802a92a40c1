import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export const SESSION_COOKIE = 'divilo_session';

export const hashSessionId = (value: string) => createHash('sha256').update(value).digest('hex');

/** Sessions of customers after login. */
export async function userAuthorizationRoutes(app: FastifyInstance, { idleSeconds }: { idleSeconds: number }) {
  app.get(
    '/get-session',
    {
      schema: {
        tags: ['login'],
        summary: 'Whether this browser holds a live customer session (renews it)',
        response: {
          200: { type: 'object', properties: { authenticated: { const: true } }, required: ['authenticated'] },
          401: { $ref: 'error#' },
        },
      },
    },
    async (request, reply) => {
      const cookie = request.cookies[SESSION_COOKIE];
      const session = cookie ? await app.loginSessions.findLive(hashSessionId(cookie), idleSeconds) : undefined;
      if (!session) return reply.status(401).send({ code: 'NO_SESSION', message: 'No live session' });
      await app.loginSessions.touch(session.idHash);
      return { authenticated: true };
    },
  );
}
