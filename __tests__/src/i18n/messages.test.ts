import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { ROUTES } from '../../../src/routing/routes';
import { routeTitle } from '../../../src/routing/titles';
import { VALIDATION_FALLBACK_TEXTS } from '../../../src/validation/messages';

const root = path.resolve(__dirname, '../../..');
const en = JSON.parse(readFileSync(path.join(root, 'locales/en.json'), 'utf8')) as Record<string, string>;
const es = JSON.parse(readFileSync(path.join(root, 'locales/es.json'), 'utf8')) as Record<string, string>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) ? [full] : [];
  });
}

// Every string literal shaped like a message id of one of the app's namespaces.
const NAMESPACES = ['app', 'error', 'routes', 'validations', 'components', 'login', 'signUp', 'recovery', 'session', 'commons', 'onboarding', 'documents', 'backOffice'];
const ID_PATTERN = new RegExp(`['"\`]((?:${NAMESPACES.join('|')})\\.[A-Za-z0-9_.-]+)['"\`]`, 'g');

function idsUsedInCode(): Set<string> {
  const ids = new Set<string>();
  for (const file of sourceFiles(path.join(root, 'src'))) {
    for (const match of readFileSync(file, 'utf8').matchAll(ID_PATTERN)) {
      if (!match[1].endsWith('.')) ids.add(match[1]);
    }
  }
  return ids;
}

describe('locale files', () => {
  it('have the same keys in Spanish and English', () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  });

  it('contain every message id the code uses', () => {
    const used = [...idsUsedInCode()];
    expect(used.length).toBeGreaterThan(40);
    expect(used.filter((id) => !(id in en))).toEqual([]);
    expect(used.filter((id) => !(id in es))).toEqual([]);
  });

  it('name every screen in both languages (the titles carry no default text of their own)', () => {
    const ids = ROUTES.map((route) => routeTitle(route.name).id as string);
    expect(ids.length).toBe(ROUTES.length);
    expect(ids.filter((id) => !(id in en) || !(id in es))).toEqual([]);
  });

  it('have no empty texts, and the Spanish is not a copy of the English', () => {
    expect(Object.entries({ ...en, ...es }).filter(([, text]) => !text.trim())).toEqual([]);
    const copied = Object.keys(en).filter((id) => en[id] === es[id] && !/^[A-Z]{2}$|^Divilo$/.test(en[id]));
    expect(copied).toEqual([]);
  });

  it('are valid ICU messages with the same arguments in both languages (the server parses them for the app)', () => {
    const argumentsOf = (message: string) => {
      const names = new Set<string>();
      const walk = (elements: MessageFormatElement[]) =>
        elements.forEach((element) => {
          if (element.type !== TYPE.literal && element.type !== TYPE.pound) names.add(element.value);
          if (element.type === TYPE.tag) walk(element.children);
          if (element.type === TYPE.plural || element.type === TYPE.select) Object.values(element.options).forEach((option) => walk(option.value));
        });
      walk(parse(message));
      return [...names].sort();
    };
    const unparsable = Object.entries({ ...en, ...es }).filter(([, text]) => {
      try {
        parse(text);
        return false;
      } catch {
        return true;
      }
    });
    expect(unparsable).toEqual([]);
    expect(Object.keys(en).filter((id) => argumentsOf(en[id]).join() !== argumentsOf(es[id]).join())).toEqual([]);
  });

  it('contain every validation message of the specification', () => {
    const required = [
      'required', 'url', 'email', 'passport', 'numeric', 'alphanumeric', 'integer', 'minValue', 'maxValue', 'date',
      'notFuture', 'adult', 'minAge', 'fileTypePDF', 'diviloPassword', 'identificationDocument', 'phoneNumber', 'userCode',
      'minLength', 'maxLength',
    ].map((rule) => `validations.${rule}`);
    expect(required.filter((id) => !(id in en) || !(id in es))).toEqual([]);
    expect(en['validations.minLength']).toBe('This field should be at least {min} characters long');
    expect(en['validations.maxLength']).toBe('The maximum length allowed is {max}');
    expect(en['validations.minValue']).toBe('The minimum value allowed is {min}');
    // Reads naturally; the specification's wording is the fallback for a file that lacks the message.
    expect(en['validations.required']).toBe('This field is required');
  });

  it("keep the specification's English texts as the fallback of a missing validation message", () => {
    expect(VALIDATION_FALLBACK_TEXTS).toEqual({
      'validations.minLength': 'This field should be at least {min} characters long',
      'validations.maxLength': 'The maximum length allowed is {max}',
      'validations.minValue': 'The minimum value allowed is {min}',
      'validations.required': 'Value is required',
    });
  });
});
