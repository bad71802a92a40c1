// npm run bench:bundle — what the browser downloads for /login before the user types: every JavaScript
// file a real Chromium fetches, with the share of each package (from the source maps), every style sheet, the
// fonts and the page itself, and the largest route chunk. Sizes in gzip -9 and in brotli 11, which is what the
// server sends. Budget: 162 KB brotli for all of it, bench:first-load's target for /login's transfer (175 KB)
// less the response headers that one counts too: about 1.4 KB for each of the page's 9 files. Needs a production
// build (npm run build) and Chromium.
import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';

const BUDGET_KB = 162;
const dist = path.resolve(__dirname, '..', 'dist');
const gz = (text: string | Buffer) => gzipSync(text, { level: 9 }).length;
const br = (text: string | Buffer) => brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);

/** Splits a file's gzipped size between the packages its source map says the bytes came from. */
function byPackage(file: string, into: Map<string, number>) {
  const code = readFileSync(path.join(dist, file), 'utf8');
  const lines = code.split('\n');
  const consumer = new SourceMapConsumer(JSON.parse(readFileSync(path.join(dist, `${file}.map`), 'utf8')) as RawSourceMap);
  const mappings: { line: number; column: number; source: string | null }[] = [];
  consumer.eachMapping((m) => mappings.push({ line: m.generatedLine, column: m.generatedColumn, source: m.source }));
  const raw = new Map<string, number>();
  mappings.forEach((m, i) => {
    const next = mappings[i + 1];
    const length = next && next.line === m.line ? next.column - m.column : lines[m.line - 1].length - m.column;
    const owner = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m.source ?? '')?.[1] ?? (m.source?.includes('/src/') ? '(app code)' : '(webpack runtime)');
    raw.set(owner, (raw.get(owner) ?? 0) + length);
  });
  const total = [...raw.values()].reduce((a, b) => a + b, 0) || 1;
  const size = gz(code);
  for (const [owner, length] of raw) into.set(owner, (into.get(owner) ?? 0) + (size * length) / total);
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-bench-'));
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PORT: '8199', PUBLIC_URL: 'http://127.0.0.1:8199' });
  const app = await buildApp(config);
  await app.listen({ port: 8199, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    const styles = new Map<string, Promise<Buffer>>();
    const fonts = new Map<string, Promise<Buffer>>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.endsWith('.js')) scripts.add(url.pathname.replace(/^\//, ''));
      // Style sheets by their content type: the server's own (not in dist/) count as much as the build's.
      else if ((response.headers()['content-type'] ?? '').startsWith('text/css')) styles.set(url.pathname, response.body());
      else if (url.pathname.endsWith('.woff2')) fonts.set(url.pathname, response.body());
    });
    const loginPage = await page.goto('http://127.0.0.1:8199/login');
    await page.getByRole('button', { name: /log in|entrar/i }).waitFor();
    await page.waitForLoadState('networkidle');

    const files = [...scripts].sort();
    const packages = new Map<string, number>();
    const totals = { gzip: 0, brotli: 0 };
    const row = (gzip: number, brotli: number, name: string) => {
      totals.gzip += gzip;
      totals.brotli += brotli;
      console.log(`${kb(gzip)} ${kb(brotli)} KB  ${name}`);
    };
    const subtotal = (label: string, from: typeof totals) => console.log(`${kb(totals.gzip - from.gzip)} ${kb(totals.brotli - from.brotli)} KB  ${label}\n`);
    console.log('Loaded for /login before the user types, gzip -9 and brotli 11 (fonts as they are):\n');
    console.log('JavaScript:');
    let from = { ...totals };
    for (const file of files) {
      const code = readFileSync(path.join(dist, file));
      row(gz(code), br(code), file);
      byPackage(file, packages);
    }
    subtotal('JavaScript', from);
    const javascript = { ...totals };

    console.log('CSS:');
    from = { ...totals };
    for (const [file, body] of [...styles].sort(([a], [b]) => a.localeCompare(b))) row(gz(await body), br(await body), file.replace(/^\//, ''));
    subtotal('CSS', from);
    const css = { gzip: totals.gzip - javascript.gzip, brotli: totals.brotli - javascript.brotli };

    console.log('Fonts and the page:');
    from = { ...totals };
    for (const [file, body] of [...fonts].sort(([a], [b]) => a.localeCompare(b))) row((await body).length, (await body).length, file.replace(/^\//, ''));
    const html = await loginPage!.body();
    row(gz(html), br(html), '/login (the HTML, with its data blocks)');
    subtotal('fonts and the page', from);

    console.log(`${kb(javascript.gzip + css.gzip)} ${kb(javascript.brotli + css.brotli)} KB  JavaScript + CSS`);
    console.log(`${kb(totals.gzip)} ${kb(totals.brotli)} KB  everything (budget ${BUDGET_KB} KB brotli: ${totals.brotli / 1024 <= BUDGET_KB ? 'within' : 'OVER'})\n`);
    console.log('JavaScript by package (gzip):');
    for (const [owner, size] of [...packages].sort((a, b) => b[1] - a[1]).filter(([, size]) => size >= 512)) console.log(`${kb(size)} KB  ${owner}`);

    const chunks = readdirSync(path.join(dist, 'assets'))
      .filter((name) => name.endsWith('.js'))
      .map((name) => ({ name, size: gz(readFileSync(path.join(dist, 'assets', name), 'utf8')) }))
      .filter(({ name }) => !files.includes(`assets/${name}`))
      .sort((a, b) => b.size - a.size);
    console.log(`\nLargest chunk not loaded for /login: ${chunks[0]?.name ?? '-'} ${kb(chunks[0]?.size ?? 0)} KB`);
  } finally {
    await browser.close();
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

void main();
