import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { RuntimeConfig } from '../../src/config/runtimeConfig';

const LOCALE_FILES = ['es.json', 'en.json'];

/** `/config.json` (what the SPA needs to start) and `/locales/{es,en}.json` (fetched on demand). */
export async function publicFileRoutes(app: FastifyInstance, options: { runtimeConfig: RuntimeConfig; localesDir: string }) {
  app.get('/config.json', { schema: { tags: ['system'], summary: 'Runtime configuration of the web app', response: { 200: { type: 'object', additionalProperties: true } } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return options.runtimeConfig;
  });

  app.get<{ Params: { locale: string } }>(
    '/locales/:locale',
    {
      schema: {
        tags: ['system'],
        summary: 'Texts of the web app in one language',
        params: { type: 'object', properties: { locale: { type: 'string', maxLength: 16 } }, required: ['locale'] },
        response: { 200: { type: 'object', additionalProperties: { type: 'string' } }, 404: { $ref: 'error#' } },
      },
    },
    async (request, reply) => {
      // Only the two literal file names: no path is ever built from what the client sent.
      const file = LOCALE_FILES.find((name) => name === request.params.locale);
      if (!file) return reply.status(404).send({ code: 'LOCALE_NOT_FOUND', message: 'Languages: es, en' });
      const text = await readFile(path.join(options.localesDir, file), 'utf8');
      const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('application/json').send(text);
    },
  );
}
