// The everyday words for the activities of freelancers and small companies (made by hand: see its `source`): every
// code they name is one applicants can declare, and each activity is found by its own words.
import { activityIndex, synonymsFor, type SynonymEntry } from '../../../src/data/activityIndexes';
import list from '../../../src/data/activitySynonyms.json';
import { cnaeTitle, isCnaeCode } from '../../../src/data/cnae';
import { isIaeCode } from '../../../src/data/iae';
import { normalise } from '../../../src/data/words';

const entries = list.entries as SynonymEntry[];

describe('activitySynonyms.json', () => {
  it('says how it was made', () => {
    expect(list.source.how_made).toMatch(/by hand/);
    expect(list.source.checked).toMatch(/activitySynonyms\.test\.ts/);
  });

  it('has at least 150 activities, each named once, with words in Spanish and English', () => {
    expect(entries.length).toBeGreaterThanOrEqual(150);
    expect(new Set(entries.map((entry) => entry.activity)).size).toBe(entries.length);
    for (const entry of entries) {
      expect(entry.es.length).toBeGreaterThan(0);
      expect(entry.en.length).toBeGreaterThan(0);
      for (const word of [...entry.es, ...entry.en]) expect(word).toBe(word.trim().toLowerCase());
      // A word written twice in one language of an activity is a slip of the pen (loanwords such as
      // "influencer" are in both languages on purpose).
      for (const words of [entry.es, entry.en]) expect(new Set(words.map(normalise)).size).toBe(words.length);
    }
  });

  it('maps every activity to IAE codes and CNAE-2025 classes that exist, each once', () => {
    for (const entry of entries) {
      expect(entry.iae.length).toBeGreaterThan(0);
      expect(entry.cnae.length).toBeGreaterThan(0);
      expect(entry.iae.filter((code) => !isIaeCode(code))).toEqual([]);
      expect(entry.cnae.filter((code) => !isCnaeCode(code))).toEqual([]);
      expect(new Set(entry.iae).size).toBe(entry.iae.length);
      expect(new Set(entry.cnae).size).toBe(entry.cnae.length);
    }
  });

  it('gives each catalogue its own codes', () => {
    const iae = synonymsFor(entries, 'iae');
    expect(iae).toHaveLength(entries.length);
    expect(iae.find((synonyms) => synonyms.words.includes('fontanero'))?.codes).toEqual(['1.504.2']);
    expect(synonymsFor(entries, 'cnae').find((synonyms) => synonyms.words.includes('plumber'))?.codes).toEqual(['43.22']);
    expect(cnaeTitle('43.22', 'en')).toMatch(/^Plumbing/);
  });

  // Each activity's first word in each language finds one of its codes among the first three: a word another
  // activity also claims must not bury it.
  it.each(entries.map((entry) => [entry.activity, entry] as const))('finds "%s" by its first words', (_, entry) => {
    const iae = activityIndex('iae', entries);
    const cnae = activityIndex('cnae', entries);
    for (const word of [entry.es[0], entry.en[0]]) {
      expect(iae.search(word, 3).some((code) => entry.iae.includes(code))).toBe(true);
      expect(cnae.search(word, 3).some((code) => entry.cnae.includes(code))).toBe(true);
    }
  });
});
