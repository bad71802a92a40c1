// Reads back the PDFs the server makes, without the code that made them: the text its pages show (through each
// font's ToUnicode map, as a reader copies it), the fonts and whether they are embedded, the files attached to
// it, and its PAdES signature checked from the bytes (ByteRange, CMS, digest, RSA) with node-forge's ASN.1
// reader and Node's own crypto.
import { spawnSync } from 'node:child_process';
import { createHash, verify } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as fontkit from 'fontkit';
import forge from 'node-forge';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFNumber, PDFRawStream, PDFStream, PDFString, type PDFRef } from 'pdf-lib';

const windows1252 = new TextDecoder('windows-1252');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const decoded = (stream: PDFStream) => (stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents());

/** UTF-16BE hex, as a ToUnicode map writes text, to a string. */
const utf16 = (hex: string) => String.fromCharCode(...(hex.match(/.{4}/g) ?? []).map((unit) => parseInt(unit, 16)));

/** A font's ToUnicode map (its bfchar and bfrange entries): code → text. */
function toUnicode(cmap: string): Map<number, string> {
  const map = new Map<number, string>();
  for (const [, body] of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g)) {
    for (const [, code, text] of body.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]*)>/g)) map.set(parseInt(code, 16), utf16(text));
  }
  for (const [, body] of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g)) {
    for (const [, from, to, target] of body.matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*(<[0-9A-Fa-f]*>|\[[^\]]*\])/g)) {
      const targets = target.startsWith('[') ? [...target.matchAll(/<([0-9A-Fa-f]*)>/g)].map((each) => utf16(each[1])) : undefined;
      for (let code = parseInt(from, 16); code <= parseInt(to, 16); code += 1) {
        const offset = code - parseInt(from, 16);
        if (targets) map.set(code, targets[offset] ?? '');
        else {
          const first = utf16(target.slice(1, -1));
          map.set(code, first.slice(0, -1) + String.fromCharCode(first.charCodeAt(first.length - 1) + offset));
        }
      }
    }
  }
  return map;
}

interface FontReading {
  /** The text the bytes of a text-showing operator stand for: through the ToUnicode map, or WinAnsi. */
  text(hex: string): string;
  /** How far the operator moves along the line, in text space units at size 1 (from the font's widths, 0 unknown). */
  advance(hex: string): number;
}

/** The CID fonts' /W array: code → width (thousandths of the size). */
function widthsOf(font: PDFDict): Map<number, number> {
  const widths = new Map<number, number>();
  const w = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookup(0, PDFDict).lookupMaybe(PDFName.of('W'), PDFArray);
  for (let index = 0; w && index < w.size(); ) {
    const first = (w.lookup(index) as PDFNumber).asNumber();
    const next = w.lookup(index + 1);
    if (next instanceof PDFArray) {
      next.asArray().forEach((width, offset) => widths.set(first + offset, (width as PDFNumber).asNumber()));
      index += 2;
    } else {
      for (let code = first; code <= (next as PDFNumber).asNumber(); code += 1) widths.set(code, (w.lookup(index + 2) as PDFNumber).asNumber());
      index += 3;
    }
  }
  return widths;
}

/** How each font of a page reads. */
function fontReadings(doc: PDFDocument, resources: PDFDict | undefined): Map<string, FontReading> {
  const readings = new Map<string, FontReading>();
  const fonts = resources?.lookupMaybe(PDFName.of('Font'), PDFDict);
  for (const [name, ref] of fonts?.entries() ?? []) {
    const font = doc.context.lookup(ref, PDFDict);
    const unicode = font.lookupMaybe(PDFName.of('ToUnicode'), PDFStream);
    if (unicode) {
      const map = toUnicode(Buffer.from(decoded(unicode)).toString('latin1'));
      const widths = widthsOf(font);
      const codes = (hex: string) => (hex.match(/.{4}/g) ?? []).map((code) => parseInt(code, 16));
      readings.set(name.asString(), {
        text: (hex) => codes(hex).map((code) => map.get(code) ?? '\ufffd').join(''),
        advance: (hex) => codes(hex).reduce((total, code) => total + (widths.get(code) ?? 0), 0) / 1000,
      });
    } else {
      readings.set(name.asString(), { text: (hex) => windows1252.decode(Buffer.from(hex, 'hex')), advance: () => 0 });
    }
  }
  return readings;
}

/**
 * The text each page shows, a line per baseline: the text-showing operators in drawing order, decoded through
 * their font's ToUnicode map (what a reader's copy and search give). Pieces on one baseline join as they touch,
 * or with a space across a gap (a field's label and its value).
 */
export async function pageTexts(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref as PDFRef, PDFStream)) : contents ? [contents] : [];
    const operators = streams.map((stream) => Buffer.from(decoded(stream)).toString('latin1')).join('\n');
    const readings = fontReadings(doc, page.node.Resources());
    const lines: string[] = [];
    let font = '';
    let size = 0;
    let x = 0;
    let y: string | undefined;
    let lineY: string | undefined;
    let lineEnd = 0;
    for (const [, tf, tfSize, tmX, tmY, hex] of operators.matchAll(/(\/[^\s/]+)\s+([\d.]+)\s+Tf|(?:[-\d.]+\s+){4}([-\d.]+)\s+([-\d.]+)\s+Tm|<([0-9A-Fa-f]*)>\s*Tj/g)) {
      if (tf) [font, size] = [tf, Number(tfSize)];
      else if (tmY !== undefined) [x, y] = [Number(tmX), tmY];
      else {
        const reading = readings.get(font);
        const text = reading?.text(hex) ?? '';
        if (lines.length > 0 && y !== undefined && y === lineY) lines[lines.length - 1] += (x > lineEnd + 1 ? ' ' : '') + text;
        else lines.push(text);
        lineY = y;
        lineEnd = x + (reading?.advance(hex) ?? 0) * size;
      }
    }
    return lines.join('\n');
  });
}

/** The names of the fonts a PDF uses, each with whether its program is embedded (what pdffonts' "emb" says). */
export async function fontsOf(pdf: Uint8Array): Promise<{ name: string; embedded: boolean }[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const fonts = new Map<string, boolean>();
  for (const page of doc.getPages()) {
    for (const [, ref] of page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict)?.entries() ?? []) {
      const font = doc.context.lookup(ref, PDFDict);
      const descendant = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookup(0, PDFDict) ?? font;
      const descriptor = descendant.lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
      const embedded = ['FontFile', 'FontFile2', 'FontFile3'].some((key) => descriptor?.has(PDFName.of(key)));
      fonts.set(String(font.get(PDFName.of('BaseFont'))).replace(/^\//, ''), embedded);
    }
  }
  return [...fonts].map(([name, embedded]) => ({ name, embedded }));
}

/**
 * The glyphs each embedded font program draws, read back with fontkit from the file in the PDF: for each code the
 * text uses, the character its ToUnicode map names and the outline's bounding box and number of drawing
 * commands (what a reader renders; a broken subset gives empty or garbled outlines while text search still works).
 */
export async function embeddedGlyphs(pdf: Uint8Array): Promise<{ font: string; char: string; bbox: number[]; commands: number }[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const glyphs: { font: string; char: string; bbox: number[]; commands: number }[] = [];
  const seen = new Set<string>();
  for (const page of doc.getPages()) {
    for (const [, ref] of page.node.Resources()?.lookupMaybe(PDFName.of('Font'), PDFDict)?.entries() ?? []) {
      const font = doc.context.lookup(ref, PDFDict);
      const name = String(font.get(PDFName.of('BaseFont'))).replace(/^\//, '');
      const unicode = font.lookupMaybe(PDFName.of('ToUnicode'), PDFStream);
      const descriptor = font.lookupMaybe(PDFName.of('DescendantFonts'), PDFArray)?.lookup(0, PDFDict).lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
      const file = descriptor?.lookupMaybe(PDFName.of('FontFile2'), PDFStream);
      if (seen.has(name) || !unicode || !file) continue;
      seen.add(name);
      const program = fontkit.create(Buffer.from(decoded(file))) as fontkit.Font;
      for (const [code, char] of toUnicode(Buffer.from(decoded(unicode)).toString('latin1'))) {
        const glyph = program.getGlyph(code);
        const { minX, minY, maxX, maxY } = glyph.bbox;
        glyphs.push({ font: name, char, bbox: [minX, minY, maxX, maxY], commands: glyph.path.commands.length });
      }
    }
  }
  return glyphs;
}

/** The files attached to the document (its EmbeddedFiles name tree), by name. */
export async function attachments(pdf: Uint8Array): Promise<Map<string, Uint8Array>> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  const files = new Map<string, Uint8Array>();
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict)?.lookupMaybe(PDFName.of('Names'), PDFArray);
  for (let index = 0; names && index < names.size(); index += 2) {
    const key = names.lookup(index);
    const name = key instanceof PDFHexString || key instanceof PDFString ? key.decodeText() : String(key);
    const spec = names.lookup(index + 1, PDFDict);
    files.set(name, decoded(spec.lookup(PDFName.of('EF'), PDFDict).lookup(PDFName.of('F'), PDFStream)));
  }
  return files;
}

type Asn1 = forge.asn1.Asn1;
const children = (node: Asn1) => node.value as Asn1[];
const isContext = (node: Asn1, tag: number) => node.tagClass === forge.asn1.Class.CONTEXT_SPECIFIC && node.type === tag;

/**
 * The document's one signature, checked: where its ByteRange points, whether it covers the whole file but the
 * /Contents hole, whether the CMS messageDigest is the SHA-256 of the covered bytes, and whether the signature
 * over the signed attributes verifies with the certificate it carries.
 */
export function padesSignature(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)];
  if (ranges.length !== 1) throw new Error(`expected one /ByteRange, found ${ranges.length}`);
  const [start, holeStart, holeEnd, tailLength] = ranges[0].slice(1).map(Number);
  const hole = text.slice(holeStart, holeEnd);
  const coversWholeFileButContents =
    start === 0 && holeEnd + tailLength === pdf.length && /^<[0-9a-fA-F]+>$/.test(hole) && /\/Contents\s*$/.test(text.slice(holeStart - 12, holeStart));
  const covered = Buffer.concat([pdf.subarray(start, holeStart), pdf.subarray(holeEnd, holeEnd + tailLength)]);

  // The hole is padded with zeros after the CMS: its DER header tells where it ends.
  const padded = Buffer.from(hole.slice(1, -1), 'hex');
  const lengthBytes = padded[1] & 0x80 ? padded[1] & 0x7f : 0;
  const length = lengthBytes ? padded.subarray(2, 2 + lengthBytes).reduce((total, byte) => total * 256 + byte, 0) : padded[1];
  const der = padded.subarray(0, 2 + lengthBytes + length);
  const contentInfo = forge.asn1.fromDer(forge.util.createBuffer(der.toString('binary')));
  const signedData = children(children(contentInfo)[1])[0];
  const parts = children(signedData);
  const certificate = forge.pki.certificateFromAsn1(children(parts.find((part) => isContext(part, 0))!)[0]);
  const signerInfo = children(parts[parts.length - 1])[0];
  const signedAttributes = children(signerInfo).find((field) => isContext(field, 0))!;
  const signature = children(signerInfo).find((field) => field.tagClass === forge.asn1.Class.UNIVERSAL && field.type === forge.asn1.Type.OCTETSTRING)!;
  const attribute = (oid: string) =>
    children(signedAttributes).find((entry) => forge.asn1.derToOid(children(entry)[0].value as string) === oid)?.value as Asn1[] | undefined;
  const digest = children(attribute(forge.pki.oids.messageDigest)![1])[0].value as string;
  // RFC 5652 §5.4: the signed attributes are signed as a SET OF, not with their [0] tag.
  const signedBytes = forge.asn1.toDer(forge.asn1.create(forge.asn1.Class.UNIVERSAL, forge.asn1.Type.SET, true, children(signedAttributes))).getBytes();
  const publicKey = forge.pki.publicKeyToPem(certificate.publicKey);

  return {
    subFilter: /\/SubFilter\s*\/([\w.]+)/.exec(text)?.[1],
    coversWholeFileButContents,
    messageDigestMatches: Buffer.from(digest, 'binary').toString('hex') === sha256(covered),
    signatureVerifies: verify('sha256', Buffer.from(signedBytes, 'binary'), publicKey, Buffer.from(signature.value as string, 'binary')),
    signer: certificate.subject.getField('CN')?.value as string | undefined,
    byteRange: [start, holeStart, holeEnd, tailLength],
  };
}

/**
 * What poppler, the PDF library of most Linux readers, makes of a PDF: `pdftotext`'s text (in reading order),
 * `pdffonts`' table of fonts (name, embedded, subset, ToUnicode) and `pdfsig`'s verdict on its signatures.
 * poppler-utils is a Debian package: .ci/run installs it.
 */
export function poppler(pdf: Uint8Array) {
  const dir = mkdtempSync(path.join(tmpdir(), 'divilo-pdf-'));
  const file = path.join(dir, 'document.pdf');
  writeFileSync(file, pdf);
  const run = (tool: string, ...args: string[]) => {
    const result = spawnSync(tool, [...args, file, ...(tool === 'pdftotext' ? ['-'] : [])], { encoding: 'utf8' });
    if (result.error) throw new Error(`${tool} is not installed (Debian package poppler-utils): ${result.error.message}`);
    return result.stdout;
  };
  try {
    const fonts = run('pdffonts')
      .split('\n')
      .slice(2)
      .filter((line) => line.trim())
      .map((line) => {
        // name type encoding emb sub uni object ID: the last five columns are fixed words.
        const columns = line.trim().split(/\s+/);
        const [emb, sub, uni] = columns.slice(-5, -2);
        return { name: columns[0], embedded: emb === 'yes', subset: sub === 'yes', toUnicode: uni === 'yes' };
      });
    return { text: run('pdftotext', '-enc', 'UTF-8'), fonts, signatures: run('pdfsig') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
