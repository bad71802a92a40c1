import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/health',
    {
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Whether the server and its database answer',
        response: { 200: { type: 'object', properties: { status: { const: 'ok' } } }, 503: { $ref: 'error#' } },
      },
    },
    async (_request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' };
      } catch {
        return reply.status(503).send({ code: 'DATABASE_UNAVAILABLE', message: 'The database does not answer' });
      }
    },
  );
}
