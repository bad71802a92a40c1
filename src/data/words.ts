// Words as the activity search compares them: lower case, no accents, no punctuation, and a light stem shared by
// Spanish and English. Applicants type on phones, mostly without accents ("programacion", "peluqueria"), so the
// stem works on the unaccented word: a Snowball stemmer, written for accented Spanish, stems "programación" and
// "programacion" differently and would miss what people type.

/** Lower case without accents or apostrophes: "Peluquería" → "peluqueria", "builders’" → "builders". */
export function normalise(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '');
}

/** The words of a catalogue's text: hyphenated words both whole and in parts ("e-commerce": ecommerce, e, commerce). */
export function indexWords(text: string): string[] {
  const words: string[] = [];
  for (const chunk of normalise(text).split(/[^a-z0-9-]+/)) {
    const parts = chunk.split('-').filter(Boolean);
    if (parts.length > 1) words.push(parts.join(''));
    words.push(...parts);
  }
  return words;
}

/** The words of what an applicant typed: a hyphen joins ("e-commerce" is "ecommerce"). */
export function queryWords(text: string): string[] {
  return normalise(text)
    .replace(/-/g, '')
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Words that say nothing about an activity, in both languages ("creadores de contenido", "soy fontanero",
 * "i am a plumber"). A query made only of them keeps them: "a" may be the start of "abogado".
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  // Spanish
  'a', 'al', 'como', 'con', 'de', 'del', 'e', 'el', 'en', 'la', 'las', 'lo', 'los', 'mi', 'mis', 'o', 'para', 'por',
  'que', 'se', 'sin', 'soy', 'su', 'sus', 'u', 'un', 'una', 'unas', 'uno', 'unos', 'y',
  // English
  'am', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'i', 'im', 'in', 'is', 'my', 'of', 'on', 'or', 'the', 'to', 'with',
]);

/** The words of a query that say something, or all of them when none does. */
export function contentWords(words: readonly string[]): string[] {
  const kept = words.filter((word) => !STOP_WORDS.has(word));
  return kept.length > 0 ? kept : [...words];
}

// Endings stripped, longest first, as long as the stem left keeps MIN_STEM letters. Spanish and English together:
// the query's language is unknown, and a Spanish ending rarely ends an English word (or the other way round).
const ENDINGS = [
  // Spanish derivation: programación / programador, peluquería / peluquero, dentista, restaurante, electricidad
  'amientos', 'imientos', 'amiento', 'imiento', 'aciones', 'iciones', 'adoras', 'adores', 'edores', 'idores', 'ciones',
  'siones', 'adora', 'ador', 'edor', 'idor', 'toras', 'tores', 'tora', 'tor', 'acion', 'icion', 'cion', 'sion',
  'abilidades', 'abilidad', 'ibilidades', 'ibilidad', 'ables', 'able', 'ibles', 'ible', 'arios', 'arias', 'ario', 'aria',
  'erias', 'eria', 'eros', 'eras', 'ero', 'era', 'istas', 'ista', 'ismos', 'ismo', 'idades', 'idad', 'mente',
  'antes', 'ante', 'entes', 'ente', 'ancias', 'ancia', 'encias', 'encia', 'eutas', 'euta', 'ezas', 'eza',
  'ales', 'al', 'ias', 'ia', 'ar', 'er', 'ir',
  // English derivation: programming / programmer, translation / translator, electrician, photography, dentistry
  'ations', 'ation', 'ators', 'ator', 'tions', 'tion', 'ings', 'ing', 'ers', 'ists', 'ist', 'isms', 'ism',
  'ments', 'ment', 'ness', 'ities', 'ity', 'ancy', 'ency', 'ants', 'ant', 'ians', 'ian', 'ical', 'ics', 'ic', 'ry',
] as const;
const MIN_STEM = 4;

function stripEnding(word: string): string {
  for (const ending of ENDINGS) {
    if (word.endsWith(ending) && word.length - ending.length >= MIN_STEM) return word.slice(0, -ending.length);
  }
  // Plurals and gender, which may leave a short stem ("bares" → "bar", "cafe" → "caf").
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`;
  if (word.endsWith('es') && word.length - 2 >= 3 && !/[aeiou]es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss') && word.length - 1 >= 3) return word.slice(0, -1);
  if (/[aeoy]$/.test(word) && word.length - 1 >= 3) return word.slice(0, -1);
  return word;
}

/**
 * A light stem of a normalised word, the same for its plural, gender and common derivations in both languages:
 * programador, programadores, programación → "program"; plumber, plumbing → "plumb"; dentista, dental, dentist →
 * "dent". Not a linguist's stem: two words may share one by chance, so a stem match ranks below whole words.
 */
export function stem(word: string): string {
  if (/\d/.test(word)) return word;
  let current = word;
  // A few rounds: "alquileres" → "alquiler" → "alquil", "electricista" → "electric" → "electr".
  for (let round = 0; round < 3; round += 1) {
    const next = stripEnding(current);
    if (next === current) break;
    current = next;
  }
  // "programm" (programming, programmer) → "program"; Spanish doubles (ll, rr, cc) are kept.
  return current.replace(/([bdfgmnpt])\1$/, '$1');
}
