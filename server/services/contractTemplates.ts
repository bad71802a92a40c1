// The words of the business account contract are the bank's: one template per language, a JSON file the bank
// writes and versions (`es.json`, `en.json` in the folder CONTRACT_TEMPLATES_DIR names), read and checked once
// at start, so the legal text changes without a release. Without one, the sample in server/data/contract-sample
// is used (never in production: config.ts). The template holds the document's own words only: the applicant's
// answers are set in labelled fields by contract.ts, never in the template's text, and the few values a text
// may name ({date}, {privacyPolicyDate} …) are dates and numbers the server makes.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isPlainText, unprintableCharacters } from '../../src/validation/characters';
import { atRoot } from '../paths';

export type ContractLanguage = 'es' | 'en';

export interface ContractSection {
  heading: string;
  paragraphs: string[];
}

export interface ContractTemplate {
  language: ContractLanguage;
  /** Recorded with each signature (contract row, audit entry, signature record). */
  version: string;
  title: string;
  /** A line under the title (the sample says it is one). */
  notice?: string;
  /** Tops every page. */
  pageHeader: string;
  /** Foots every page: {page}, {pages}, {version}. */
  pageFooter: string;
  /** {date}: the contract's date and time. */
  placeAndDate: string;
  partiesHeading: string;
  /** Divilo as a party. */
  provider: string;
  /** Introduces the holder's fields. */
  holder: string;
  /** Introduces the representative's fields (a company's contract). */
  representedBy: string;
  productHeading: string;
  /** The clauses: {privacyPolicyDate}, {precontractualInformationDate}. */
  sections: ContractSection[];
  consentsHeading: string;
  signatureNote: string;
}

export type ContractTemplates = Record<ContractLanguage, ContractTemplate>;

/** A template that cannot be used: the message is one line naming the file and the place in it. */
export class ContractTemplateError extends Error {}

const SAMPLE_DIR = atRoot('server/data/contract-sample');
const VERSION = /^[A-Za-z0-9][\w.-]{0,39}$/;
const TEXT_MAX = 2000;

const TEXT_FIELDS = ['title', 'pageHeader', 'pageFooter', 'placeAndDate', 'partiesHeading', 'provider', 'holder', 'representedBy', 'productHeading', 'consentsHeading', 'signatureNote'] as const;
const OPTIONAL_TEXT_FIELDS = ['notice'] as const;
const KNOWN_FIELDS = new Set<string>(['version', 'sections', ...TEXT_FIELDS, ...OPTIONAL_TEXT_FIELDS]);

/** The values each text may name; any other text names none. */
const PLACEHOLDERS: Record<string, readonly string[]> = {
  pageFooter: ['page', 'pages', 'version'],
  placeAndDate: ['date'],
  paragraph: ['privacyPolicyDate', 'precontractualInformationDate'],
};

/** `text` with each `{name}` replaced by `values[name]` (a template was checked to name only known values). */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

/** Checks one text of the template: where it is (for the message), and the values it may name. */
function checkedText(value: unknown, where: string, placeholders: readonly string[] = []): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ContractTemplateError(`${where} must be a text`);
  if (value.length > TEXT_MAX) throw new ContractTemplateError(`${where} is longer than ${TEXT_MAX} characters`);
  // One entry is one line or paragraph: a new paragraph is a new entry, so no text hides a line of its own.
  if (!isPlainText(value)) throw new ContractTemplateError(`${where} holds a line break, a tab or a hidden character`);
  const unprintable = unprintableCharacters(value);
  if (unprintable.length > 0) throw new ContractTemplateError(`${where} holds characters the contract's fonts cannot print: ${unprintable.join(' ')}`);
  for (const [, name] of value.matchAll(/\{([^{}]*)\}/g)) {
    if (!placeholders.includes(name)) {
      const allowed = placeholders.length > 0 ? `it may name ${placeholders.map((each) => `{${each}}`).join(', ')}` : 'it may name none';
      throw new ContractTemplateError(`${where} names {${name}}: ${allowed}`);
    }
  }
  return value;
}

/** The template of `language` from its parsed JSON, every text checked; `file` names it in messages. */
function parseContractTemplate(language: ContractLanguage, data: unknown, file: string): ContractTemplate {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new ContractTemplateError(`${file} must hold a JSON object`);
  const raw = data as Record<string, unknown>;
  const unknown = Object.keys(raw).find((key) => !KNOWN_FIELDS.has(key));
  if (unknown !== undefined) throw new ContractTemplateError(`${file}: ${JSON.stringify(unknown)} is not a field of a contract template`);
  if (typeof raw.version !== 'string' || !VERSION.test(raw.version)) {
    throw new ContractTemplateError(`${file}: version must be 1 to 40 letters, digits, dots, dashes or underscores, such as 2026-03`);
  }
  const texts = Object.fromEntries(TEXT_FIELDS.map((field) => [field, checkedText(raw[field], `${file}: ${field}`, PLACEHOLDERS[field])])) as Record<(typeof TEXT_FIELDS)[number], string>;
  const notice = raw.notice === undefined ? undefined : checkedText(raw.notice, `${file}: notice`);
  if (!Array.isArray(raw.sections) || raw.sections.length === 0) throw new ContractTemplateError(`${file}: sections must be a list of at least one { heading, paragraphs }`);
  const sections = raw.sections.map((section: unknown, index): ContractSection => {
    const where = `${file}: sections[${index}]`;
    const { heading, paragraphs, ...rest } = (typeof section === 'object' && section !== null ? section : {}) as Record<string, unknown>;
    if (Object.keys(rest).length > 0) throw new ContractTemplateError(`${where} has fields other than heading and paragraphs`);
    if (!Array.isArray(paragraphs) || paragraphs.length === 0) throw new ContractTemplateError(`${where}.paragraphs must be a list of at least one text`);
    return {
      heading: checkedText(heading, `${where}.heading`),
      paragraphs: paragraphs.map((paragraph: unknown, at) => checkedText(paragraph, `${where}.paragraphs[${at}]`, PLACEHOLDERS.paragraph)),
    };
  });
  return { language, version: raw.version, ...texts, ...(notice === undefined ? {} : { notice }), sections };
}

/**
 * The templates of both languages from `dir` (`es.json` and `en.json`), or the sample without one. Throws a
 * ContractTemplateError naming the file and the place of the first problem.
 */
export function loadContractTemplates(dir: string = SAMPLE_DIR): ContractTemplates {
  const load = (language: ContractLanguage) => {
    const file = path.join(dir, `${language}.json`);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new ContractTemplateError(`${file} cannot be read: the folder needs one template per language (es.json, en.json)`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new ContractTemplateError(`${file} is not valid JSON (${(error as Error).message.split('\n')[0]})`);
    }
    return parseContractTemplate(language, data, file);
  };
  return { es: load('es'), en: load('en') };
}
