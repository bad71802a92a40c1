// Text laid out on A4 pages with the standard Helvetica fonts, for the documents the server makes (the contract,
// its signature record). Helvetica is built into every PDF reader and its WinAnsi encoding covers Spanish; a
// character it cannot show (an applicant's name in another script) is reduced to its base letter or dropped,
// so an answer never stops a document from being made.
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

export const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const BODY_SIZE = 10;
const LEADING = 1.4;
const GREY = rgb(0.35, 0.35, 0.35);

/** Letters with no accent to take off (Polish Ł, Croatian Đ, Turkish ı …): the letter they are written like. */
const LOOKALIKES: Record<string, string> = { Ł: 'L', ł: 'l', Đ: 'D', đ: 'd', Ħ: 'H', ħ: 'h', ı: 'i', Ŧ: 'T', ŧ: 't', Ŀ: 'L', ŀ: 'l' };

const showableCache = new Map<string, boolean>();

function encodable(font: PDFFont, char: string): boolean {
  let known = showableCache.get(char);
  if (known === undefined) {
    try {
      font.encodeText(char);
      known = true;
    } catch {
      known = false;
    }
    showableCache.set(char, known);
  }
  return known;
}

/** `text` as the font can show it: tabs and odd spaces as spaces, accents kept where WinAnsi has them, the rest dropped. */
export function showable(font: PDFFont, text: string): string {
  return [...text.normalize('NFC').replace(/\s/g, ' ')]
    .map((char) => (encodable(font, char) ? char : [...(LOOKALIKES[char] ?? char.normalize('NFKD'))].filter((part) => !/\p{M}/u.test(part) && encodable(font, part)).join('')))
    .join('');
}

/** Splits `text` into lines no wider than `width`; a word longer than a line (a hash, a browser's name) is cut. */
function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = word;
    while (!fits(rest)) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut))) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

export interface TextStyle {
  size?: number;
  bold?: boolean;
  grey?: boolean;
  /** Space before the block, in points. */
  before?: number;
}

/** Writes blocks of text top to bottom, starting a new page when one is full; `header` tops every page it starts. */
export async function textWriter(doc: PDFDocument, header: string) {
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const pages: PDFPage[] = [];
  let page!: PDFPage;
  let y = 0;
  const width = A4[0] - 2 * MARGIN;

  const newPage = () => {
    page = doc.addPage(A4);
    pages.push(page);
    page.drawText(showable(bold, header), { x: MARGIN, y: A4[1] - MARGIN / 2 - 4, size: 8, font: bold, color: GREY });
    y = A4[1] - MARGIN;
  };

  const text = (content: string, style: TextStyle = {}) => {
    const font = style.bold ? bold : regular;
    const size = style.size ?? BODY_SIZE;
    const lineHeight = size * LEADING;
    y -= style.before ?? 0;
    for (const paragraph of content.split('\n')) {
      for (const line of wrap(font, size, showable(font, paragraph), width)) {
        if (y - lineHeight < MARGIN) newPage();
        y -= lineHeight;
        page.drawText(line, { x: MARGIN, y, size, font, color: style.grey ? GREY : rgb(0, 0, 0) });
      }
    }
  };

  newPage();
  return {
    text,
    /** A label in bold with its value under it. */
    field: (label: string, value: string) => {
      text(label, { bold: true, before: 4 });
      text(value);
    },
    /** Writes `footer(n, total)` at the foot of every page written so far. */
    footers: (footer: (pageNumber: number, total: number) => string) =>
      pages.forEach((each, index) => each.drawText(showable(regular, footer(index + 1, pages.length)), { x: MARGIN, y: MARGIN / 2, size: 8, font: regular, color: GREY })),
  };
}
