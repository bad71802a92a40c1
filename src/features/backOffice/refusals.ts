/**
 * The code of an API refusal: `code` on an error thrown with one, `errorCode` on the app's failed calls
 * (src/services/baseQuery.ts), so a page can hand a mutation's `unwrap()` straight to these components.
 */
export function refusalCodeOf(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errorCode } = error as { code?: unknown; errorCode?: unknown };
  const found = code ?? errorCode;
  return typeof found === 'string' ? found : undefined;
}
