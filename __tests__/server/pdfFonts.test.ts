// The characters the text fields accept are the characters the contract prints: every one has a glyph of its
// own in the embedded fonts, and a PDF gives each back as it was typed.
import { readFileSync } from 'node:fs';
import * as fontkit from 'fontkit';
import { PDFDocument } from 'pdf-lib';
import { glyphFor } from '../../server/services/pdfFonts';
import { textWriter } from '../../server/services/pdfLayout';
import { isPrintableCharacter } from '../../src/validation/characters';
import { embeddedGlyphs, pageTexts } from './pdfInspection';

const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  han: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
};
const sources = Object.fromEntries(Object.entries(FONT_FILES).map(([face, file]) => [face, fontkit.create(readFileSync(require.resolve(file))) as fontkit.Font]));

/** The glyph of `char` in the font file as the package ships it. */
function sourceGlyph(char: string, bold: boolean): fontkit.Glyph {
  const { face } = glyphFor(char, bold)!;
  return sources[face].glyphForCodePoint(char.codePointAt(0)!);
}

/** Every code point the validators let into a printed field. */
function printableCharacters(): string[] {
  const chars: string[] = [];
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    const char = String.fromCodePoint(codePoint);
    if (isPrintableCharacter(char)) chars.push(char);
  }
  return chars;
}

describe('the contract fonts', () => {
  const printable = printableCharacters();

  it('have a glyph for every character the text fields accept, in regular and in bold', () => {
    // Latin with its extensions, Greek, Cyrillic, the CJK Unified Ideographs and Extension A, punctuation.
    expect(printable.length).toBeGreaterThan(29_000);
    expect(printable.filter((char) => glyphFor(char, false) === undefined || glyphFor(char, true) === undefined)).toEqual([]);
  });

  it('give each Latin, Greek and Cyrillic character a glyph of its own, so a copied name is the typed one', () => {
    for (const bold of [false, true]) {
      const byGlyph = new Map<string, string>();
      const shared: string[] = [];
      for (const char of printable) {
        const glyph = glyphFor(char, bold)!;
        if (glyph.face === 'han') continue;
        const key = `${glyph.face}:${glyph.id}`;
        if (byGlyph.has(key)) shared.push(`${byGlyph.get(key)}=${char}`);
        byGlyph.set(key, char);
      }
      expect(shared).toEqual([]);
    }
  });

  it('give back, from a PDF, every character as it was set (a sample of each script, through the ToUnicode maps)', async () => {
    // Every 7th printable character, in values of 40: the Han block too, where the fonts are largest.
    const sample = printable.filter((char, index) => index % 7 === 0 && !/\p{M}/u.test(char) && char !== ' ');
    const values: string[] = [];
    for (let index = 0; index < sample.length; index += 40) values.push(sample.slice(index, index + 40).join(''));
    const doc = await PDFDocument.create();
    const writer = textWriter(doc, 'Header');
    for (const value of values) writer.field('Value', value);
    await writer.finish(() => '');
    const pdf = await doc.save();
    const text = (await pageTexts(pdf)).join('\n');
    expect(values.filter((value) => !text.includes(value))).toEqual([]);

    // And each glyph the PDF carries is the font's own outline, as a reader renders it: a subset that loses its
    // glyphs' places still gives the text back, but draws nothing or garbage.
    const embedded = await embeddedGlyphs(pdf);
    expect(embedded.length).toBeGreaterThan(sample.length / 2);
    const wrong = embedded.filter(({ font, char, bbox, commands }) => {
      const original = sourceGlyph(char, font.includes('Bold'));
      return commands !== original.path.commands.length || bbox.join() !== [original.bbox.minX, original.bbox.minY, original.bbox.maxX, original.bbox.maxY].join();
    });
    expect(wrong.slice(0, 5)).toEqual([]);
  });
});
