// The HTTP details S3 adds around bytes: stored response headers, checksums of the body, ranges and conditions.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { EMPTY_SHA256, UNSIGNED_PAYLOAD } from './auth';
import type { S3Request } from './context';
import { checkChunkedHeaders, decodeAwsChunked, STREAMING_PAYLOADS } from './chunked';
import { errors, S3Error } from './errors';
import { receiveFile, type WrittenFile } from './files';
import type { BodyHashing, DigestName } from './hashing';
import type { CreateRefusal } from './repository';
import { parseXml, XmlSyntaxError, type XmlNode } from './xml';

const DEFAULT_CONTENT_TYPE = 'binary/octet-stream';
const STORED_HEADERS = ['cache-control', 'content-disposition', 'content-encoding', 'content-language', 'expires'];
const MAX_USER_METADATA_BYTES = 2048;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

export function contentTypeOf(headers: IncomingHttpHeaders): string {
  return header(headers, 'content-type') || DEFAULT_CONTENT_TYPE;
}

/** The headers an upload sets for its downloads: the standard ones and x-amz-meta-*. */
export function storedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const stored: Record<string, string> = {};
  let metadataBytes = 0;
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    if (name === 'content-encoding') {
      // aws-chunked describes how the upload travelled, not the object: S3 keeps only the other codings.
      const codings = value.split(',').map((coding) => coding.trim()).filter((coding) => coding && coding !== 'aws-chunked');
      if (codings.length > 0) stored[name] = codings.join(', ');
    } else if (STORED_HEADERS.includes(name)) stored[name] = value;
    else if (name.startsWith('x-amz-meta-')) {
      stored[name] = value;
      metadataBytes += Buffer.byteLength(name.slice('x-amz-meta-'.length)) + Buffer.byteLength(value);
    }
  }
  if (metadataBytes > MAX_USER_METADATA_BYTES) throw new S3Error('MetadataTooLarge', 'Your metadata headers exceed the maximum allowed metadata size.', 400);
  return stored;
}

/**
 * A write's precondition (PutObject, CompleteMultipartUpload): `If-None-Match: *` makes it a create, as on S3,
 * which takes no other value there. `If-Match` (a write over a given version only) is not implemented here: it is
 * refused rather than ignored, so that no write meant to be conditional replaces an object unconditionally.
 */
export function createOnlyRequested(headers: IncomingHttpHeaders): boolean {
  if (header(headers, 'if-match') !== undefined) throw errors.notImplemented('If-Match on a write');
  const value = header(headers, 'if-none-match');
  if (value === undefined) return false;
  if (value.trim() !== '*') throw errors.notImplemented('If-None-Match other than * on a write');
  return true;
}

/** The answer to a create-only write that changed nothing. */
export const refusalOf = (reason: CreateRefusal): S3Error => (reason === 'precondition-failed' ? errors.preconditionFailed('If-None-Match') : errors.conditionalRequestConflict());

export const quotedEtag = (md5: Buffer): string => `"${md5.toString('hex')}"`;
/** ETags compare without their quotes (clients send both forms) and without a weak marker. */
export const sameEtag = (a: string, b: string): boolean => a.replace(/^W\//, '').replace(/"/g, '') === b.replace(/^W\//, '').replace(/"/g, '');

function decodeBase64(value: string, length: number, what: string): Buffer {
  const bytes = Buffer.from(value, 'base64');
  if (bytes.length !== length || bytes.toString('base64') !== value) throw errors.invalidDigest(what);
  return bytes;
}

/** A checksum as the x-amz-checksum-* headers and trailers carry it (base64 of its bytes, CRC32 big-endian). */
function checksumBase64(name: string, written: WrittenFile): string | undefined {
  if (name === 'x-amz-checksum-sha256') return written.sha256?.toString('base64');
  if (written.crc32 === undefined) return undefined;
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(written.crc32);
  return bytes.toString('base64');
}

/** Body-less requests (GET, DELETE, POST ?uploads) must still have the hash they were signed with. */
export function checkEmptyPayload(s3: S3Request): void {
  if (s3.payloadHash !== UNSIGNED_PAYLOAD && s3.payloadHash !== EMPTY_SHA256) throw errors.contentSha256Mismatch(s3.payloadHash, EMPTY_SHA256);
}

/**
 * Streams the request body into `target`, checking its length, its x-amz-content-sha256 and any Content-MD5 or
 * x-amz-checksum-crc32/-sha256 it came with; fsyncs it when asked. Nothing is left at `target` when a check fails.
 */
export async function receiveBody(s3: S3Request, target: string, options: { maxBytes: number; sync: boolean; hashing: BodyHashing }): Promise<WrittenFile> {
  const { maxBytes } = options;
  const { headers } = s3.request;
  if (s3.payloadHash === UNSIGNED_PAYLOAD) {
    // Decided for this endpoint: every upload is hashed by the client and checked here (a signed hash, or an
    // aws-chunked trailing checksum).
    throw errors.invalidRequest('Requests with a body must carry its SHA-256 in x-amz-content-sha256.');
  }
  const streaming = STREAMING_PAYLOADS.includes(s3.payloadHash);
  const chunkedEncoding = header(headers, 'content-encoding')?.split(',').some((coding) => coding.trim() === 'aws-chunked') ?? false;
  if (chunkedEncoding && !streaming) throw errors.invalidRequest('Content-Encoding aws-chunked needs a STREAMING-* x-amz-content-sha256.');
  let body = s3.body;
  /** A trailing checksum hashed with the body's other digests (off the event loop): its name and value. */
  let trailerChecksum: { name: string; value?: string } | undefined;
  if (streaming) {
    const decoded = header(headers, 'x-amz-decoded-content-length');
    const decodedLength = decoded !== undefined && /^\d+$/.test(decoded) ? Number(decoded) : -1;
    const trailer = header(headers, 'x-amz-trailer')?.trim().toLowerCase();
    if (trailer === 'x-amz-checksum-crc32' || trailer === 'x-amz-checksum-sha256') trailerChecksum = { name: trailer };
    const onTrailerChecksum = trailerChecksum && ((value: string) => void (trailerChecksum!.value = value));
    const chunked = { mode: s3.payloadHash, signing: s3.chunkSigning, decodedLength, trailer, onTrailerChecksum };
    checkChunkedHeaders(chunked);
    if (decodedLength > maxBytes) throw errors.entityTooLarge(maxBytes);
    body = Readable.from(decodeAwsChunked(s3.body, chunked), { objectMode: false });
  } else {
    const length = header(headers, 'content-length');
    if (length === undefined || !/^\d+$/.test(length)) throw errors.missingContentLength();
    if (Number(length) > maxBytes) throw errors.entityTooLarge(maxBytes);
  }
  for (const name of Object.keys(headers)) {
    if (name.startsWith('x-amz-checksum-') && name !== 'x-amz-checksum-crc32' && name !== 'x-amz-checksum-sha256' && name !== 'x-amz-checksum-type') {
      throw errors.notImplemented(`The ${name} checksum`);
    }
  }
  const contentMd5 = header(headers, 'content-md5');
  const crc32 = header(headers, 'x-amz-checksum-crc32');
  const checksumSha256 = header(headers, 'x-amz-checksum-sha256');
  const expectedMd5 = contentMd5 === undefined ? undefined : decodeBase64(contentMd5, 16, 'Content-MD5');
  const expectedCrc32 = crc32 === undefined ? undefined : decodeBase64(crc32, 4, 'x-amz-checksum-crc32').readUInt32BE(0);
  const expectedSha256 = checksumSha256 === undefined ? undefined : decodeBase64(checksumSha256, 32, 'x-amz-checksum-sha256');

  // Only the digests this request is checked with: MD5 for the ETag (and Content-MD5), SHA-256 for a signed
  // payload hash or a SHA-256 checksum (aws-chunked bodies check their chunks' hashes as they decode), CRC32 for
  // a CRC32 checksum, in a header or a trailer.
  const digests: Exclude<DigestName, 'md5'>[] = [];
  if (!streaming || expectedSha256 || trailerChecksum?.name === 'x-amz-checksum-sha256') digests.push('sha256');
  if (expectedCrc32 !== undefined || trailerChecksum?.name === 'x-amz-checksum-crc32') digests.push('crc32');
  const written = await receiveFile(body, target, { maxBytes, sync: options.sync, digests, hashing: options.hashing });
  const sha256Hex = written.sha256?.toString('hex');
  const failure =
    !streaming && sha256Hex !== s3.payloadHash
      ? errors.contentSha256Mismatch(s3.payloadHash, sha256Hex ?? '')
      : trailerChecksum && trailerChecksum.value !== checksumBase64(trailerChecksum.name, written)
        ? errors.badDigest(`${trailerChecksum.name.slice('x-amz-checksum-'.length).toUpperCase()} checksum`)
        : expectedMd5 && !expectedMd5.equals(written.md5)
          ? errors.badDigest('Content-MD5')
          : expectedCrc32 !== undefined && expectedCrc32 !== written.crc32
            ? errors.badDigest('CRC32 checksum')
            : expectedSha256 && !expectedSha256.equals(written.sha256!)
              ? errors.badDigest('SHA256 checksum')
              : undefined;
  if (failure) {
    await rm(target, { force: true });
    throw failure;
  }
  return written;
}

/** Reads a small body (CompleteMultipartUpload's XML) whole, checking its hash. */
export async function readSmallBody(s3: S3Request, maxBytes: number): Promise<Buffer> {
  if (s3.payloadHash === UNSIGNED_PAYLOAD) throw errors.invalidRequest('Requests with a body must carry its SHA-256 in x-amz-content-sha256.');
  const chunks: Buffer[] = [];
  let size = 0;
  const sha256 = createHash('sha256');
  for await (const chunk of s3.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new S3Error('MaxMessageLengthExceeded', 'Your request was too big.', 400);
    sha256.update(chunk);
    chunks.push(chunk);
  }
  const hash = sha256.digest('hex');
  if (hash !== s3.payloadHash) throw errors.contentSha256Mismatch(s3.payloadHash, hash);
  return Buffer.concat(chunks);
}

type Range = { start: number; end: number };

/**
 * One byte range as S3 honours it; undefined for no (or an unusable) Range header, which means the whole
 * object. A range starting past the end cannot be satisfied (416).
 */
export function parseRange(value: string | undefined, size: number): Range | undefined {
  if (value === undefined) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(value.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) throw errors.invalidRange(size);
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  // `bytes=9-3` is not a range (ignored); `bytes=<size>-` is one that cannot be satisfied.
  if (match[2] !== '' && Number(match[2]) < start) return undefined;
  if (start >= size) throw errors.invalidRange(size);
  const end = match[2] === '' ? size - 1 : Number(match[2]);
  return { start, end: Math.min(end, size - 1) };
}

function httpTime(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : time;
}

function etagMatches(list: string, etag: string): boolean {
  return list.split(',').some((candidate) => candidate.trim() === '*' || sameEtag(candidate.trim(), etag));
}

/** RFC 9110's order, as S3 follows it: 412 for a failed If-Match/If-Unmodified-Since, 304 for an unchanged object. */
export function evaluateConditions(headers: IncomingHttpHeaders, etag: string, lastModified: Date): 'proceed' | 'not-modified' {
  // HTTP dates have whole seconds.
  const modified = Math.floor(lastModified.getTime() / 1000) * 1000;
  const ifMatch = header(headers, 'if-match');
  const ifUnmodifiedSince = httpTime(header(headers, 'if-unmodified-since'));
  if (ifMatch !== undefined) {
    if (!etagMatches(ifMatch, etag)) throw errors.preconditionFailed('If-Match');
  } else if (ifUnmodifiedSince !== undefined && modified > ifUnmodifiedSince) {
    throw errors.preconditionFailed('If-Unmodified-Since');
  }
  const ifNoneMatch = header(headers, 'if-none-match');
  const ifModifiedSince = httpTime(header(headers, 'if-modified-since'));
  if (ifNoneMatch !== undefined) return etagMatches(ifNoneMatch, etag) ? 'not-modified' : 'proceed';
  if (ifModifiedSince !== undefined && modified <= ifModifiedSince) return 'not-modified';
  return 'proceed';
}

/** A request's XML body whose root element must be `root`: MalformedXML when it does not parse or is another document. */
export function parseXmlBody(body: Buffer, root: string): XmlNode {
  let document: XmlNode;
  try {
    document = parseXml(body.toString('utf8'));
  } catch (error) {
    if (error instanceof XmlSyntaxError) throw errors.malformedXml();
    throw error;
  }
  if (document.name !== root) throw errors.malformedXml();
  return document;
}
