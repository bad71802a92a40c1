// The entity a CIF names (its first letter), the ones the bank serves, and their legal forms: read by the flow's
// rules, which every page loads, so this module holds no schema and no library.
import { normaliseCif } from './normalise';

/**
 * Entity types (the first letter of a CIF) the bank serves: companies with legal personality that run a business.
 * The others are refused at /about-company (docs/onboarding.md says why for each).
 */
const SERVED_ENTITY_LETTERS = ['A', 'B', 'C', 'D', 'F', 'J'] as const;

/** Legal forms, and the entity letter of the CIF each has. */
export const LEGAL_FORMS = {
  SA: 'A',
  SAU: 'A',
  SAL: 'A',
  SL: 'B',
  SLU: 'B',
  SLL: 'B',
  SLNE: 'B',
  SRC: 'C',
  SCOM: 'D',
  SCOMPA: 'D',
  SCOOP: 'F',
  SC: 'J',
} as const satisfies Record<string, (typeof SERVED_ENTITY_LETTERS)[number]>;
export type LegalForm = keyof typeof LEGAL_FORMS;

/** Each legal form as Spanish law abbreviates it, in both languages: what the form offers and the contract prints. */
export const LEGAL_FORM_ABBREVIATIONS: Record<LegalForm, string> = {
  SA: 'S.A.',
  SAU: 'S.A.U.',
  SAL: 'S.A.L.',
  SL: 'S.L.',
  SLU: 'S.L.U.',
  SLL: 'S.L.L.',
  SLNE: 'S.L.N.E.',
  SRC: 'S.R.C.',
  SCOM: 'S. Com.',
  SCOMPA: 'S. Com. por A.',
  SCOOP: 'S. Coop.',
  SC: 'S.C.',
};

/** The entity letter of a CIF as typed (spaces, dashes and case ignored), or '' when it has none. */
export function entityLetterOf(cif: unknown): string {
  const text = normaliseCif(cif);
  return /^[A-Z]\d/.test(text) ? text[0] : '';
}

/** Whether the bank serves the entity a (valid) CIF names. */
export const isServedEntity = (cif: unknown): boolean => (SERVED_ENTITY_LETTERS as readonly string[]).includes(entityLetterOf(cif));

/** The legal forms that fit a CIF's entity letter (all of them when the letter is unknown). */
export function legalFormsFor(cif: unknown): LegalForm[] {
  const letter = entityLetterOf(cif);
  const forms = Object.keys(LEGAL_FORMS) as LegalForm[];
  return letter ? forms.filter((form) => LEGAL_FORMS[form] === letter) : forms;
}
