// The login's font file and the faces of src/styles/fonts.css: the login journey draws every character from its
// own small file, and the faces share the typeface's Latin file between them without overlapping.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import * as fontkit from 'fontkit';
import { compileCatalog, loginPart } from '../../server/services/localeCatalogs';

const root = path.resolve(__dirname, '..', '..');
const fontsCss = readFileSync(path.join(root, 'src/styles/fonts.css'), 'utf8');

/** The code points of a CSS unicode-range. */
function codePoints(range: string): Set<number> {
  const points = new Set<number>();
  for (const part of range.split(',')) {
    const [, from, to] = /U\+([0-9A-F]+)(?:-([0-9A-F]+))?/i.exec(part.trim())!;
    for (let point = parseInt(from, 16); point <= parseInt(to ?? from, 16); point += 1) points.add(point);
  }
  return points;
}

/** The unicode-range of the face in `css` whose source names `file`. */
function rangeOf(css: string, file: string): Set<number> {
  const face = css.split('@font-face').find((block) => block.includes(file));
  if (!face) throw new Error(`no face for ${file}`);
  return codePoints(/unicode-range:\s*([^;]+);/.exec(face)![1]);
}

const loginRange = rangeOf(fontsCss, 'figtree-login-wght-normal.woff2');
const show = (points: Iterable<number>) => [...points].map((point) => `U+${point.toString(16).toUpperCase().padStart(4, '0')}`);

describe('the login font', () => {
  it('holds exactly the characters of its face’s range (scripts/subset-font.sh made it from that range)', () => {
    const font = fontkit.create(readFileSync(path.join(root, 'src/styles/fonts/figtree-login-wght-normal.woff2'))) as fontkit.Font;
    expect(font.variationAxes.wght).toMatchObject({ min: 300, max: 900 });
    // U+FFFF: the character map's closing segment, which maps to no glyph.
    const mapped = font.characterSet.filter((point) => point !== 0xffff && font.glyphForCodePoint(point).id !== 0);
    expect(show(new Set(mapped))).toEqual(show(loginRange));
  });

  it('covers every text a login page carries, in both languages, and what is typed in its fields', () => {
    for (const locale of ['en', 'es']) {
      const texts = loginPart(compileCatalog(readFileSync(path.join(root, 'locales', `${locale}.json`), 'utf8')));
      const missing = new Set([...texts].map((char) => char.codePointAt(0)!).filter((point) => !loginRange.has(point)));
      expect({ locale, missing: show(missing) }).toEqual({ locale, missing: [] });
    }
    // An ID document's letters and digits; a password is shown as bullets.
    const typed = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789•';
    expect([...typed].filter((char) => !loginRange.has(char.codePointAt(0)!))).toEqual([]);
  });

  it('shares the Latin file’s range with the face of that file: together all of it, no character in both', () => {
    const packageCss = readFileSync(require.resolve('@fontsource-variable/figtree/wght.css'), 'utf8');
    const latin = rangeOf(packageCss, 'figtree-latin-wght-normal.woff2');
    const rest = rangeOf(fontsCss, "figtree/files/figtree-latin-wght-normal.woff2'");
    expect(show([...loginRange].filter((point) => rest.has(point)))).toEqual([]);
    expect(show([...loginRange, ...rest].sort((a, b) => a - b))).toEqual(show([...latin].sort((a, b) => a - b)));
  });
});
