// `npm run bench:first-load`: a cold load of /login on a slow phone link, as a customer meets it, beside the
// same load of a floor page. The production build (made first when missing or older than its sources) served by
// the real server (server/server.ts on a throw-away data directory); the floor page (scripts/floorPage.ts: React
// and react-dom built by the product's webpack configuration, one labelled input, the product's font faces and
// font preloads) built into a throw-away folder and served as bare files. Chromium throttled through the DevTools
// protocol: 150 ms round trip, 1.6 Mbps down, 750 kbps up, CPU 4× slower. Five loads of each, alternated, each in
// a fresh browser context (empty cache), medians printed:
// - bytes transferred, compressed, as the network counted them (headers included): JS, CSS, fonts, locale,
//   config, the HTML, and the total;
// - the time from navigation start until the ID-document field is visible and enabled, and /login's time over
//   the floor page's: what the product costs beyond React and the typeface;
// - the longest chain of requests after the HTML: a request found in the HTML (or preloaded by it) is level 1;
//   one started by script or stylesheet is one level deeper than the deepest start-up request that had already
//   finished when it started (the JavaScript that asked for it could not run before).
// Targets are printed next to the figures, never asserted: the machines are shared and the figures noisy.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { FIRST_PAGE_BLOCKS, FIRST_SCREEN } from '../src/config/firstPage';
import { buildFloorPage, serveFloorPage } from './floorPage';
import { freePort } from './freePort';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildNeeded } = require('./buildFreshness.cjs') as { buildNeeded: (root: string) => string | undefined };

const ROOT = path.resolve(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** /login's transfer, its time to an interactive ID field over the floor page's, and its request chain. */
const TARGETS = { kilobytes: 175, overFloor: 1.3, chain: 1 };
const NETWORK = { offline: false, latency: 150, downloadThroughput: (1.6e6 / 8) | 0, uploadThroughput: (750e3 / 8) | 0 };
const CPU_SLOWDOWN = 4;
/** The ID-document field of the login form (DocumentNumberInput). */
const ID_FIELD = 'input[autocomplete="username"]';

type Kind = 'html' | 'js' | 'css' | 'font' | 'locale' | 'config' | 'api' | 'other';
const COUNTED: Kind[] = ['js', 'css', 'font', 'locale', 'config', 'html'];

interface Request {
  url: string;
  kind: Kind;
  /** Seconds, the protocol's monotonic clock. */
  start: number;
  end?: number;
  bytes: number;
  fromHtml: boolean;
  level?: number;
}

interface Load {
  bytes: Record<Kind | 'total', number>;
  /** The data blocks the page carried (config, locale): their text, to tell their share of the HTML. */
  inlined: Record<'config' | 'locale', string | null>;
  interactiveMs: number;
  /**
   * When the HTML and the last script the page ran before the field showed had arrived; when the field was first
   * in the page (before a frame drew it); the first contentful paint; when the app's own login screen replaced
   * the one the page drew (NaN for a page without one). Ms since navigation start.
   */
  arrivedMs: { html: number; scripts: number; inPage: number; paint: number; app: number };
  chain: string[];
}

function kindOf(url: URL, resourceType: string | undefined): Kind {
  if (resourceType === 'Document') return 'html';
  if (url.pathname === '/config.json') return 'config';
  if (url.pathname.startsWith('/locales/')) return 'locale';
  if (url.pathname.startsWith('/api/')) return 'api';
  if (/\.js$/.test(url.pathname) || resourceType === 'Script') return 'js';
  if (/\.css$/.test(url.pathname) || resourceType === 'Stylesheet') return 'css';
  if (/\.(woff2?|ttf|otf)$/.test(url.pathname) || resourceType === 'Font') return 'font';
  return 'other';
}

async function startServer(port: number, dataDir: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'server/server.ts'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, DATABASE_URL: '', PORT: String(port), HOST: '127.0.0.1', PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '100000' },
  });
  const exited = new Promise<never>((_resolve, reject) => server.once('exit', (code) => reject(new Error(`the server stopped (exit code ${code})`))));
  // Ready when /health answers; the server starts in a few seconds on an idle machine.
  const ready = (async () => {
    for (;;) {
      const up = await fetch(`http://127.0.0.1:${port}/health`).then((response) => response.ok, () => false);
      if (up) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  await Promise.race([ready, exited]);
  // From here on an exit is the one asked for at the end.
  exited.catch(() => undefined);
  return server;
}

/**
 * Records, in the page, when the ID-document field is first drawn visible and enabled (ms since navigation
 * start): at the first frame that shows it, so a field the HTML carries counts only once the style sheets that
 * block drawing have arrived, as a field the scripts make does. /login's page draws its field before the scripts
 * run, and what is typed into it carries over to the app's (e2e/first-screen.spec.ts).
 * A string, not a function: tsx would add its own helpers to a function's body, which the page does not have.
 */
const WATCH_FIELD = `(() => {
  const ready = () => {
    const field = document.querySelector(${JSON.stringify(ID_FIELD)});
    return field && !field.disabled && field.checkVisibility({ visibilityProperty: true, opacityProperty: true });
  };
  let waiting = false;
  const observer = new MutationObserver(() => {
    if (waiting || !ready()) return;
    window.fieldInPageAt ??= performance.now();
    waiting = true;
    requestAnimationFrame(() => {
      waiting = false;
      if (!ready()) return;
      window.fieldReadyAt = performance.now();
      observer.disconnect();
    });
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
  // When the app's own screen took the place of the one the page drew (src/routing/firstScreen.ts).
  let drawn = false;
  const takeover = new MutationObserver(() => {
    if (document.getElementById(${JSON.stringify(FIRST_SCREEN.element)})) drawn = true;
    else if (drawn && document.querySelector(${JSON.stringify(ID_FIELD)})) {
      window.takenOverAt = performance.now();
      takeover.disconnect();
    }
  });
  takeover.observe(document, { childList: true, subtree: true });
})();`;

/** The page's own resource timings: when the HTML and the scripts that ran before the field showed had arrived. */
const ARRIVALS = `(() => {
  const scripts = performance.getEntriesByType('resource').filter((entry) => /\\.js$/.test(new URL(entry.name).pathname) && entry.startTime < window.fieldReadyAt);
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  return {
    html: performance.getEntriesByType('navigation')[0].responseEnd,
    scripts: Math.max(0, ...scripts.map((entry) => entry.responseEnd)),
    inPage: window.fieldInPageAt,
    paint: paint ? paint.startTime : NaN,
    app: window.takenOverAt ?? NaN,
  };
})()`;

async function coldLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(WATCH_FIELD);
  const cdp: CDPSession = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', NETWORK);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });

  const requests = new Map<string, Request>();
  let documentUrl = '';
  cdp.on('Network.requestWillBeSent', (event) => {
    const target = new URL(event.request.url);
    if (target.protocol === 'data:') return;
    const kind = kindOf(target, event.type);
    if (kind === 'html' && !documentUrl) documentUrl = event.request.url;
    const initiator = event.initiator;
    const fromHtml = kind === 'html' || ((initiator.type === 'parser' || initiator.type === 'preload') && initiator.url === documentUrl);
    requests.set(event.requestId, { url: event.request.url, kind, start: event.timestamp, bytes: 0, fromHtml });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (request) Object.assign(request, { end: event.timestamp, bytes: event.encodedDataLength });
  });
  cdp.on('Network.loadingFailed', (event) => requests.get(event.requestId) && Object.assign(requests.get(event.requestId)!, { end: event.timestamp }));

  await page.goto(url);
  await page.locator(ID_FIELD).waitFor({ state: 'visible', timeout: 60_000 });
  // Whatever the page still fetches for the first screen (fonts, late chunks) is counted too.
  await page.waitForLoadState('networkidle');
  const interactiveMs = await page.waitForFunction(() => (window as unknown as { fieldReadyAt?: number }).fieldReadyAt).then((handle) => handle.jsonValue() as Promise<number>);
  // A page that drew its login screen: until the app's own has taken its place.
  if (await page.evaluate(`document.getElementById(${JSON.stringify(FIRST_SCREEN.element)}) !== null || window.takenOverAt !== undefined`)) {
    await page.waitForFunction(() => (window as unknown as { takenOverAt?: number }).takenOverAt !== undefined, undefined, { timeout: 60_000 });
  }
  const arrivedMs = (await page.evaluate(ARRIVALS)) as Load['arrivedMs'];
  const [config, locale] = await page.evaluate((ids) => ids.map((id) => document.getElementById(id)?.textContent ?? null), [FIRST_PAGE_BLOCKS.config, FIRST_PAGE_BLOCKS.locale]);
  const inlined = { config, locale };
  await context.close();

  const bytes = Object.fromEntries([...COUNTED, 'api', 'other', 'total'].map((kind) => [kind, 0])) as Load['bytes'];
  for (const request of requests.values()) {
    bytes[request.kind] += request.bytes;
    if (COUNTED.includes(request.kind)) bytes.total += request.bytes;
  }
  return { bytes, inlined, interactiveMs, arrivedMs, chain: longestChain([...requests.values()]) };
}

/** The deepest chain of start-up requests (not the API calls) after the HTML, as the URLs' last segments. */
function longestChain(all: Request[]): string[] {
  const startup = all.filter((request) => request.kind !== 'html' && request.kind !== 'api' && request.kind !== 'other').sort((a, b) => a.start - b.start);
  const parent = new Map<Request, Request | undefined>();
  for (const request of startup) {
    if (request.fromHtml) {
      request.level = 1;
      continue;
    }
    const before = startup.filter((other) => other !== request && other.end !== undefined && other.end <= request.start && other.level !== undefined);
    // Of the deepest, the last to finish: the one most likely to have been waited for.
    const deepest = before.reduce<Request | undefined>((best, other) => (!best || other.level! > best.level! || (other.level === best.level && other.end! > best.end!) ? other : best), undefined);
    request.level = (deepest?.level ?? 0) + 1;
    parent.set(request, deepest);
  }
  let last = startup.reduce<Request | undefined>((best, request) => (best && best.level! >= request.level! ? best : request), undefined);
  const chain: string[] = [];
  while (last) {
    chain.unshift(new URL(last.url).pathname.split('/').pop()!);
    last = parent.get(last);
  }
  return chain;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main() {
  const reason = buildNeeded(ROOT);
  if (reason) {
    console.log(`Building the web app (${reason})…`);
    const build = spawnSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
    if (build.status !== 0) throw new Error('the build failed');
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'divilo-bench-first-load-'));
  const floorDir = mkdtempSync(path.join(tmpdir(), 'divilo-bench-floor-'));
  console.log('Building the floor page…');
  const floorOut = await buildFloorPage(floorDir);
  const [port, floorPort] = [await freePort(), await freePort()];
  const server = await startServer(port, dataDir);
  const floorServer = await serveFloorPage(floorOut, floorPort);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const pages = { login: `http://127.0.0.1:${port}/login`, floor: `http://127.0.0.1:${floorPort}/` };
    console.log(`Cold loads of /login and of the floor page, alternated: ${RUNS} runs each, each in a fresh context; ${NETWORK.latency} ms RTT, 1.6 Mbps down / 750 kbps up, CPU ×${CPU_SLOWDOWN}`);
    const loads: Record<keyof typeof pages, Load[]> = { login: [], floor: [] };
    for (let run = 1; run <= RUNS; run += 1) {
      for (const name of ['login', 'floor'] as const) {
        const load = await coldLoad(browser, pages[name]);
        loads[name].push(load);
        console.log(`  run ${run} ${name.padEnd(5)}: ${kb(load.bytes.total)}, scripts arrived at ${Math.round(load.arrivedMs.scripts)} ms, field in the page at ${Math.round(load.arrivedMs.inPage)} ms, drawn (interactive) at ${Math.round(load.interactiveMs)} ms, first paint ${Math.round(load.arrivedMs.paint)} ms${Number.isNaN(load.arrivedMs.app) ? '' : `, the app's own screen at ${Math.round(load.arrivedMs.app)} ms`}, chain ${load.chain.length}: ${load.chain.join(' → ')}`);
      }
    }
    const of = (name: keyof typeof pages, pick: (load: Load) => number) => median(loads[name].map(pick));
    const verdict = (met: boolean) => (met ? 'PASS' : 'FAIL');
    console.log('\nMedians                                          /login      floor');
    console.log('  transferred (compressed, headers included):');
    for (const kind of COUNTED) console.log(`    ${kind.padEnd(7)} ${kb(of('login', (load) => load.bytes[kind])).padStart(36)} ${kb(of('floor', (load) => load.bytes[kind])).padStart(10)}`);
    const [total, floorTotal] = [of('login', (load) => load.bytes.total), of('floor', (load) => load.bytes.total)];
    console.log(`    ${'total'.padEnd(7)} ${kb(total).padStart(36)} ${kb(floorTotal).padStart(10)}`);
    const carried = (['config', 'locale'] as const).filter((block) => loads.login[0].inlined[block] !== null);
    if (carried.length) {
      const share = brotliCompressSync(carried.map((block) => loads.login[0].inlined[block]).join('')).length;
      console.log(`    (/login's ${carried.join(' and ')} inside its HTML: about ${kb(share)} of it, brotli)`);
    }
    const apiBytes = of('login', (load) => load.bytes.api);
    if (apiBytes) console.log(`    (API calls made during the load, not counted: ${kb(apiBytes)})`);
    const [interactive, floorInteractive] = [of('login', (load) => load.interactiveMs), of('floor', (load) => load.interactiveMs)];
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log('  after navigation start:');
    console.log(`    HTML arrived                       ${seconds(of('login', (load) => load.arrivedMs.html)).padStart(12)} ${seconds(of('floor', (load) => load.arrivedMs.html)).padStart(10)}`);
    console.log(`    last start-up script arrived       ${seconds(of('login', (load) => load.arrivedMs.scripts)).padStart(12)} ${seconds(of('floor', (load) => load.arrivedMs.scripts)).padStart(10)}`);
    console.log(`    first contentful paint             ${seconds(of('login', (load) => load.arrivedMs.paint)).padStart(12)} ${seconds(of('floor', (load) => load.arrivedMs.paint)).padStart(10)}`);
    console.log(`    ID-document field in the page      ${seconds(of('login', (load) => load.arrivedMs.inPage)).padStart(12)} ${seconds(of('floor', (load) => load.arrivedMs.inPage)).padStart(10)}`);
    console.log(`    ID-document field interactive      ${seconds(interactive).padStart(12)} ${seconds(floorInteractive).padStart(10)}   (the first frame that draws it)`);
    if (loads.login.every((load) => !Number.isNaN(load.arrivedMs.app))) console.log(`    the app's own login screen         ${seconds(of('login', (load) => load.arrivedMs.app)).padStart(12)}              (it took the place of the one the page drew)`);
    // The scripts are all there: what remains is running them (parse, start-up, the first render), CPU ×4.
    console.log(`    from the last script to the field  ${seconds(of('login', (load) => load.interactiveMs - load.arrivedMs.scripts)).padStart(12)} ${seconds(of('floor', (load) => load.interactiveMs - load.arrivedMs.scripts)).padStart(10)}`);
    const chain = of('login', (load) => load.chain.length);
    const example = loads.login.find((load) => load.chain.length === chain)!.chain;
    console.log(`  longest request chain after the HTML: ${chain} (${example.join(' → ')})`);

    const ratio = interactive / floorInteractive;
    console.log('\nTargets (figure, floor, ratio, target):');
    console.log(`  /login field interactive   ${(interactive / 1000).toFixed(2)} s, floor ${(floorInteractive / 1000).toFixed(2)} s, ratio ${ratio.toFixed(2)}×, target ≤ ${TARGETS.overFloor}×   ${verdict(ratio <= TARGETS.overFloor)}`);
    console.log(`  /login transferred         ${kb(total)}, floor ${kb(floorTotal)}, ratio ${(total / floorTotal).toFixed(2)}×, target ≤ ${TARGETS.kilobytes} KB   ${verdict(total / 1024 <= TARGETS.kilobytes)}`);
    console.log(`  /login request chain       ${chain}, floor ${of('floor', (load) => load.chain.length)}, target ≤ ${TARGETS.chain}   ${verdict(chain <= TARGETS.chain)}`);
  } finally {
    await browser.close();
    await new Promise((resolve) => floorServer.close(resolve));
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(floorDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
