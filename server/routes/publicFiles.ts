import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import type { FastifyInstance } from 'fastify';
import type { RuntimeConfig } from '../../src/config/runtimeConfig';

const LOCALE_FILES = ['es.json', 'en.json'];
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
      properties: { region: { type: 'string' }, userPoolId: { type: 'string' }, clientId: { type: 'string' }, endpoint: url, identityPoolId: { type: 'string' } },
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
  },
  required: ['apiBaseUrl', 'mainAppUrl', 'supportPhone', 'legalLinks', 'identity', 'storage', 'captcha', 'sessionWarningSeconds'],
} as const;

/** `/config.json` (what the SPA needs to start) and `/locales/{es,en}.json` (fetched on demand). */
export async function publicFileRoutes(app: FastifyInstance, options: { runtimeConfig: RuntimeConfig; localesDir: string }) {
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
      // Only the two literal file names: no path is ever built from what the client sent.
      const file = LOCALE_FILES.find((candidate) => candidate === name);
      const source = file ? await readLocale(path.join(options.localesDir, file)) : undefined;
      if (source === undefined) return reply.status(404).send({ code: 'LOCALE_NOT_FOUND', message: 'Languages: es, en' });
      const text = compiled ? compileCatalog(source) : source;
      // The texts change between deployments under the same URL: revalidated every time, cheap with the ETag.
      const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.status(304).send();
      return reply.type('application/json; charset=utf-8').send(text);
    },
  );
}

async function readLocale(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

const compiledCatalogs = new Map<string, string>();

/** The catalog with every message parsed (cached per source text: the files change only between deployments). */
function compileCatalog(source: string): string {
  let compiled = compiledCatalogs.get(source);
  if (compiled === undefined) {
    const messages = JSON.parse(source) as Record<string, string>;
    compiled = JSON.stringify(Object.fromEntries(Object.entries(messages).map(([id, message]) => [id, parse(message)])));
    // Two languages, and at most one older version of each while a deployment changes them.
    if (compiledCatalogs.size >= 4) compiledCatalogs.delete(compiledCatalogs.keys().next().value!);
    compiledCatalogs.set(source, compiled);
  }
  return compiled;
}
