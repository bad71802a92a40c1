/** The keys the app keeps in the browser's localStorage (a reload or a new tab resumes from them). */
export const StorageKey = {
  JWT: 'JWT',
  SESSION_ID: 'SESSION_ID',
  USER_FORM: 'USER_FORM',
  CURRENT_PAGE: 'CURRENT_PAGE',
  /** The refusal page of an application the bank cannot serve, kept after its session ends (no personal data). */
  CLOSED_APPLICATION: 'CLOSED_APPLICATION',
  LOCALE: 'locale',
} as const;

type StorageKeyName = (typeof StorageKey)[keyof typeof StorageKey];

function store(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    // Some browsers throw on access when storage is disabled; the app then works without persistence.
    return undefined;
  }
}

export function saveItem(key: StorageKeyName, value: unknown): void {
  try {
    store()?.setItem(key, JSON.stringify(value));
  } catch {
    // Quota exceeded or storage disabled: the value stays in memory only.
  }
}

export function loadItem<T>(key: StorageKeyName): T | undefined {
  const raw = store()?.getItem(key);
  if (raw == null) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
}

export function removeItem(key: StorageKeyName): void {
  store()?.removeItem(key);
}

export function clearAll(): void {
  store()?.clear();
}

/**
 * What "clear the stored session" removes: the token, the client session id, the remembered page and the
 * onboarding form (it is saved on the server at every step, so nothing is lost, and it is personal data
 * that should not outlive the session on a shared device). The chosen language stays.
 */
export function clearStoredSession(): void {
  for (const key of [StorageKey.JWT, StorageKey.SESSION_ID, StorageKey.CURRENT_PAGE, StorageKey.USER_FORM]) {
    removeItem(key);
  }
}

/** Reads the `exp` and `iat` claims (seconds since the epoch) of a JWT without verifying it; the server verifies. */
function readTokenTimes(token: string): { exp?: number; iat?: number } {
  const payload = token.split('.')[1];
  if (!payload) return {};
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
    const json = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '='))) as { exp?: unknown; iat?: unknown };
    return {
      ...(typeof json.exp === 'number' ? { exp: json.exp } : {}),
      ...(typeof json.iat === 'number' ? { iat: json.iat } : {}),
    };
  } catch {
    return {};
  }
}

/** Reads the `exp` claim (seconds since the epoch) of a JWT without verifying it; the server verifies. */
export function readTokenExpiry(token: string): number | undefined {
  return readTokenTimes(token).exp;
}

/**
 * Whether a token in use should be renewed quietly: more than half of its life is gone (and it is still live).
 * A token without `iat` is never renewed this way: its life cannot be known.
 */
export function isTokenDueForRenewal(token: string, nowMs: number = Date.now()): boolean {
  const { exp, iat } = readTokenTimes(token);
  if (exp === undefined || iat === undefined || exp <= iat) return false;
  const left = exp * 1000 - nowMs;
  return left > 0 && left < ((exp - iat) * 1000) / 2;
}

/** A token without a readable expiry counts as expired: it cannot be trusted to be live. */
export function isTokenExpired(token: string, nowMs: number = Date.now()): boolean {
  const exp = readTokenExpiry(token);
  return exp === undefined || exp * 1000 <= nowMs;
}
