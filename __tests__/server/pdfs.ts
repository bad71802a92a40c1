// PDFs for the upload tests, written out by hand so that every byte is known: a catalog, a page tree with one
// A4 page, a cross-reference table with the right offsets and a trailer. Extra objects and catalog entries make
// the variants the server must refuse (scripts, launch actions, attached files).

export interface PdfParts {
  /** The file's exact length; a comment after the header pads it (at least the length without padding). */
  size?: number;
  /** Entries added to the catalog (object 1), e.g. `/OpenAction 4 0 R`. */
  catalog?: string;
  /** Entries added to the page (object 3), e.g. `/AA << /O 4 0 R >>`. */
  page?: string;
  /** Objects 4, 5, … as their dictionaries or streams. */
  objects?: string[];
  /** Entries added to the trailer, e.g. `/Encrypt 4 0 R`. */
  trailer?: string;
  /** `false`: the page tree lists no page (the page object is still written, unreferenced). */
  withPage?: boolean;
}

/** A one-page PDF as a reader expects it, `size` bytes long (2048 by default). */
export function plainPdf({ size = 2048, catalog = '', page = '', objects = [], trailer = '', withPage = true }: PdfParts = {}): Buffer {
  const bodies = [
    `<< /Type /Catalog /Pages 2 0 R ${catalog}>>`,
    withPage ? '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' : '<< /Type /Pages /Kids [] /Count 0 >>',
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R ${page}>>`,
    '<< /Length 44 >>\nstream\nBT /F1 12 Tf 72 770 Td (Modelo 036) Tj ET\nendstream',
    ...objects,
  ];
  const build = (padding: number) => {
    let text = `%PDF-1.7\n%${' '.repeat(padding)}\n`;
    const offsets = bodies.map((body, index) => {
      const offset = text.length;
      text += `${index + 1} 0 obj\n${body}\nendobj\n`;
      return offset;
    });
    const xref = text.length;
    text += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('')}`;
    text += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R ${trailer}>>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(text, 'latin1');
  };
  const bare = build(0).length;
  if (size < bare) throw new Error(`a PDF of these parts needs at least ${bare} bytes`);
  // The start of the cross-reference table may gain a digit with the padding: padded again by the difference.
  let padding = size - bare;
  while (build(padding).length > size) padding -= build(padding).length - size;
  return build(padding);
}
