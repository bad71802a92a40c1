// The typefaces the server's PDFs are set in, embedded as subsets so every reader shows the same letters: Noto
// Sans regular and bold (Latin with its extensions, Greek, Cyrillic) and Noto Sans SC (Han), all under the SIL
// Open Font License 1.1, read from the npm packages that ship them. The characters the name and address fields
// accept (src/validation/characters.ts) are the ones these fonts print; a test checks one against the other.
//
// The fonts are parsed and subset by fontkit itself (foliojs), not by pdf-lib's own fork of it: that fork
// (@pdf-lib/fontkit 1.1.1) writes TrueType subsets whose glyph offsets lose a byte (fixed in fontkit 1.8), and
// Noto Sans then printed "H b gefo" for "Hamburgefonstiv". pdf-lib takes any fontkit through registerFontkit;
// the two calls it makes that fontkit 2 names differently are adapted below.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { create as parseFont, type Font, type Glyph } from 'fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';

const FILES = {
  regular: '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans/700Bold/NotoSans_700Bold.ttf',
  han: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
} as const;

type Face = keyof typeof FILES;

interface LoadedFace {
  bytes: Uint8Array;
  font: Font;
}

/** What a character no font prints (left by answers saved before the rules) shows as, so nothing vanishes unseen. */
const REPLACEMENT = '\ufffd';

const faces = new Map<Face, LoadedFace>();

/**
 * One glyph per character, looked up in the font's character map. fontkit's own layout runs every OpenType
 * feature of these large fonts (3–5 ms a line); pdf-lib uses only the glyphs' ids and widths, which draw
 * the same text without it: accents come composed (NFC), and ligatures, which would only hide letters from
 * a text search, are not wanted.
 */
function glyphsOf(font: Font, text: string): Glyph[] {
  return Array.from(text, (char) => {
    const codePoint = char.codePointAt(0)!;
    const glyph = font.glyphForCodePoint(codePoint);
    // Each character keeps its own code point (two may share a glyph), for the font's ToUnicode map.
    return { id: glyph.id, advanceWidth: glyph.advanceWidth, codePoints: [codePoint] } as unknown as Glyph;
  });
}

/** The face's file, read and parsed once per process and shared by every document (parsing Noto Sans SC takes ~30 ms). */
function face(name: Face): LoadedFace {
  let loaded = faces.get(name);
  if (!loaded) {
    const bytes = readFileSync(require.resolve(FILES[name]));
    const font = parseFont(bytes) as Font;
    const fontkitSubset = font.createSubset.bind(font);
    Object.assign(font, {
      layout: (text: string) => ({ glyphs: glyphsOf(font, text) }),
      // pdf-lib reads a subset as the stream fontkit 1 gave; fontkit 2 gives the bytes.
      createSubset: () => {
        const subset = fontkitSubset();
        return Object.assign(subset, { encodeStream: () => Readable.from([Buffer.from(subset.encode())]) });
      },
    });
    loaded = { bytes, font };
    faces.set(name, loaded);
  }
  return loaded;
}

/** pdf-lib's font parser, handing out the parsed faces above. */
const sharedFaces = {
  create(bytes: Uint8Array): Font {
    for (const loaded of faces.values()) if (loaded.bytes === bytes) return loaded.font;
    throw new Error('Only the fonts of pdfFonts.ts are embedded');
  },
};

const covers = (name: Face, char: string) => face(name).font.hasGlyphForCodePoint(char.codePointAt(0)!);

/**
 * The face of each character met so far, in regular and in bold text: wrapping measures the same text often.
 * Small: the text set is what the fields and the template accept, checked character by character.
 */
const faceCache = { regular: new Map<string, Face | undefined>(), bold: new Map<string, Face | undefined>() };

/** Which face prints `char` in a run of regular or bold text; undefined when none does. */
function faceFor(char: string, bold: boolean): Face | undefined {
  const cache = faceCache[bold ? 'bold' : 'regular'];
  if (cache.has(char)) return cache.get(char);
  const main: Face = bold ? 'bold' : 'regular';
  const found = covers(main, char) ? main : covers('han', char) ? 'han' : undefined;
  cache.set(char, found);
  return found;
}

/** Each character's advance in its face, in thousandths of the size. */
const advances = new Map<string, number>();
function advanceOf(name: Face, char: string): number {
  const key = `${name}:${char}`;
  let advance = advances.get(key);
  if (advance === undefined) {
    const { font } = face(name);
    advance = (font.glyphForCodePoint(char.codePointAt(0)!).advanceWidth * 1000) / font.unitsPerEm;
    advances.set(key, advance);
  }
  return advance;
}

/** The face and glyph that print `char` in regular or bold text (undefined: none does). */
export function glyphFor(char: string, bold: boolean): { face: Face; id: number } | undefined {
  const name = faceFor(char, bold);
  return name && { face: name, id: face(name).font.glyphForCodePoint(char.codePointAt(0)!).id };
}

/** Six capitals from the document's text: a subset's name tag (PDF 32000 §9.9.2), the same for the same text. */
function subsetTag(name: Face, texts: readonly string[]): string {
  const digest = createHash('sha256').update(name).update(texts.join('\u0000')).digest();
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
}

/** A piece of one line set in one font. */
export interface Run {
  font: PDFFont;
  face: Face;
  text: string;
}

export interface Typefaces {
  /** `text` (one line: no breaks) split into runs of the font that prints each character. */
  runs(text: string, bold: boolean): Run[];
  /** The width of `text` at `size` points, as `runs` sets it. */
  width(text: string, size: number, bold: boolean): number;
}

/**
 * `text` as it is set: a letter followed by accents typed as separate characters is composed (NFC) where Unicode
 * has the letter whole, since pdf-lib does not position marks; every other character is kept as typed (NFC
 * would also change a few letters on their own, Greek ά U+1F71 into U+03AC). A character no face prints
 * becomes the replacement character.
 */
function settable(text: string, bold: boolean): string {
  const composed = text.replace(/\P{M}\p{M}+/gu, (sequence) => sequence.normalize('NFC'));
  return Array.from(composed, (char) => (faceFor(char, bold) === undefined ? REPLACEMENT : char)).join('');
}

/**
 * Embeds the faces into `doc` as subsets, for a document whose text is `texts` (all of it: the Han face is
 * embedded only when some of it needs it, and the subsets' names derive from it, so the same text gives the
 * same bytes).
 */
export async function embedTypefaces(doc: PDFDocument, texts: readonly string[]): Promise<Typefaces> {
  // fontkit 2's Font has what pdf-lib reads (its tables, its subsets as adapted above); its types name fewer.
  doc.registerFontkit(sharedFaces as unknown as Parameters<PDFDocument['registerFontkit']>[0]);
  const embed = (name: Face) =>
    doc.embedFont(face(name).bytes, { subset: true, customName: `${subsetTag(name, texts)}+${face(name).font.postscriptName ?? name}` });
  const needsHan = texts.some((text) => [...text].some((char) => !covers('regular', char) && covers('han', char)));
  const fonts: Partial<Record<Face, PDFFont>> = { regular: await embed('regular'), bold: await embed('bold'), ...(needsHan ? { han: await embed('han') } : {}) };

  const runs = (text: string, bold: boolean): Run[] => {
    const result: Run[] = [];
    for (let char of settable(text, bold)) {
      let name = faceFor(char, bold)!;
      // Text the document was not told about (a bug): a Han character shows as the replacement, never vanishes.
      if (!fonts[name]) [name, char] = [bold ? 'bold' : 'regular', REPLACEMENT];
      const last = result[result.length - 1];
      if (last?.face === name) last.text += char;
      else result.push({ font: fonts[name]!, face: name, text: char });
    }
    return result;
  };

  const width = (text: string, size: number, bold: boolean) =>
    (runs(text, bold).reduce((total, run) => total + Array.from(run.text).reduce((sum, char) => sum + advanceOf(run.face, char), 0), 0) * size) / 1000;

  return { runs, width };
}
