import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Paths that belong to the server, never to the SPA's history fallback. */
const SERVER_PATHS = /^\/(api|cognito|s3|dev|docs|health|locales|config\.json|assets)(\/|$|\?)/;

/**
 * Serves the built SPA: hashed assets for a year, everything else revalidated; any other GET that asks for
 * HTML gets index.html (the app's router takes it from there). Unknown API paths get a JSON 404.
 */
export const spaPlugin = fp(async (app: FastifyInstance, { distDir }: { distDir: string }) => {
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: path.resolve(distDir),
      wildcard: false,
      index: false,
      setHeaders: (res, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    app.get('/assets/*', { schema: { hide: true } }, (request, reply) =>
      reply.sendFile(path.join('assets', (request.params as { '*': string })['*'])),
    );
  }

  // An attacker could search for valid URLs if the 404 handling were not rate limited.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    const wantsPage = request.method === 'GET' && !SERVER_PATHS.test(request.url) && (request.headers.accept ?? '').includes('text/html');
    if (wantsPage && built) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    if (wantsPage) return reply.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.\n');
    return reply.status(404).send({ code: 'NOT_FOUND', message: `No route for ${request.method} ${request.url.split('?')[0]}` });
  });
});
