// Whether an uploaded PDF is a plain document the bank can open safely: it must start as a PDF, parse whole
// with pdf-lib (every object of the file, those inside object streams included, none of them invalid), have a
// page, not be encrypted (its contents could not be looked at), and hold no active content anywhere in the
// file, reachable or not: no JavaScript, no launch of a program, no embedded or attached file, no action that
// opens another file or sends data, no XFA form, no rich media or 3D.
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFStream, type PDFObject } from 'pdf-lib';
import { withinInflationBudget } from './pdfInflation';

/**
 * What one PDF's object and cross-reference streams may inflate to in all while it is parsed: far above what a
 * document's structure takes (kilobytes to a few megabytes; its pictures are not inflated to check it).
 */
export const PDF_INFLATION_BUDGET_BYTES = 32 * 1024 * 1024;

type PdfProblem = 'not-pdf' | 'not-decodable' | 'encrypted' | 'active-content';

/** Each problem as the server answers it: its error code and a message that says which. */
const PDF_REFUSALS = {
  'not-pdf': { code: 'DOCUMENT_NOT_PDF', message: 'The document is not a PDF' },
  'not-decodable': { code: 'DOCUMENT_NOT_DECODABLE', message: 'The PDF does not parse or has no pages' },
  encrypted: { code: 'DOCUMENT_ENCRYPTED', message: 'The PDF is encrypted or protected by a password' },
  'active-content': { code: 'DOCUMENT_ACTIVE_CONTENT', message: 'The PDF holds active content: scripts, actions that launch or send, attached files or interactive media' },
} as const satisfies Record<PdfProblem, { code: string; message: string }>;

type PdfInspection =
  | { ok: true; pages: number }
  | ({ ok: false; problem: PdfProblem; /** For active content: what was found, e.g. `JavaScript`. */ found?: string } & (typeof PDF_REFUSALS)[PdfProblem]);

const PDF_MAGIC = '%PDF-';

/** Keys that only active content has: scripts (JS, the JavaScript name tree), attached files (EF, EmbeddedFiles), XFA, rich media. */
const ACTIVE_KEYS = new Set(['JS', 'JavaScript', 'EmbeddedFiles', 'EF', 'XFA', 'RichMediaContent', 'RichMediaSettings']);
/** Action types (`/S`) that run code, start a program, open another or an embedded file, or send or import data. */
const ACTIVE_ACTIONS = new Set(['JavaScript', 'Launch', 'GoToE', 'GoToR', 'ImportData', 'SubmitForm', 'RichMediaExecute']);
/** Object types and subtypes that carry files or media players. */
const ACTIVE_TYPES = new Set(['EmbeddedFile', 'FileAttachment', 'RichMedia', '3D']);

/** A name as a PDF reader understands it: every `#xx` escape decoded, whatever the case of its hex digits. */
function nameOf(name: PDFName): string {
  return name.decodeText().replace(/#([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** The first active content in `object` or the direct objects inside it (references are walked on their own). */
function activeContentIn(object: PDFObject, depth = 0): string | undefined {
  // Direct objects nest only as deep as a file writes them; a deeper one is an attempt to exhaust the stack.
  if (depth > 64) return 'nesting';
  const dict = object instanceof PDFStream ? object.dict : object instanceof PDFDict ? object : undefined;
  if (dict) {
    for (const [key, value] of dict.entries()) {
      const name = nameOf(key);
      if (ACTIVE_KEYS.has(name)) return name;
      const valueName = value instanceof PDFName ? nameOf(value) : undefined;
      if (name === 'S' && valueName !== undefined && ACTIVE_ACTIONS.has(valueName)) return valueName;
      if ((name === 'Type' || name === 'Subtype') && valueName !== undefined && ACTIVE_TYPES.has(valueName)) return valueName;
      const inner = activeContentIn(value, depth + 1);
      if (inner) return inner;
    }
  } else if (object instanceof PDFArray) {
    for (const item of object.asArray()) {
      const inner = activeContentIn(item, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

export async function inspectPdf(bytes: Uint8Array): Promise<PdfInspection> {
  const refused = (problem: PdfProblem, found?: string): PdfInspection => ({ ok: false, problem, ...PDF_REFUSALS[problem], ...(found ? { found } : {}) });
  // The first bytes must say so: a renamed picture is not a PDF.
  if (Buffer.from(bytes.subarray(0, PDF_MAGIC.length)).toString('latin1') !== PDF_MAGIC) return refused('not-pdf');
  let document: PDFDocument;
  try {
    // Loaded even when encrypted, to say so rather than "does not parse". What its streams inflate to is bounded:
    // a stream built to inflate past the budget does not parse.
    document = await withinInflationBudget(PDF_INFLATION_BUDGET_BYTES, () =>
      PDFDocument.load(bytes, { throwOnInvalidObject: true, updateMetadata: false, ignoreEncryption: true }),
    );
  } catch {
    return refused('not-decodable');
  }
  if (document.isEncrypted) return refused('encrypted');
  const { context } = document;
  for (const [, object] of context.enumerateIndirectObjects()) {
    const found = activeContentIn(object);
    if (found) return refused('active-content', found);
  }
  for (const object of Object.values(context.trailerInfo)) {
    const found = object && activeContentIn(object);
    if (found) return refused('active-content', found);
  }
  let pages: number;
  try {
    pages = document.getPageCount();
  } catch {
    return refused('not-decodable');
  }
  return pages > 0 ? { ok: true, pages } : refused('not-decodable');
}
