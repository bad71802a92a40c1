// Reads back the PDFs the server makes, without the code that made them: the text its pages show, the files
// attached to it, and its PAdES signature checked from the bytes (ByteRange, CMS, digest, RSA) with
// node-forge's ASN.1 reader and Node's own crypto.
import { createHash, verify } from 'node:crypto';
import forge from 'node-forge';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName, PDFRawStream, PDFStream, PDFString, type PDFRef } from 'pdf-lib';

const windows1252 = new TextDecoder('windows-1252');
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const decoded = (stream: PDFStream) => (stream instanceof PDFRawStream ? decodePDFRawStream(stream).decode() : stream.getContents());

/** The text each page shows, one line per text-showing operator (Helvetica's hex strings, WinAnsi-coded). */
export async function pageTexts(pdf: Uint8Array): Promise<string[]> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref as PDFRef, PDFStream)) : contents ? [contents] : [];
    const operators = streams.map((stream) => Buffer.from(decoded(stream)).toString('latin1')).join('\n');
    return [...operators.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].map((match) => windows1252.decode(Buffer.from(match[1], 'hex'))).join('\n');
  });
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
