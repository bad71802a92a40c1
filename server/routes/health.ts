import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

/** `GET /health`: 200 when the database answers a trivial query, 503 when it does not. */
export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/health',
    {
      // Load balancers poll it from few addresses; `select 1` costs nothing worth limiting.
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Whether the server and its database answer',
        response: { 200: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] }, 503: { $ref: 'error#' } },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' };
      } catch (error) {
        request.log.error({ err: error }, 'health check: the database does not answer');
        return reply.status(503).send({ code: 'DATABASE_UNAVAILABLE', message: 'The database does not answer' });
      }
    },
  );
}
