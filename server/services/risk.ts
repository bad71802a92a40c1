// The application's risk factor (AML/CFT due diligence): from a politically exposed person, the countries of
// the applicant and of the business against the FATF lists, and the origin of the funds. A high risk sends the
// application to manual review; it never rejects it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { atRoot } from '../paths';

type RiskFactor = 'low' | 'medium' | 'high';

export interface HighRiskCountries {
  /** FATF "call for action" (black list): ISO 3166-1 alpha-2. */
  black: Set<string>;
  /** FATF "increased monitoring" (grey list). */
  grey: Set<string>;
  /** Which publication the lists are, as the file says (e.g. the FATF statements of a plenary). */
  source: string;
}

/** The lists as the bank keeps them (server/data/high-risk-countries.json or HIGH_RISK_COUNTRIES_FILE). */
export function loadHighRiskCountries(file = atRoot('server/data/high-risk-countries.json')): HighRiskCountries {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { items: Record<string, { iso2: string }[]>; source?: { fatf?: { version?: string } } };
  const codes = (list: string) => new Set((data.items[list] ?? []).map((country) => country.iso2.toUpperCase()));
  return { black: codes('fatf_black_list'), grey: codes('fatf_grey_list'), source: data.source?.fatf?.version ?? path.basename(file) };
}

/** Origins of funds that call for a closer look on their own. */
const WATCHED_ORIGINS = new Set(['loan', 'other', 'inheritance-or-gift']);

const listed = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/**
 * One reason an application's risk is what it is: which answer (`field`, `owners[1].nationality` for a real
 * owner), its value, the level it raises the risk to, and what says so (the FATF list and its publication, or the
 * bank's own rule).
 */
export interface RiskReason {
  kind: 'politically-exposed' | 'fatf-call-for-action' | 'fatf-increased-monitoring' | 'watched-origin-of-funds';
  field: string;
  value: string | boolean;
  level: Exclude<RiskFactor, 'low'>;
  source: string;
}

const COUNTRY_FIELDS = ['nationality', 'residenceCountry', 'birthCountry', 'companyCountry'] as const;
const COUNTRY_LIST_FIELDS = ['countriesWhereOperate', 'operativeCountries'] as const;
const BANK_RULE = 'Divilo customer acceptance policy';

/**
 * Every reason behind an application's risk (the form record's names); missing answers add nothing. A company's
 * real owners count as the applicant does: one politically exposed, or of a listed nationality, raises it.
 */
export function riskReasonsOf(answers: Record<string, unknown>, lists: HighRiskCountries): RiskReason[] {
  const owners = listed(answers.owners).filter((owner): owner is Record<string, unknown> => typeof owner === 'object' && owner !== null);
  const countries: [string, unknown][] = [
    ...COUNTRY_FIELDS.map((field): [string, unknown] => [field, answers[field]]),
    ...COUNTRY_LIST_FIELDS.flatMap((field) => listed(answers[field]).map((code, index): [string, unknown] => [`${field}[${index}]`, code])),
    ...owners.map((owner, index): [string, unknown] => [`owners[${index}].nationality`, owner.nationality]),
  ];
  const reasons: RiskReason[] = [];
  const exposed: [string, unknown][] = [['politicalPosition', answers.politicalPosition], ...owners.map((owner, index): [string, unknown] => [`owners[${index}].politicalPosition`, owner.politicalPosition])];
  for (const [field, value] of exposed) {
    if (value === true) reasons.push({ kind: 'politically-exposed', field, value, level: 'high', source: BANK_RULE });
  }
  for (const [field, value] of countries) {
    if (typeof value !== 'string') continue;
    const code = value.toUpperCase();
    if (lists.black.has(code)) reasons.push({ kind: 'fatf-call-for-action', field, value: code, level: 'high', source: lists.source });
    else if (lists.grey.has(code)) reasons.push({ kind: 'fatf-increased-monitoring', field, value: code, level: 'medium', source: lists.source });
  }
  for (const field of ['foundsOrigin', 'assetsOrigin']) {
    const origin = answers[field];
    if (typeof origin === 'string' && WATCHED_ORIGINS.has(origin)) reasons.push({ kind: 'watched-origin-of-funds', field, value: origin, level: 'medium', source: BANK_RULE });
  }
  return reasons;
}

/** The risk of an application's answers: the highest level of its reasons, low without any. */
export function riskOf(answers: Record<string, unknown>, lists: HighRiskCountries): RiskFactor {
  const reasons = riskReasonsOf(answers, lists);
  return reasons.some((reason) => reason.level === 'high') ? 'high' : reasons.length > 0 ? 'medium' : 'low';
}
