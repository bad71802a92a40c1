// The spellings people use for a few answers, brought to the one form the rules check and the server stores.
// Used as yup transforms, so the screen and the server accept the same spellings and store the same value.

/** A CIF as invoices write it (`b-58378431`, `B 58.378.431`, `B/58378431`) → `B58378431`. */
export function normaliseCif(value: unknown): string {
  return typeof value === 'string' ? value.replace(/[\s.\-/]/g, '').toUpperCase() : '';
}

/**
 * A website as people type it: `www.empresa.es`, `empresa.es/tienda`, `HTTPS://Empresa.es` → with its scheme
 * (`https://` when none was typed). Anything with a scheme of its own (`ftp://`) is left for the rule to refuse.
 */
export function normaliseWebsite(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '') return '';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme) return /^https?$/i.test(scheme[1]) ? `${scheme[1].toLowerCase()}://${text.slice(scheme[0].length)}` : text;
  // `empresa.es:8080` has no scheme either; only something like `mailto:` keeps its own and is refused.
  if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(text)) return text;
  return `https://${text.replace(/^\/+/, '')}`;
}

const CURRENCY = /^(?:€|eur|euros?)\s*|\s*(?:€|eur|euros?)$/gi;

/**
 * A whole amount or count as people write it: `250.000 €`, `250 000`, `€250,000`, `1.000.000,00`, `12 EUR` →
 * `250000`, `1000000`, `12`. A group separator (point, comma, space, apostrophe) counts only before groups of
 * exactly three digits, so `250,5` or `2.50` stay as typed (and are refused as not whole). A decimal part of
 * zeros (`,00`) is dropped. What does not read as a whole number is returned trimmed, for the rule to refuse.
 */
export function normaliseWholeNumber(value: unknown): string {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = typeof value === 'string' ? value.trim() : '';
  const bare = text.replace(CURRENCY, '').trim();
  if (/^\d+$/.test(bare)) return bare;
  const grouped = /^(\d{1,3})((?:[.,\s\u00a0\u202f']\d{3})+)(?:([.,])0{1,2})?$/.exec(bare);
  if (!grouped) return text;
  const separators = new Set(grouped[2].match(/[.,\s\u00a0\u202f']/g));
  // One kind of group separator, and a decimal mark that is not it: `1.000,00`, never `1.000.00` or `1,000.000`.
  if (separators.size !== 1 || (grouped[3] !== undefined && separators.has(grouped[3]))) return text;
  return `${grouped[1]}${grouped[2].replace(/\D/g, '')}`.replace(/^0+(?=\d)/, '');
}
