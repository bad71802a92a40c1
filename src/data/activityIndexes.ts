// The two activity catalogues as the search reads them (codes as forms write them, titles, headings), and the
// everyday words for their activities (activitySynonyms.json, made by hand: see its `source`).
import { createActivityIndex, type ActivityIndex, type ActivitySynonyms, type SearchableActivity } from './activitySearch';
import { CNAE_ACTIVITIES } from './cnae';
import { IAE_ACTIVITIES } from './iae';

export type Catalogue = 'iae' | 'cnae';

/** One activity of activitySynonyms.json: its words in both languages and its codes, the best fit first. */
export interface SynonymEntry {
  activity: string;
  es: readonly string[];
  en: readonly string[];
  iae: readonly string[];
  cnae: readonly string[];
}

/**
 * The everyday words, in a chunk of their own: they weigh about as much as a catalogue, and only the two activity
 * steps need them, so the wizard's first page does not wait for them.
 */
export async function loadSynonyms(): Promise<readonly SynonymEntry[]> {
  const list = await import(/* webpackChunkName: "activity-words" */ './activitySynonyms.json');
  return list.default.entries;
}

export function synonymsFor(entries: readonly SynonymEntry[], catalogue: Catalogue): ActivitySynonyms[] {
  return entries.map((entry) => ({ words: [...entry.es, ...entry.en], codes: entry[catalogue] }));
}

/** IAE: "673.2" as the tax forms write it, or "1.673.2" with its section; the grupo's title says what "De un tenedor" is. */
const IAE_SEARCHABLE: readonly SearchableActivity[] = IAE_ACTIVITIES.map((activity) => ({
  code: activity.code,
  codeForms: [activity.code.slice(activity.code.indexOf('.') + 1), activity.code],
  titles: [activity.title],
  context: activity.group ? [activity.group] : [],
}));

/** CNAE-2025: "60.39", or "J60.39" with its section letter; searched in both languages whatever the page's. */
const CNAE_SEARCHABLE: readonly SearchableActivity[] = CNAE_ACTIVITIES.map((activity) => ({
  code: activity.code,
  codeForms: [activity.code, `${activity.section}${activity.code}`],
  titles: [activity.titleEs, activity.titleEn],
}));

const indexes = new Map<string, ActivityIndex>();

/** The catalogue's index, with the everyday words once they are here (built once each way). */
export function activityIndex(catalogue: Catalogue, synonyms: readonly SynonymEntry[] | null): ActivityIndex {
  const key = `${catalogue}:${synonyms ? 'words' : 'titles'}`;
  let index = indexes.get(key);
  if (!index) {
    index = createActivityIndex(catalogue === 'iae' ? IAE_SEARCHABLE : CNAE_SEARCHABLE, synonyms ? synonymsFor(synonyms, catalogue) : []);
    indexes.set(key, index);
  }
  return index;
}
