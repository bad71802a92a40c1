import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** The OpenAPI document, built from the routes' schemas (app.swagger()), and its reader at /docs when enabled. */
export const openapiPlugin = fp(async (app: FastifyInstance, { publicUrl, reader }: { publicUrl: string; reader: boolean }) => {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Divilo onboarding API', version: '1.0.0', description: 'Onboarding, login and credentials of Divilo business accounts.' },
      servers: [{ url: publicUrl }],
    },
  });
  // The reader tells anyone the whole API's shape: a choice for each deployment, off by default in production.
  if (reader) await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
});
