import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether the server is closing (SIGTERM): /health answers 503 and every answer closes its connection. */
    shuttingDown: () => boolean;
  }
}

/**
 * What closing looks like from outside (docs/server.md, "A deploy"). Once `app.close()` starts, before the
 * server stops listening: /health fails, so a load balancer that still routes here takes the process out;
 * each answer sent from then on says `Connection: close`, so its client opens its next connection elsewhere;
 * and a kept-alive connection is closed as soon as its answer is over, so the listener's close is not held
 * up by a client that keeps an idle connection open.
 */
export const shutdownPlugin = fp(async (app: FastifyInstance) => {
  let closing = false;
  app.decorate('shuttingDown', () => closing);
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async () => {
    // After Node's own handling of the finished answer, which is when the connection counts as idle.
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
});
