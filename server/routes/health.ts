import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

const REACHABILITY = {
  type: 'object',
  description: 'What the last probe found (`reachable: null` before the first one answered); probed at most every 30 s',
  properties: { reachable: { type: ['boolean', 'null'] }, checkedAt: { type: 'string' } },
  required: ['reachable'],
} as const;

const REDIS = {
  type: 'object',
  description:
    'Only with REDIS_URL: whether the shared Redis answers now, and since when. Away, each process counts the rate limits in its own memory',
  properties: { reachable: { type: 'boolean' }, since: { type: 'string', format: 'date-time' } },
  required: ['reachable', 'since'],
} as const;

/**
 * `GET /health`, the load balancer's check: 200 while this process can serve, 503 when it cannot (its database
 * does not answer, or it is shutting down). What a shared dependency's outage weakens without stopping the
 * process is reported in a 200, never as a failure: the load balancer would otherwise take every replica out at
 * once for a Redis or an identity service they all share. `degraded`: Redis is configured and away, so each
 * process counts the rate limits alone. `identity` says whether the identity service's signing keys could be
 * fetched, from a cached probe: without them no login can be checked, but the rest of the product works.
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
        summary: 'Whether the server and its database answer, and which shared dependencies do',
        response: {
          200: {
            type: 'object',
            properties: { status: { type: 'string', enum: ['ok', 'degraded'] }, identity: REACHABILITY, redis: REDIS },
            required: ['status', 'identity'],
          },
          503: { $ref: 'error#' },
        },
      },
    },
    async (request, reply) => {
      if (app.shuttingDown()) return reply.status(503).send({ code: 'SHUTTING_DOWN', message: 'This process is shutting down' });
      try {
        await sql`select 1`.execute(app.db);
      } catch (error) {
        request.log.error({ err: error }, 'health check: the database does not answer');
        return reply.status(503).send({ code: 'DATABASE_UNAVAILABLE', message: 'The database does not answer' });
      }
      const redis = app.redisState();
      return { status: redis && !redis.reachable ? 'degraded' : 'ok', identity: app.identityReachability.current(), ...(redis ? { redis } : {}) };
    },
  );
}
