import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { CHUNK_GROUPS_FILE, FIRST_SCREEN, FONT_GROUP } from '../../src/config/firstPage';
import type { RuntimeConfig } from '../../src/config/runtimeConfig';
import { compressedCopies, etagOf, preferredEncoding } from '../services/compression';
import { drawsFirstScreen, fillFirstScreen, pageArea, pageLocale, renderFirstPage } from '../services/firstPage';
import { loginPart, readCompiledCatalog } from '../services/localeCatalogs';

/** Paths that belong to the server, never to the SPA's history fallback. */
const SERVER_PATHS = /^\/(api|cognito|s3|dev|docs|health|locales|config\.json|assets)(\/|$)/;

/**
 * Whether a request is a page load the SPA's router should answer: a GET (or HEAD) for `/`, or for a path
 * that asks for HTML, is not the server's, and does not name a file (the dot rule of history fallbacks:
 * `/favicon.ico` missing is a 404, not the app).
 */
function isPageRequest(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const pathname = request.url.split('?', 1)[0];
  if (pathname === '/') return true;
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !SERVER_PATHS.test(pathname) && !lastSegment.includes('.') && (request.headers.accept ?? '').includes('text/html');
}

/** The build's chunk groups (webpack.config.ts), read per page load like index.html: a rebuild is served at once. */
async function readChunkGroups(root: string): Promise<Record<string, string[]>> {
  try {
    const groups: unknown = JSON.parse(await readFile(path.join(root, CHUNK_GROUPS_FILE), 'utf8'));
    return groups !== null && typeof groups === 'object' ? (groups as Record<string, string[]>) : {};
  } catch {
    // A build from before the list existed: the page loads without preloads.
    return {};
  }
}

interface SpaOptions {
  distDir: string;
  /** What `/config.json` answers: the page carries the same object. */
  runtimeConfig: RuntimeConfig;
  localesDir: string;
}

/**
 * Serves the built SPA: hashed assets (`/assets/*`, names carry a content hash) cached for a year, every
 * other file revalidated, each in the brotli or gzip made at build time when the browser accepts it; a page
 * load gets index.html with what the app needs first (services/firstPage.ts), revalidated. Anything else that
 * matches no route gets a JSON 404 with a code.
 */
export const spaPlugin = fp(async (app: FastifyInstance, { distDir, runtimeConfig, localesDir }: SpaOptions) => {
  const root = path.resolve(distDir);
  const built = existsSync(path.join(root, 'index.html'));
  const compressed = compressedCopies();

  // The page differs by language (the query, the language cookie, Accept-Language) and by screen area (the
  // path): never cached without revalidation, the ETag makes a repeat visit a 304.
  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = new URL(request.url, 'http://page');
    const locale = pageLocale({ search: url.search, cookies: request.cookies ?? {}, acceptLanguage: request.headers['accept-language'] });
    const area = pageArea(url.pathname);
    const [template, groups, catalog, firstScreen] = await Promise.all([
      readFile(path.join(root, 'index.html'), 'utf8'),
      readChunkGroups(root),
      readCompiledCatalog(localesDir, locale).catch((error: unknown) => {
        request.log.warn({ err: error, locale }, 'locale file unreadable: the page goes without its texts');
        return undefined;
      }),
      // The login screen drawn before the app runs; a build without it (or another page) goes without.
      drawsFirstScreen(url.pathname) ? readFile(path.join(root, FIRST_SCREEN.file(locale)), 'utf8').catch(() => undefined) : undefined,
    ]);
    const preload = [
      ...(groups[FONT_GROUP] ?? []).filter((file) => typeof file === 'string' && /^assets\/[\w.-]+\.woff2$/.test(file)),
      ...(groups[area] ?? []).filter((file) => typeof file === 'string' && /^assets\/[\w.-]+\.(js|css)$/.test(file)),
    ];
    // A login screen's page carries the login journey's texts only; the wizard's and the back office's, all of them.
    const login = area !== 'onboarding' && area !== 'back-office' && catalog !== undefined;
    const html = renderFirstPage(template, {
      config: runtimeConfig,
      locale,
      catalog: login ? loginPart(catalog) : catalog,
      catalogPart: login ? 'login' : undefined,
      preload,
      firstScreen: firstScreen === undefined ? undefined : fillFirstScreen(firstScreen, runtimeConfig),
    });
    const etag = etagOf(html);
    reply.header('cache-control', 'no-cache').header('vary', 'Accept-Encoding, Accept-Language, Cookie').header('etag', etag).type('text/html; charset=utf-8');
    if (request.headers['if-none-match'] === etag) return reply.status(304).send();
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    if (!encoding) return reply.send(html);
    return reply.header('content-encoding', encoding).send(await compressed(html, encoding, etag));
  };

  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The headers below decide caching; send's own max-age would override them.
      cacheControl: false,
      // The build made .br and .gz beside each text file: sent as they are to a browser that takes them.
      preCompressed: true,
      setHeaders: (response, filePath) => {
        const hashed = path.relative(root, filePath).startsWith(`assets${path.sep}`);
        response.setHeader('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // Assets are looked up per request (not only those present at start), so a rebuild is served at once.
    app.get('/assets/*', { schema: { hide: true } }, (request, reply) => reply.sendFile(path.join('assets', (request.params as { '*': string })['*'])));
    // The same URL is sent in three encodings (brotli, gzip, none): caches must keep them apart.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.url.startsWith('/assets/')) {
        const vary = String(reply.getHeader('vary') ?? '');
        if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      }
      return payload;
    });
  }

  // An attacker could search for valid URLs if the 404 handling were not rate limited.
  app.setNotFoundHandler({ preHandler: app.rateLimit() }, (request, reply) => {
    if (isPageRequest(request)) {
      if (built) return sendPage(request, reply);
      return reply.status(503).type('text/plain; charset=utf-8').send('The web app is not built yet: run `npm run build`.\n');
    }
    return reply.status(404).send({ code: 'NOT_FOUND', message: `No route for ${request.method} ${request.url.split('?', 1)[0].slice(0, 200)}` });
  });
});
