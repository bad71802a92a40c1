// Finds an activity of a catalogue (IAE, CNAE-2025) in the applicant's own words or by its code as forms write it.
// Pure functions over an index built once per catalogue; the pickers show what `search` returns, in its order.
import { contentWords, indexWords, normalise, queryWords, stem, STOP_WORDS } from './words';

export interface SearchableActivity {
  /** The value the form gets. */
  code: string;
  /** The code as people write it, most usual first: "60.39" and "J60.39"; "673.2" and "1.673.2". */
  codeForms: readonly string[];
  /** Its own titles, in any language. */
  titles: readonly string[];
  /** The headings above it, which say what a short title is about ("Servicios en restaurantes" over "De un tenedor"). */
  context?: readonly string[];
}

/** Words people use for one activity, and the codes it is declared under, the best fit first. */
export interface ActivitySynonyms {
  words: readonly string[];
  codes: readonly string[];
}

interface Words {
  all: readonly string[];
  exact: ReadonlySet<string>;
  stems: ReadonlySet<string>;
}

interface Entry {
  code: string;
  /** Compact forms of the code ("6039", "j6039") and the written ones, lower case ("60.39", "j60.39"). */
  compactCodes: readonly string[];
  writtenCodes: readonly string[];
  /** Each title's words, and how many words say something in it. */
  titles: readonly { words: Words; length: number }[];
  /** Titles, headings, synonyms and code together: what a partly typed query is matched against. */
  everything: Words;
  synonyms: { entry: SynonymIndex; position: number }[];
}

interface SynonymIndex {
  words: Words;
  /** Each phrase's content words: a query that covers a whole phrase ("creadores de contenido") fits best. */
  phrases: readonly (readonly string[])[];
}

// How a query word matched a word of the index.
const NONE = 0;
const PREFIX = 1;
const STEM = 2;
const EXACT = 3;
type Quality = typeof NONE | typeof PREFIX | typeof STEM | typeof EXACT;

// The tiers, best first: the code itself, the start of a code, the everyday words, the title's own words, the
// title's words by their stems or with its headings, and what is still being typed (prefixes).
const TIER = { code: 0, codePrefix: 1, synonym: 2, title: 3, stem: 4, prefix: 5, some: 6 } as const;

function wordsOf(texts: readonly string[]): Words {
  const all = [...new Set(texts.flatMap(indexWords))];
  return { all, exact: new Set(all), stems: new Set(all.map(stem)) };
}

function quality(word: string, wordStem: string, words: Words): Quality {
  if (words.exact.has(word)) return EXACT;
  if (words.stems.has(wordStem)) return STEM;
  return words.all.some((candidate) => candidate.startsWith(word)) ? PREFIX : NONE;
}

const compact = (code: string) => normalise(code).replace(/[^a-z0-9]/g, '');
/** A code as typed, without spaces: "J 60.39" → "j60.39". */
const written = (code: string) => normalise(code).replace(/\s+/g, '');
/** Digits, dots and spaces, maybe after a section letter: "6039", "60.39", "673.2", "1.673.2", "J 60.39". */
const looksLikeCode = (query: string) => /^[a-z]?[\d.\s]*\d[\d.\s]*$/.test(normalise(query).trim());

function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Ranked {
  code: string;
  key: readonly number[];
}

function rankByCode(query: string, entries: readonly Entry[]): Ranked[] {
  const key = compact(query);
  const typed = written(query);
  const ranked: Ranked[] = [];
  for (const entry of entries) {
    if (entry.writtenCodes.includes(typed)) ranked.push({ code: entry.code, key: [TIER.code, 0] });
    else if (entry.compactCodes.includes(key)) ranked.push({ code: entry.code, key: [TIER.code, 1] });
    else if (entry.compactCodes.some((code) => code.startsWith(key))) ranked.push({ code: entry.code, key: [TIER.codePrefix, 0] });
  }
  return ranked;
}

/** How each query word matches `words`; a word kept only because the query has nothing else counts as a prefix. */
function qualities(words: readonly string[], stems: readonly string[], prefixOnly: boolean, index: Words): Quality[] {
  return words.map((word, i) => {
    const q = quality(word, stems[i], index);
    return prefixOnly && q > PREFIX ? PREFIX : q;
  });
}

// Past every real position in a synonym list: the entry has no list that fits.
const NO_POSITION = 1000;

function rankEntry(entry: Entry, words: readonly string[], stems: readonly string[], prefixOnly: boolean): readonly number[] | null {
  const everything = qualities(words, stems, prefixOnly, entry.everything);
  if (everything.some((q) => q === NONE)) return null;

  // Everyday words: every query word is a word of one activity's list, or shares its stem. Whole words first,
  // then a query that is one of the list's phrases ("creadores de contenido"), then the code's place in the list.
  let best: readonly number[] | null = null;
  let prefixPosition = NO_POSITION;
  for (const { entry: synonyms, position } of entry.synonyms) {
    const inList = qualities(words, stems, prefixOnly, synonyms.words);
    if (inList.every((q) => q >= STEM)) {
      const wholePhrase = synonyms.phrases.some((phrase) => phrase.every((p) => words.includes(p) || stems.includes(stem(p))));
      const key = [TIER.synonym, inList.every((q) => q === EXACT) ? 0 : 1, wholePhrase ? 0 : 1, position];
      if (!best || compareKeys(key, best) < 0) best = key;
    } else if (inList.every((q) => q >= PREFIX)) prefixPosition = Math.min(prefixPosition, position);
  }
  if (best) return best;

  // Fewer other words in the title: the activity is more nearly what was typed.
  const exactTitles = entry.titles.filter((title) => qualities(words, stems, prefixOnly, title.words).every((q) => q === EXACT));
  const titleLength = Math.min(...(exactTitles.length > 0 ? exactTitles : entry.titles).map((title) => title.length));
  const extraWords = Math.max(0, titleLength - words.length);
  if (exactTitles.length > 0) return [TIER.title, extraWords];
  if (everything.every((q) => q >= STEM)) return [TIER.stem, extraWords];
  // Still being typed: more whole words first, then the activities whose everyday words start so ("progra").
  const whole = everything.filter((q) => q >= STEM).length;
  return [TIER.prefix, -whole, prefixPosition, extraWords];
}

function rankByWords(query: string, entries: readonly Entry[]): Ranked[] {
  const typed = queryWords(query);
  const words = contentWords(typed);
  if (words.length === 0) return [];
  // "a" alone may be the start of "abogado": a query of nothing but stop words is matched by prefix only.
  const prefixOnly = words.every((word) => STOP_WORDS.has(word));
  const stems = words.map(stem);
  const ranked: Ranked[] = [];
  for (const entry of entries) {
    const key = rankEntry(entry, words, stems, prefixOnly);
    if (key) ranked.push({ code: entry.code, key });
  }
  if (ranked.length > 0 || words.length === 1) return ranked;

  // No activity has every word. Words no activity has at all ("programador python") are left out and the rest
  // searched again; when each word is known but no activity has them all, the nearest ones are shown.
  const known = words.filter((word, i) => entries.some((entry) => quality(word, stems[i], entry.everything) !== NONE));
  if (known.length > 0 && known.length < words.length) return rankByWords(known.join(' '), entries);
  return entries
    .map((entry) => ({ code: entry.code, key: [TIER.some, -words.filter((word, i) => quality(word, stems[i], entry.everything) !== NONE).length] }))
    .filter((result) => result.key[1] < 0);
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i += 1) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}

export interface ActivityIndex {
  /** The codes that match `query`, the most relevant first (ties by code); none for an empty query. */
  search(query: string, limit?: number): string[];
}

/**
 * An index of a catalogue with the everyday words for its activities. Synonyms naming a code the catalogue does
 * not have are ignored here (a test checks that none does).
 */
export function createActivityIndex(activities: readonly SearchableActivity[], synonyms: readonly ActivitySynonyms[]): ActivityIndex {
  const synonymsOf = new Map<string, { entry: SynonymIndex; position: number }[]>();
  const synonymWords = new Map<string, string[]>();
  for (const list of synonyms) {
    const entry: SynonymIndex = {
      words: wordsOf(list.words),
      phrases: list.words.map((phrase) => contentWords(queryWords(phrase))),
    };
    list.codes.forEach((code, position) => {
      synonymsOf.set(code, [...(synonymsOf.get(code) ?? []), { entry, position }]);
      synonymWords.set(code, [...(synonymWords.get(code) ?? []), ...list.words]);
    });
  }

  const entries: Entry[] = activities.map((activity) => ({
    code: activity.code,
    compactCodes: activity.codeForms.map(compact),
    writtenCodes: activity.codeForms.map(written),
    titles: activity.titles.map((title) => ({ words: wordsOf([title]), length: contentWords(queryWords(title)).length })),
    everything: wordsOf([...activity.titles, ...(activity.context ?? []), ...(synonymWords.get(activity.code) ?? []), ...activity.codeForms.map(compact)]),
    synonyms: synonymsOf.get(activity.code) ?? [],
  }));

  return {
    search(query, limit = Infinity) {
      if (query.trim() === '') return [];
      const ranked = looksLikeCode(query) ? rankByCode(query, entries) : rankByWords(query, entries);
      return ranked
        .sort((a, b) => compareKeys(a.key, b.key) || compareCodes(a.code, b.code))
        .slice(0, limit)
        .map((result) => result.code);
    },
  };
}
