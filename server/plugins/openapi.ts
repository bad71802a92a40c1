import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The OpenAPI document, built from the routes' schemas, and its reader at /docs. */
export const openapiPlugin = fp(async (app: FastifyInstance, { publicUrl }: { publicUrl: string }) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Divilo onboarding API', version: '1.0.0', description: 'Onboarding, login and credentials of Divilo business accounts.' },
      servers: [{ url: publicUrl }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
});
