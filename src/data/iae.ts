// The IAE activities a freelancer can declare (Tarifas del IAE, RD Legislativo 1175/1990; iae.json keeps the
// source): the epígrafes of section 1, the grupos of section 1 that have none, and the grupos of sections 2
// and 3, which have no epígrafes. Keyed by `full_code` (`1.659.4`), since a code repeats across sections.
// Titles are Spanish only, as published: shown as they are, with the code, in both languages.
import catalogue from './iae.json';

interface IaeActivity {
  /** `<section>.<code>`, e.g. `1.673.2`, `2.731`, `3.013`. */
  code: string;
  section: 1 | 2 | 3;
  title: string;
  /** An epígrafe's grupo, whose title says what a short one is about ("Servicios en restaurantes" over "De un tenedor"). */
  group?: string;
}

interface Entry {
  section: number;
  level: string;
  code: string;
  full_code: string;
  title_es: string;
}

const entries = catalogue.items as Entry[];
const groupOf = (entry: Entry) => `${entry.section}.${entry.code.split('.')[0]}`;
const groupsWithEpigraphs = new Set(entries.filter((entry) => entry.level === 'epigrafe').map(groupOf));
const groupTitles = new Map(entries.filter((entry) => entry.level === 'grupo').map((entry) => [entry.full_code, entry.title_es]));

export const IAE_ACTIVITIES: readonly IaeActivity[] = entries
  .filter((entry) => entry.level === 'epigrafe' || (entry.level === 'grupo' && !groupsWithEpigraphs.has(entry.full_code)))
  .map((entry) => {
    const group = entry.level === 'epigrafe' ? groupTitles.get(groupOf(entry)) : undefined;
    return { code: entry.full_code, section: entry.section as IaeActivity['section'], title: entry.title_es, ...(group ? { group } : {}) };
  });

const codes = new Set(IAE_ACTIVITIES.map((activity) => activity.code));

/** Whether `code` is a declarable IAE activity (a `full_code` of the list above). */
export const isIaeCode = (code: string): boolean => codes.has(code);
