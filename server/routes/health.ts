import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

const REACHABILITY = {
  type: 'object',
  description: 'What the last probe found (`reachable: null` before the first one answered); probed at most every 30 s',
  properties: { reachable: { type: ['boolean', 'null'] }, checkedAt: { type: 'string' } },
  required: ['reachable'],
} as const;

/**
 * `GET /health`: 200 when the database answers a trivial query, 503 when it does not. It also says whether
 * the identity service's signing keys could be fetched, from a cached probe: without them no login can be
 * checked, but the rest of the product works, so it does not take the process out of the load balancer.
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get(
    '/health',
    {
      // Load balancers poll it from few addresses; `select 1` costs nothing worth limiting, and the identity
      // probe runs at most every 30 s whatever the number of calls.
      config: { rateLimit: false },
      schema: {
        tags: ['system'],
        summary: 'Whether the server and its database answer, and whether the identity service did',
        response: {
          200: { type: 'object', properties: { status: { const: 'ok' }, identity: REACHABILITY }, required: ['status', 'identity'] },
          503: { $ref: 'error#' },
        },
      },
    },
    async (request, reply) => {
      try {
        await sql`select 1`.execute(app.db);
      } catch (error) {
        request.log.error({ err: error }, 'health check: the database does not answer');
        return reply.status(503).send({ code: 'DATABASE_UNAVAILABLE', message: 'The database does not answer' });
      }
      return { status: 'ok', identity: app.identityReachability.current() };
    },
  );
}
