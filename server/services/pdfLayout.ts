// Text laid out on A4 pages, for the documents the server makes (the contract, its signature record, the sample
// legal documents), set in the embedded typefaces of pdfFonts.ts: every character a field accepts prints as
// typed. Two kinds of block: text (the document's own words, wrapped into paragraphs) and fields (a label and a
// value from the applicant or the request, in a box of their own). A value is drawn inside its box, on as many
// lines as it needs there and never as a line of the running text, so no answer can read as a clause.
import { rgb, type PDFDocument, type PDFPage } from 'pdf-lib';
import { embedTypefaces, type Typefaces } from './pdfFonts';

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const BODY_SIZE = 10;
const LABEL_SIZE = 9;
const LEADING = 1.4;
const GREY = rgb(0.35, 0.35, 0.35);
const RULE = rgb(0.75, 0.75, 0.75);
const BLACK = rgb(0, 0, 0);
/** A field's box: the label's column, the gap before the value's, and the padding inside. */
const LABEL_WIDTH = 150;
const FIELD_GAP = 12;
const FIELD_PADDING = 4;

/** Line breaks, tabs, controls and format characters become spaces: a document's line is one line. */
const oneLine = (text: string) => text.replace(/[\s\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ');

/** Splits `text` into lines no wider than `width`; a word longer than a line (a hash, a browser's name) is cut. */
function wrap(fits: (candidate: string) => boolean, text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of oneLine(text).split(' ').filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    let rest = Array.from(word);
    while (rest.length > 1 && !fits(rest.join(''))) {
      let cut = rest.length - 1;
      while (cut > 1 && !fits(rest.slice(0, cut).join(''))) cut -= 1;
      lines.push(rest.slice(0, cut).join(''));
      rest = rest.slice(cut);
    }
    line = rest.join('');
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

type Block = { kind: 'text'; content: string; style: TextStyle } | { kind: 'field'; label: string; value: string };

/**
 * Writes blocks top to bottom, starting a new page when one is full; `header` tops every page it starts. The
 * blocks are gathered first and set by `finish`, which embeds the typefaces their text needs.
 */
export function textWriter(doc: PDFDocument, header: string) {
  const blocks: Block[] = [];
  const width = A4[0] - 2 * MARGIN;

  const setLines = (typefaces: Typefaces, pages: PDFPage[]) => {
    let page!: PDFPage;
    let y = 0;
    const draw = (text: string, x: number, baseline: number, size: number, bold: boolean, color = BLACK) => {
      let left = x;
      for (const run of typefaces.runs(text, bold)) {
        page.drawText(run.text, { x: left, y: baseline, size, font: run.font, color });
        left += typefaces.width(run.text, size, bold);
      }
    };
    const newPage = () => {
      page = doc.addPage(A4);
      pages.push(page);
      draw(oneLine(header), MARGIN, A4[1] - MARGIN / 2 - 4, 8, true, GREY);
      y = A4[1] - MARGIN;
    };
    const linesOf = (text: string, size: number, bold: boolean, room: number) => wrap((candidate) => typefaces.width(candidate, size, bold) <= room, text);

    newPage();
    for (const block of blocks) {
      if (block.kind === 'text') {
        const { style } = block;
        const size = style.size ?? BODY_SIZE;
        const lineHeight = size * LEADING;
        y -= style.before ?? 0;
        for (const line of linesOf(block.content, size, style.bold ?? false, width)) {
          if (y - lineHeight < MARGIN) newPage();
          y -= lineHeight;
          draw(line, MARGIN, y, size, style.bold ?? false, style.grey ? GREY : BLACK);
        }
        continue;
      }
      // A field: the label on the left, the value on the right, both inside one ruled box that never splits.
      const valueWidth = width - LABEL_WIDTH - FIELD_GAP - 2 * FIELD_PADDING;
      const labels = linesOf(block.label, LABEL_SIZE, true, LABEL_WIDTH - FIELD_PADDING);
      // A value with a word longer than the box (a SHA-256, a reference) is set smaller, down to 7 points, so the
      // word stays whole on one line where it can: what a reader copies is then the value as it is.
      const longest = oneLine(block.value).split(' ').reduce((widest, word) => Math.max(widest, typefaces.width(word, BODY_SIZE, false)), 0);
      const valueSize = Math.max(7, Math.min(BODY_SIZE, Math.floor((BODY_SIZE * valueWidth) / Math.max(longest, 1))));
      const values = linesOf(block.value, valueSize, false, valueWidth);
      const lineHeight = BODY_SIZE * LEADING;
      const height = Math.max(labels.length, values.length, 1) * lineHeight + 2 * FIELD_PADDING;
      y -= 4;
      if (y - height < MARGIN) newPage();
      page.drawRectangle({ x: MARGIN, y: y - height, width, height, borderColor: RULE, borderWidth: 0.5 });
      labels.forEach((line, index) => draw(line, MARGIN + FIELD_PADDING, y - FIELD_PADDING - (index + 1) * lineHeight + 2, LABEL_SIZE, true, GREY));
      values.forEach((line, index) => draw(line, MARGIN + LABEL_WIDTH + FIELD_GAP, y - FIELD_PADDING - (index + 1) * lineHeight + 2, valueSize, false));
      y -= height;
    }
  };

  return {
    text: (content: string, style: TextStyle = {}) => void blocks.push({ kind: 'text', content, style }),
    /** A label and its value, the value drawn only inside the field's box. */
    field: (label: string, value: string) => void blocks.push({ kind: 'field', label, value }),
    /** Sets the blocks on pages, with `footer(n, total)` at the foot of each. */
    async finish(footer: (pageNumber: number, total: number) => string): Promise<void> {
      const texts = [header, footer(0, 0), ...blocks.flatMap((block) => (block.kind === 'text' ? [block.content] : [block.label, block.value]))];
      const typefaces = await embedTypefaces(doc, texts);
      const pages: PDFPage[] = [];
      setLines(typefaces, pages);
      pages.forEach((page, index) => {
        let left = MARGIN;
        for (const run of typefaces.runs(oneLine(footer(index + 1, pages.length)), false)) {
          page.drawText(run.text, { x: left, y: MARGIN / 2, size: 8, font: run.font, color: GREY });
          left += typefaces.width(run.text, 8, false);
        }
      });
    },
  };
}
