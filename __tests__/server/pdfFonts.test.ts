// The characters the text fields accept are the characters the contract prints: every one has a glyph of its
// own in the embedded fonts, and a PDF gives each back as it was typed.
import { PDFDocument } from 'pdf-lib';
import { glyphFor } from '../../server/services/pdfFonts';
import { textWriter } from '../../server/services/pdfLayout';
import { isPrintableCharacter } from '../../src/validation/characters';
import { pageTexts } from './pdfInspection';

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
    const text = (await pageTexts(await doc.save())).join('\n');
    expect(values.filter((value) => !text.includes(value.split(' ').join(' ')))).toEqual([]);
  });
});
