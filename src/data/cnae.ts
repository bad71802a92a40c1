// The CNAE-2025 classes a company can declare as its main activity (RD 10/2025; cnae2025.json keeps the source).
// CNAE-2025 follows NACE Rev. 2.1 class by class, so the English titles are NACE's as published (Delegated
// Regulation (EU) 2023/137), never translated here. Where Spain divides a NACE class, each part carries the title
// of the NACE class it comes from and names that class in `titleEnFrom`, so the page can say so.
import type { Locale } from '../i18n/locale';
import catalogue from './cnae2025.json';

interface CnaeActivity {
  /** The class, dotted: `62.10`. */
  code: string;
  titleEs: string;
  titleEn: string;
  /** The section letter, e.g. `K`. */
  section: string;
  /** Only on the Spanish divisions of a NACE class: that class (`10.41` for 10.43 and 10.44), whose title `titleEn` is. */
  titleEnFrom?: string;
}

interface Entry {
  level: string;
  code: string;
  title_es: string;
  title_en?: string;
  title_en_from?: string;
  section: string;
}

const entries = catalogue.items as Entry[];

export const CNAE_ACTIVITIES: readonly CnaeActivity[] = entries
  .filter((entry) => entry.level === 'class')
  .map((entry) => ({
    code: entry.code,
    titleEs: entry.title_es,
    titleEn: entry.title_en || entry.title_es,
    section: entry.section,
    ...(entry.title_en_from ? { titleEnFrom: entry.title_en_from } : {}),
  }))
  .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

const byCode = new Map(CNAE_ACTIVITIES.map((activity) => [activity.code, activity]));

/** Whether `code` is a CNAE-2025 class (`62.10`; groups, divisions and sections are not declarable). */
export const isCnaeCode = (code: string): boolean => byCode.has(code);

/** The class's title in `locale` (English falls back to Spanish where a title is missing); undefined for a code that is not a class. */
export function cnaeTitle(code: string, locale: Locale): string | undefined {
  const activity = byCode.get(code);
  if (!activity) return undefined;
  return locale === 'es' ? activity.titleEs : activity.titleEn;
}
