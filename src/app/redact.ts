/**
 * Field names whose values are secrets wherever they appear in state or actions: passwords, one-time
 * codes, tokens and keys. Matching is by key name, case-insensitive, at any depth.
 */
const SECRET_KEYS = new Set(
  [
    'password',
    'diviloPassword',
    'newPassword',
    'confirmPassword',
    'passwordConfirmation',
    'code',
    'verificationCode',
    'verificationEmailToken',
    'verificationPhoneToken',
    'token',
    'authorizationToken',
    'idToken',
    'accessToken',
    'refreshToken',
    'captchaToken',
    'secret',
    'secretKey',
    'sessionToken',
    'authorization',
  ].map((key) => key.toLowerCase()),
);

const REDACTED = '[redacted]';

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

/** A deep copy of `value` with every secret replaced by "[redacted]" (empty values stay empty). */
export function redactSecrets<T>(value: T): T {
  return redact(value, new WeakMap()) as T;
}

function redact(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(redact(item, seen));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    copy[key] = isSecretKey(key) && item !== '' && item != null ? REDACTED : redact(item, seen);
  }
  return copy;
}
