// npm run bench:bundle — what the browser downloads for /login before the user types: every JavaScript
// file a real Chromium fetches, gzipped, with the share of each package (from the source maps), every style
// sheet, and the largest route chunk. Budget: 180 KB gzip for the JavaScript and CSS together. Needs a
// production build (npm run build) and Chromium.
import { readFileSync, readdirSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { buildApp } from '../server/app';
import { loadConfig } from '../server/config';

const BUDGET_KB = 180;
const dist = path.resolve(__dirname, '..', 'dist');
const gz = (text: string) => gzipSync(text, { level: 9 }).length;
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
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.endsWith('.js')) scripts.add(url.pathname.replace(/^\//, ''));
      // Style sheets by their content type: the server's own (not in dist/) count as much as the build's.
      else if ((response.headers()['content-type'] ?? '').startsWith('text/css')) styles.set(url.pathname, response.body());
    });
    await page.goto('http://127.0.0.1:8199/login');
    await page.getByRole('button', { name: /log in|entrar/i }).waitFor();
    await page.waitForLoadState('networkidle');

    const files = [...scripts].sort();
    const packages = new Map<string, number>();
    let total = 0;
    console.log('JavaScript loaded for /login before the user types (gzip -9):');
    for (const file of files) {
      const size = gz(readFileSync(path.join(dist, file), 'utf8'));
      total += size;
      console.log(`${kb(size)} KB  ${file}`);
      byPackage(file, packages);
    }
    console.log(`${kb(total)} KB  total\n`);

    console.log('CSS loaded for /login (gzip -9):');
    let css = 0;
    for (const [file, body] of [...styles].sort(([a], [b]) => a.localeCompare(b))) {
      const size = gzipSync(await body, { level: 9 }).length;
      css += size;
      console.log(`${kb(size)} KB  ${file.replace(/^\//, '')}`);
    }
    console.log(`${kb(css)} KB  total\n`);
    const both = total + css;
    console.log(`${kb(both)} KB  JavaScript + CSS (budget ${BUDGET_KB} KB: ${both / 1024 <= BUDGET_KB ? 'within' : 'OVER'})\n`);
    console.log('By package:');
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
