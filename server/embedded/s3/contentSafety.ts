// What a browser may show of a stored file. Customers' files are served from the app's own origin, so a file
// the browser would run (HTML, SVG, XML, JavaScript…) must never be rendered: every response carries a sandbox
// CSP and nosniff, and only a short list of passive types may be shown inline; anything else is a download.

/** Every storage response: no script, no plugin, no form, no request of any kind from what is shown. */
export const STORAGE_CSP = "sandbox; default-src 'none'";

/** Types a browser renders as passive content (no script can run in them): the only ones served inline. */
const INLINE_TYPES = new Set(['application/pdf', 'image/jpeg', 'image/png', 'image/gif', 'image/webp', 'text/plain']);

/** The media type of a Content-Type value, lower-cased, without parameters (`Text/HTML; charset=x` → `text/html`). */
function mediaType(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

function mayShowInline(contentType: string | undefined): boolean {
  return INLINE_TYPES.has(mediaType(contentType));
}

/**
 * The Content-Disposition to send for a file of `contentType` that was stored or asked for with `disposition`:
 * unchanged for a passive type, `attachment` (keeping a file name) for anything else.
 */
export function safeDisposition(contentType: string | undefined, disposition: string | undefined): string | undefined {
  if (mayShowInline(contentType)) return disposition;
  const parameters = disposition && disposition.includes(';') ? disposition.slice(disposition.indexOf(';')) : '';
  return `attachment${parameters}`;
}
