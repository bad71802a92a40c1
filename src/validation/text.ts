// Small helpers shared by the predicates: how a raw form or request value becomes text to check.

/**
 * The value as trimmed text: strings are trimmed, finite numbers are written in base 10, anything else
 * (objects, booleans, null, NaN...) gives `null`.
 */
export function asText(value: unknown): string | null {
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

/** Trimmed and upper-cased text, for identity documents and codes (`' x1234567l '` → `'X1234567L'`). */
export function normaliseDocument(value: unknown): string | null {
  const text = asText(value);
  return text === null ? null : text.toUpperCase();
}

/** Length in Unicode code points, so that an accented letter or an emoji counts as one character. */
export function characterCount(text: string): number {
  return Array.from(text).length;
}

/**
 * True when a value counts as "not filled in": undefined, null, a string of only whitespace, NaN or an empty
 * array. `false` and `0` are values.
 */
export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'number') return Number.isNaN(value);
  if (Array.isArray(value)) return value.length === 0;
  return false;
}
