// The floor page of `npm run bench:first-load`: the least a React page with the product's typeface can cost.
// React and react-dom as the product ships them (the product's webpack configuration, production mode, the
// same compression), rendering one labelled input, with the product's font faces (src/styles/fonts.css) and
// the same font preloads as /login's page. Built into a throw-away folder and served from it by a bare static
// server: no data blocks, no security headers, nothing but the files.
import { createReadStream, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import webpack, { type Configuration } from 'webpack';
import { CHUNK_GROUPS_FILE, FONT_GROUP } from '../src/config/firstPage';
import productConfig from '../webpack.config';

const ROOT = path.resolve(__dirname, '..');

/** The floor's source: what it renders is the ID field bench-first-load waits for, and nothing else. */
const ENTRY = `import { createRoot } from 'react-dom/client';
import ${JSON.stringify(path.join(ROOT, 'src/styles/fonts.css'))};
import './floor.css';

createRoot(document.getElementById('app')).render(
  <main>
    <label htmlFor="document-number">ID document</label>
    <input id="document-number" name="documentNumber" autoComplete="username" />
  </main>,
);
`;

/** The product's text style (src/styles/global.css) for the body, and its inputs' font. */
const STYLE = `body { font-family: Figtree, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
label, input { display: block; font: inherit; }
`;

/** Builds the floor page into `dir` with the product's webpack configuration; resolves to the output folder. */
export async function buildFloorPage(dir: string): Promise<string> {
  writeFileSync(path.join(dir, 'floor.jsx'), ENTRY);
  writeFileSync(path.join(dir, 'floor.css'), STYLE);
  const outDir = path.join(dir, 'dist');
  const base = productConfig(undefined, { mode: 'production' });
  const config: Configuration = {
    ...base,
    context: ROOT,
    entry: path.join(dir, 'floor.jsx'),
    output: { ...base.output, path: outDir },
    // The product's persistent cache is left to the product's builds.
    cache: false,
    // The source lives outside the repository: its packages are the product's.
    resolve: { ...base.resolve, modules: [path.join(ROOT, 'node_modules'), 'node_modules'] },
  };
  await new Promise<void>((resolve, reject) => {
    webpack(config, (error, stats) => {
      if (error || !stats || stats.hasErrors()) reject(error ?? new Error(stats?.toString('errors-only') ?? 'the floor page did not build'));
      else resolve();
    });
  });
  return outDir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
};

/**
 * Serves the built floor page on 127.0.0.1:`port`: `/` is its HTML with the font preloads /login's page has
 * (the files of the build's font group, written as server/services/firstPage.ts writes them); every file in the
 * brotli copy the build made, when there is one.
 */
export async function serveFloorPage(outDir: string, port: number): Promise<Server> {
  const groups = JSON.parse(readFileSync(path.join(outDir, CHUNK_GROUPS_FILE), 'utf8')) as Record<string, string[]>;
  const preloads = (groups[FONT_GROUP] ?? []).map((file) => `<link rel="preload" as="font" type="font/woff2" href="/${file}" crossorigin>`).join('');
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8').replace('</head>', `${preloads}</head>`);
  writeFileSync(path.join(outDir, 'floor.html'), html);
  const { brotliCompressSync, constants } = await import('node:zlib');
  writeFileSync(path.join(outDir, 'floor.html.br'), brotliCompressSync(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));

  const server = createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://floor').pathname;
    const file = path.join(outDir, pathname === '/' ? 'floor.html' : path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(outDir) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    const brotli = /\bbr\b/.test(String(request.headers['accept-encoding'] ?? '')) && existsSync(`${file}.br`);
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': pathname === '/' ? 'no-cache' : 'public, max-age=31536000, immutable',
      ...(brotli ? { 'content-encoding': 'br', vary: 'Accept-Encoding' } : {}),
    });
    createReadStream(brotli ? `${file}.br` : file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}
