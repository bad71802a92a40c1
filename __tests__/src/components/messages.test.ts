import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import en from './messages.en.json';
import es from './messages.es.json';

// The components' texts delivered for locales/: the same ids as the code, the English as its defaults.
const dir = path.resolve(__dirname, '../../../src/components');
const defined = new Map<string, string>();
for (const file of readdirSync(dir).filter((name) => name.endsWith('.tsx'))) {
  const source = readFileSync(path.join(dir, file), 'utf8');
  for (const match of source.matchAll(/id: '(components\.[\w.]+)',\s*defaultMessage:\s*'((?:[^'\\]|\\.)*)'/g)) {
    defined.set(match[1], match[2].replace(/\\'/g, "'"));
  }
}

describe('component messages', () => {
  it('are all namespaced components.<component>.<name>', () => {
    expect(defined.size).toBeGreaterThan(10);
    for (const id of defined.keys()) expect(id).toMatch(/^components\.[a-z][A-Za-z]+\.[a-z][A-Za-z]+$/);
  });

  it('have an English and a Spanish text for every id, and no others', () => {
    const ids = [...defined.keys()].sort();
    expect(Object.keys(en).sort()).toEqual(ids);
    expect(Object.keys(es).sort()).toEqual(ids);
  });

  it('use the English text as the default message', () => {
    for (const [id, defaultMessage] of defined) expect([id, defaultMessage]).toEqual([id, en[id as keyof typeof en]]);
  });

  it('are translated, except the product name', () => {
    const copied = Object.keys(en).filter((id) => en[id as keyof typeof en] === es[id as keyof typeof es]);
    expect(copied).toEqual(['components.layout.productName']);
  });
});
