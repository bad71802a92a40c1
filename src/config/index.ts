import { FIRST_PAGE_BLOCKS, readDataBlock } from './firstPage';
import type { RuntimeConfig } from './runtimeConfig';

export type { RuntimeConfig } from './runtimeConfig';

/** Constants of the specification. */
export const REQUEST_TIMEOUT_MS = 20000;

let current: RuntimeConfig | undefined;

const REQUIRED_KEYS: (keyof RuntimeConfig)[] = ['apiBaseUrl', 'mainAppUrl', 'supportPhone', 'legalLinks', 'identity', 'storage', 'captcha', 'sessionWarningSeconds', 'smsCountries'];

/**
 * The configuration once at start: the copy the server wrote into the page when it is there and whole, else
 * `/config.json`. The rest of the app reads it synchronously afterwards.
 */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch, page?: Document): Promise<RuntimeConfig> {
  const inlined = readDataBlock(FIRST_PAGE_BLOCKS.config, page)?.data;
  if (inlined && typeof inlined.apiBaseUrl === 'string' && REQUIRED_KEYS.every((key) => key in inlined)) {
    current = inlined as unknown as RuntimeConfig;
    return current;
  }
  const response = await fetchImpl('/config.json', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`Request failed with status code ${response.status}`);
  current = (await response.json()) as RuntimeConfig;
  return current;
}

export function setRuntimeConfig(config: RuntimeConfig): void {
  current = config;
}

export function getRuntimeConfig(): RuntimeConfig {
  if (!current) throw new Error('Runtime configuration not loaded');
  return current;
}
