import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from '@formatjs/icu-messageformat-parser';
import { BACK_OFFICE_MESSAGES, WIZARD_ONLY_MESSAGE_IDS, WIZARD_ONLY_NAMESPACES } from '../../src/config/firstPage';
import type { Locale } from '../../src/i18n/locale';

/** The texts of one language (locales/{locale}.json), or undefined when the file is not there. */
export async function readLocaleSource(localesDir: string, locale: Locale): Promise<string | undefined> {
  try {
    return await readFile(path.join(localesDir, `${locale}.json`), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * What `make` gives for `key`, made once: the catalogs change only between deployments, so a cache keeps two
 * languages and at most one older version of each while a deployment changes them.
 */
function remembered(cache: Map<string, string>, key: string, make: () => string): string {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= 4) cache.delete(cache.keys().next().value!);
    cache.set(key, value);
  }
  return value;
}

const compiledCatalogs = new Map<string, string>();

/** The catalog with every message parsed (cached per source text). */
export function compileCatalog(source: string): string {
  return remembered(compiledCatalogs, source, () => {
    const messages = JSON.parse(source) as Record<string, string>;
    return JSON.stringify(Object.fromEntries(Object.entries(messages).map(([id, message]) => [id, parse(message)])));
  });
}

/** What `/locales/{locale}.ast.json` answers: the language's texts parsed into ICU ASTs, or undefined. */
export async function readCompiledCatalog(localesDir: string, locale: Locale): Promise<string | undefined> {
  const source = await readLocaleSource(localesDir, locale);
  return source === undefined ? undefined : compileCatalog(source);
}

const loginCatalogs = new Map<string, string>();

/**
 * A compiled catalog without the texts only the onboarding wizard uses (WIZARD_ONLY_NAMESPACES and _MESSAGE_IDS) or the back
 * office (BACK_OFFICE_MESSAGES): what a login page carries. Cached per catalog, like the catalogs themselves.
 */
export function loginPart(compiled: string): string {
  return remembered(loginCatalogs, compiled, () => {
    const messages = JSON.parse(compiled) as Record<string, unknown>;
    const notForLogin = (id: string) =>
      (WIZARD_ONLY_NAMESPACES as readonly string[]).includes(id.slice(0, id.indexOf('.'))) ||
      (WIZARD_ONLY_MESSAGE_IDS as readonly string[]).includes(id) ||
      BACK_OFFICE_MESSAGES.test(id);
    return JSON.stringify(Object.fromEntries(Object.entries(messages).filter(([id]) => !notForLogin(id))));
  });
}
