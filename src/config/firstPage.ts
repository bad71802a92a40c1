/**
 * The data the server writes into index.html for the app's start (server/plugins/spa.ts): the runtime
 * configuration (what `/config.json` answers) and the texts of the language chosen for the request, each in a
 * `<script type="application/json">` block — data, never run, so the CSP needs nothing for them. The app uses
 * them when they are there and whole, and fetches otherwise (the development server's page has none).
 */
export const FIRST_PAGE_BLOCKS = {
  config: 'divilo-config',
  /**
   * Carries its language in `data-locale`; with `data-part="login"`, only the texts the login journey's screens use
   * (the page of a login screen: the wizard's texts are fetched if the applicant goes there).
   */
  locale: 'divilo-locale',
} as const;

/** The namespaces of message ids only the onboarding wizard uses: left out of a login page's texts. */
export const WIZARD_ONLY_NAMESPACES = ['onboarding', 'documents'] as const;

/** Messages of shared namespaces that only the wizard shows (the phone step's refusals): left out too. */
export const WIZARD_ONLY_MESSAGE_IDS = ['validations.phoneNotMobile', 'validations.phoneSpecialRate', 'validations.phoneCountryNotServed'] as const;

/**
 * The back office's texts (its own, its pages' titles, the staff's password rule): a login page leaves them out, the
 * back office's page carries all.
 */
export const BACK_OFFICE_MESSAGES = /^(?:backOffice\.|routes\.back-office|validations\.staffPassword$)/;

/**
 * The build's list of the files each screen area loads on demand (`{ "login": ["assets/login.….js", …] }`),
 * in dist/: the server preloads those of the requested page's area with the page.
 */
export const CHUNK_GROUPS_FILE = 'chunk-groups.json';

/** The entry of that list with the font files every page uses (preloaded on every page). */
export const FONT_GROUP = 'fonts';

/** The parsed content of a data block, or undefined when it is missing or not a JSON object. */
export function readDataBlock(id: string, page: Document | undefined = globalThis.document): { data: Record<string, unknown>; element: HTMLElement } | undefined {
  const element = page?.getElementById(id);
  if (!element || element.getAttribute('type') !== 'application/json') return undefined;
  try {
    const data: unknown = JSON.parse(element.textContent ?? '');
    return data !== null && typeof data === 'object' && !Array.isArray(data) ? { data: data as Record<string, unknown>, element } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The login screen drawn into the page before the app's scripts have run (the first screen): the server puts it
 * before the app's element for `/login`, built by `npm run build` per language into these files of dist/. The
 * app takes it over when its own login screen is in place (src/routing/firstScreen.ts): what was typed
 * and where the cursor was carry over.
 */
export const FIRST_SCREEN = {
  /** The id of the element that holds it in the page. */
  element: 'divilo-first-screen',
  file: (locale: string) => `first-screen/login.${locale}.html`,
  /**
   * What stands in the built file for the runtime configuration's values, which only the server knows: a
   * phone number (the help panel's link keeps its digits) and an address.
   */
  placeholders: { supportPhone: '+990000000000001', privacyUrl: 'https://first-screen.invalid/privacy' },
  /** Where the page's script records the last button pressed (or '' for Enter in a field) until the app takes over. */
  pressedAttribute: 'data-pressed',
} as const;
