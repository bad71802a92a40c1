// Which characters typed text may hold. Everything an applicant types may end up in the contract they sign, on
// the bank's screens and in its files, so:
// - no character may hide text, reorder it or break it into lines (a name typed as two lines printed as a
//   clause of its own; a right-to-left override turning "gnp.exe" into "exe.png");
// - a value the contract prints holds only characters its fonts print (server/services/pdfFonts.ts), so the
//   signed PDF shows every name exactly as typed. A test checks the fonts against this list.

/**
 * Controls (C0, C1: line feed, carriage return, tab, escape …), format characters (bidi overrides and isolates
 * U+202A–202E and U+2066–2069, zero-width spaces and joiners, the soft hyphen, the byte order mark …), the line
 * and paragraph separators U+2028/2029, private-use characters, lone surrogates and unassigned code points.
 */
const HIDDEN_OR_BREAKING = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Co}\p{Cs}\p{Cn}]/u;

/** True for text with no character that hides text, reorders it or breaks it into lines (see above). */
export function isPlainText(value: unknown): boolean {
  return typeof value === 'string' && !HIDDEN_OR_BREAKING.test(value);
}

/** Inclusive code point ranges. */
type Ranges = readonly (readonly [number, number])[];

/** Letters of the scripts the contract prints: Latin (with its extensions), Greek, Cyrillic and Han. */
const LETTER_RANGES: Ranges = [
  [0x0041, 0x005a],
  [0x0061, 0x007a],
  [0x00aa, 0x00aa], // ª, as in "Mª"
  [0x00ba, 0x00ba], // º
  [0x00c0, 0x00d6],
  [0x00d8, 0x00f6],
  [0x00f8, 0x024f], // Latin-1 letters, Latin Extended-A and -B
  [0x0300, 0x036f], // combining accents, for text typed decomposed
  [0x0370, 0x03e1], // Greek (without the Coptic letters of its block)
  [0x03f0, 0x03ff],
  [0x0400, 0x052f], // Cyrillic and its supplement
  [0x1e00, 0x1eff], // Latin Extended Additional (Vietnamese, Welsh …)
  [0x1f00, 0x1fff], // Greek Extended
  [0x3005, 0x3005], // 々, the ideographic iteration mark of Japanese names (佐々木)
  [0x3400, 0x4db5], // CJK Extension A
  [0x4e00, 0x9fef], // CJK Unified Ideographs
];

/** Other characters the contract prints in the text fields (addresses, company names). */
const OTHER_PRINTABLE_RANGES: Ranges = [
  [0x0020, 0x007e], // ASCII: digits, punctuation, symbols
  [0x00a0, 0x00ac],
  [0x00ae, 0x00bf], // Latin-1 signs (no-break space, «», ·, º …) but the soft hyphen
  [0x00d7, 0x00d7],
  [0x00f7, 0x00f7],
  [0x2010, 0x2015], // dashes
  [0x2018, 0x201f], // quotation marks
  [0x2022, 0x2022],
  [0x2026, 0x2026],
  [0x20ac, 0x20ac], // €
  [0x2116, 0x2116], // №
];

const inRanges = (codePoint: number, ranges: Ranges) => ranges.some(([from, to]) => codePoint >= from && codePoint <= to);

/** A letter (or combining accent) of a script the contract prints. */
const isPrintableLetter = (char: string) => /[\p{L}\p{M}]/u.test(char) && inRanges(char.codePointAt(0)!, LETTER_RANGES);

/** Whether the contract's fonts print `char` (one code point, assigned, not hidden: see isPlainText). */
export function isPrintableCharacter(char: string): boolean {
  if (HIDDEN_OR_BREAKING.test(char)) return false;
  return isPrintableLetter(char) || (!/[\p{L}\p{M}]/u.test(char) && inRanges(char.codePointAt(0)!, OTHER_PRINTABLE_RANGES));
}

/** How many of the offending characters a message names at most. */
const SHOWN_CHARACTERS = 5;

/**
 * The characters of `value` the contract cannot print, each once, in order of appearance (at most 5). Empty
 * when it prints all of them; hidden characters are isPlainText's business and are not listed (they would not
 * show in a message either).
 */
export function unprintableCharacters(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  const found: string[] = [];
  for (const char of value) {
    if (HIDDEN_OR_BREAKING.test(char) || isPrintableCharacter(char) || found.includes(char)) continue;
    found.push(char);
    if (found.length === SHOWN_CHARACTERS) break;
  }
  return found;
}

/** What joins the words of a name: spaces, apostrophes (' ’ ʼ), hyphens (- ‐), dots and the middle dot (Catalan "l·l"). */
const NAME_PUNCTUATION = new Set([' ', "'", '\u2019', '\u02bc', '-', '\u2010', '.', '\u00b7']);

/**
 * A person's name or surname: letters of the scripts the contract prints and the punctuation of names, with at
 * least one letter (no digits, no other symbols).
 */
export function isPersonName(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const chars = [...value.trim().normalize('NFC')];
  return chars.some((char) => /\p{L}/u.test(char)) && chars.every((char) => isPrintableLetter(char) || NAME_PUNCTUATION.has(char));
}
