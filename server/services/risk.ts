// The application's risk factor (AML/CFT due diligence): from a politically exposed person, the countries of
// the applicant and of the business against the FATF lists, and the origin of the funds. A high risk sends the
// application to manual review; it never rejects it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

type RiskFactor = 'low' | 'medium' | 'high';

export interface HighRiskCountries {
  /** FATF "call for action" (black list): ISO 3166-1 alpha-2. */
  black: Set<string>;
  /** FATF "increased monitoring" (grey list). */
  grey: Set<string>;
}

/** The lists as the bank keeps them (server/data/high-risk-countries.json or HIGH_RISK_COUNTRIES_FILE). */
export function loadHighRiskCountries(file = path.join(__dirname, '..', 'data', 'high-risk-countries.json')): HighRiskCountries {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { items: Record<string, { iso2: string }[]> };
  const codes = (list: string) => new Set((data.items[list] ?? []).map((country) => country.iso2.toUpperCase()));
  return { black: codes('fatf_black_list'), grey: codes('fatf_grey_list') };
}

/** Origins of funds that call for a closer look on their own. */
const WATCHED_ORIGINS = new Set(['loan', 'other', 'inheritance-or-gift']);

const listed = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * The risk of an application's answers (the form record's names); missing answers add nothing. A company's
 * real owners count as the applicant does: one politically exposed, or of a listed nationality, raises it.
 */
export function riskOf(answers: Record<string, unknown>, lists: HighRiskCountries): RiskFactor {
  const owners = listed(answers.owners).filter((owner): owner is Record<string, unknown> => typeof owner === 'object' && owner !== null);
  const countries = [
    answers.nationality,
    answers.residenceCountry,
    answers.birthCountry,
    answers.companyCountry,
    ...listed(answers.countriesWhereOperate),
    ...listed(answers.operativeCountries),
    ...owners.map((owner) => owner.nationality),
  ]
    .filter((code): code is string => typeof code === 'string')
    .map((code) => code.toUpperCase());
  const exposed = answers.politicalPosition === true || owners.some((owner) => owner.politicalPosition === true);
  if (exposed || countries.some((code) => lists.black.has(code))) return 'high';
  if (countries.some((code) => lists.grey.has(code)) || [answers.foundsOrigin, answers.assetsOrigin].some((origin) => typeof origin === 'string' && WATCHED_ORIGINS.has(origin))) {
    return 'medium';
  }
  return 'low';
}
