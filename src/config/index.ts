import type { RuntimeConfig } from './runtimeConfig';

export type { RuntimeConfig } from './runtimeConfig';

/** Constants of the specification. */
export const REQUEST_TIMEOUT_MS = 20000;
export const TOAST_TIMEOUT_MS = 5000;

let current: RuntimeConfig | undefined;

/** Fetches `/config.json` once at start; the rest of the app reads it synchronously afterwards. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
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
