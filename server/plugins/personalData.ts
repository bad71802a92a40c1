// Answers that carry an applicant's or a customer's data (the application, its documents, the contract, the
// session and login answers) are never kept by a browser's or a proxy's cache: a shared computer's back button
// or disk cache would show them to the next person. A route says so in its config; one hook sends the header.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers personal data: `Cache-Control: no-store` on every answer, errors included. */
    personalData?: boolean;
  }
}

export const personalDataPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply) => {
    if (request.routeOptions.config.personalData) reply.header('cache-control', 'no-store');
  });
});

/**
 * Marks every route `area` declares from now on as answering personal data (unless one says otherwise), so a
 * new route of an area that serves applicants cannot forget it. Call it before the area registers its routes.
 */
export function answersPersonalData(area: FastifyInstance): void {
  area.addHook('onRoute', (route) => {
    route.config = { ...route.config, personalData: route.config?.personalData ?? true };
  });
}
