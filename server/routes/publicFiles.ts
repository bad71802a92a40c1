import type { FastifyInstance } from 'fastify';
import type { RuntimeConfig } from '../../src/config/runtimeConfig';
import { LOCALES } from '../../src/i18n/locale';
import { compressedCopies, etagOf, preferredEncoding } from '../services/compression';
import { compileCatalog, readLocaleSource } from '../services/localeCatalogs';

/** `es.ast.json`: the same texts parsed into ICU message ASTs, so the browser needs no message parser. */
const COMPILED_SUFFIX = '.ast.json';

const url = { type: 'string', minLength: 1 } as const;

/** src/config/runtimeConfig.ts as a JSON schema: the OpenAPI document shows it, and nothing else is sent. */
const RUNTIME_CONFIG_SCHEMA = {
  type: 'object',
  properties: {
    apiBaseUrl: url,
    mainAppUrl: url,
    supportPhone: { type: 'string' },
    legalLinks: {
      type: 'object',
      properties: { privacy: url, precontract: url, biometrics: url, microbusinesses: url, companies: url, selfEmployed: url },
      required: ['privacy', 'precontract', 'biometrics', 'microbusinesses', 'companies', 'selfEmployed'],
    },
    identity: {
      type: 'object',
      properties: { region: { type: 'string' }, userPoolId: { type: 'string' }, clientId: { type: 'string' }, endpoint: url, identityPoolEndpoint: url, identityPoolId: { type: 'string' } },
      required: ['region', 'userPoolId', 'clientId', 'identityPoolId'],
    },
    storage: {
      type: 'object',
      properties: { region: { type: 'string' }, bucket: { type: 'string' }, endpoint: url, maxDocumentBytes: { type: 'integer' } },
      required: ['region', 'bucket', 'maxDocumentBytes'],
    },
    captcha: {
      type: 'object',
      properties: { provider: { enum: ['altcha', 'recaptcha'] }, siteKey: { type: 'string' }, challengeUrl: url },
      required: ['provider'],
    },
    sessionWarningSeconds: { type: 'integer' },
    smsCountries: { type: 'array', items: { type: 'string' } },
  },
  required: ['apiBaseUrl', 'mainAppUrl', 'supportPhone', 'legalLinks', 'identity', 'storage', 'captcha', 'sessionWarningSeconds', 'smsCountries'],
} as const;

/** `/config.json` (what the SPA needs to start) and `/locales/{es,en}.json` (fetched on demand). */
export async function publicFileRoutes(app: FastifyInstance, options: { runtimeConfig: RuntimeConfig; localesDir: string }) {
  const compressed = compressedCopies(8);
  app.get(
    '/config.json',
    { schema: { tags: ['system'], summary: 'Runtime configuration of the web app', response: { 200: RUNTIME_CONFIG_SCHEMA } } },
    async (_request, reply) => {
      // Changes with the deployment's environment, not with the build: never cached.
      reply.header('cache-control', 'no-store');
      return options.runtimeConfig;
    },
  );

  app.get<{ Params: { locale: string } }>(
    '/locales/:locale',
    {
      schema: {
        tags: ['system'],
        summary: 'Texts of the web app in one language: es.json or en.json, or es.ast.json / en.ast.json (parsed, as the app loads them)',
        params: { type: 'object', properties: { locale: { type: 'string', maxLength: 16 } }, required: ['locale'] },
        response: {
          200: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array' }] } },
          304: { type: 'null' },
          404: { $ref: 'error#' },
        },
      },
    },
    async (request, reply) => {
      const requested = request.params.locale;
      const compiled = requested.endsWith(COMPILED_SUFFIX);
      const name = compiled ? `${requested.slice(0, -COMPILED_SUFFIX.length)}.json` : requested;
      // Only the two literal languages: no path is ever built from what the client sent.
      const locale = LOCALES.find((candidate) => `${candidate}.json` === name);
      const source = locale ? await readLocaleSource(options.localesDir, locale) : undefined;
      if (source === undefined) return reply.status(404).send({ code: 'LOCALE_NOT_FOUND', message: 'Languages: es, en' });
      const text = compiled ? compileCatalog(source) : source;
      // The texts change between deployments under the same URL: revalidated every time, cheap with the ETag.
      const etag = etagOf(text);
      reply.header('etag', etag).header('cache-control', 'no-cache').header('vary', 'Accept-Encoding');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      reply.type('application/json; charset=utf-8');
      // About 40 KB of parsed texts, a fifth of that compressed.
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      return encoding ? reply.header('content-encoding', encoding).send(await compressed(text, encoding, etag)) : reply.send(text);
    },
  );
}
