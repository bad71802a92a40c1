// How the app starts in a page: with the configuration and texts the server wrote into it, without fetching
// them; by fetching them when the page carries none (or a broken copy); with the start-up error when it cannot
// have its configuration.
import { parse } from '@formatjs/icu-messageformat-parser';
import { screen } from '@testing-library/dom';
import type { Root } from 'react-dom/client';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import { json, startTestServer } from '../services/testServer';
import { testRuntimeConfig } from '../testConfig';

const compiled = (catalog: Record<string, string>) => JSON.stringify(Object.fromEntries(Object.entries(catalog).map(([id, text]) => [id, parse(text)])));
const catalogs = { es: compiled(es), en: compiled(en) };

let server: Awaited<ReturnType<typeof startTestServer>>;
let configFails = false;
/** The page's own requests (relative URLs), as the browser would send them to its server. */
let fetched: string[];
const platformFetch = globalThis.fetch;
let root: Root | undefined;

beforeAll(async () => {
  server = await startTestServer((request, res) => {
    if (request.url === '/config.json') return configFails ? json(res, 503, { code: 'DOWN' }) : json(res, 200, testRuntimeConfig({ apiBaseUrl: `${server.url}/api` }));
    const locale = /^\/locales\/(es|en)\.ast\.json$/.exec(request.url)?.[1] as 'es' | 'en' | undefined;
    if (locale) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(catalogs[locale]);
    }
    if (request.url.endsWith('/get-session')) return json(res, 401, { code: 'NO_SESSION' });
    json(res, 404, { code: 'NOT_FOUND' });
  });
  // jsdom's page has no server of its own: its relative requests go to the test server, and are recorded.
  globalThis.fetch = (input, init) => {
    if (typeof input === 'string' && input.startsWith('/')) {
      fetched.push(input);
      return platformFetch(`${server.url}${input}`, init);
    }
    return platformFetch(input, init);
  };
  // The app renders with its own React (a fresh module registry per start), outside Testing Library's act().
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;
});
afterAll(async () => {
  globalThis.fetch = platformFetch;
  await server.close();
});
beforeEach(() => {
  // Each start is a fresh page load: no configuration or texts left from the one before.
  jest.resetModules();
  localStorage.clear();
  fetched = [];
  configFails = false;
});
afterEach(() => {
  root?.unmount();
  root = undefined;
  document.body.innerHTML = '';
});

/** A page as the server sends it: the app's element, then the data blocks given. */
async function startPage(url: string, blocks: { config?: string; locale?: [string, string, 'login'?] } = {}) {
  window.history.replaceState(null, '', url);
  document.body.innerHTML =
    '<div id="app"></div>' +
    (blocks.config === undefined ? '' : `<script type="application/json" id="divilo-config">${blocks.config}</script>`) +
    (blocks.locale === undefined ? '' : `<script type="application/json" id="divilo-locale" data-locale="${blocks.locale[0]}"${blocks.locale[2] ? ` data-part="${blocks.locale[2]}"` : ''}>${blocks.locale[1]}</script>`);
  const { startApp } = await import('../../../src/app/startup');
  root = await startApp(document.getElementById('app')!);
}

const pageConfig = () => JSON.stringify(testRuntimeConfig({ apiBaseUrl: `${server.url}/api` })).replace(/</g, '\\u003c');

describe('start-up', () => {
  it('uses the configuration and the texts the page carries: it fetches neither', async () => {
    await startPage('/login?lang=es', { config: pageConfig(), locale: ['es', catalogs.es] });
    expect(await screen.findByLabelText('DNI o NIE')).toBeEnabled();
    expect(fetched).toEqual([]);
    expect(server.requests.map((request) => request.url)).not.toContain('/config.json');
  });

  it("with a login page's part of the texts, fetches the whole catalog once, when the applicant moves on to the wizard", async () => {
    const loginPart = JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(catalogs.es) as Record<string, unknown>).filter(([id]) => !/^(onboarding|documents)\./.test(id))));
    await startPage('/login?lang=es', { config: pageConfig(), locale: ['es', loginPart, 'login'] });
    expect(await screen.findByLabelText('DNI o NIE')).toBeEnabled();
    expect(fetched).toEqual([]);

    screen.getByRole('link', { name: 'Ábrela ahora' }).click();
    expect(await screen.findByRole('heading', { name: 'Abre tu cuenta Divilo' })).toBeInTheDocument();
    // The wizard's own texts, which the page did not carry.
    expect(await screen.findByLabelText('Correo electrónico')).toBeInTheDocument();
    expect(fetched).toEqual(['/locales/es.ast.json']);
  });

  it('fetches /config.json and the locale file when the page carries neither', async () => {
    await startPage('/login?lang=es');
    expect(await screen.findByLabelText('DNI o NIE')).toBeEnabled();
    expect(fetched).toEqual(['/config.json', '/locales/es.ast.json']);
  });

  it('fetches /config.json when the page\'s copy is broken or incomplete', async () => {
    await startPage('/login?lang=en', { config: '{"apiBaseUrl": "/api", ', locale: ['en', catalogs.en] });
    expect(await screen.findByLabelText('ID document (DNI or NIE)')).toBeInTheDocument();
    expect(fetched).toEqual(['/config.json']);
    root?.unmount();
    jest.resetModules();
    fetched = [];
    await startPage('/login?lang=en', { config: JSON.stringify({ apiBaseUrl: '/api' }), locale: ['en', catalogs.en] });
    expect(await screen.findByLabelText('ID document (DNI or NIE)')).toBeInTheDocument();
    expect(fetched).toEqual(['/config.json']);
  });

  it('fetches the texts of its own language when the page carries another\'s', async () => {
    await startPage('/login?lang=es', { config: pageConfig(), locale: ['en', catalogs.en] });
    expect(await screen.findByLabelText('DNI o NIE')).toBeInTheDocument();
    expect(fetched).toEqual(['/locales/es.ast.json']);
  });

  it('without a configuration in the page and /config.json failing, says so in the page\'s language', async () => {
    configFails = true;
    await startPage('/login?lang=es', { locale: ['es', catalogs.es] });
    expect(await screen.findByRole('alert')).toHaveTextContent('No hemos podido cargar Divilo');
    expect(screen.getByRole('button', { name: 'Reintentar' })).toBeInTheDocument();
    expect(fetched).toEqual(['/config.json']);
  });
});
