// aws-chunked request bodies (Content-Encoding: aws-chunked), as the AWS SDKs and the CLI stream uploads:
//   <hex size>[;chunk-signature=<sig>]\r\n<bytes>\r\n … 0[;chunk-signature=<sig>]\r\n[<trailer>:<value>\r\n…]\r\n
// Decoded as they arrive (memory stays at one read), each chunk's signature checked in the signed forms, and the
// trailing checksum compared with the decoded bytes. Any failure throws the S3 error; the caller removes what it
// wrote.
import { createHash, createHmac, timingSafeEqual, type Hash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { Crc32, Crc32c, Crc64Nvme } from '@aws-sdk/checksums/crc';
import { S3Error, errors } from './errors';

export const STREAMING_SIGNED = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD';
export const STREAMING_SIGNED_TRAILER = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER';
const STREAMING_UNSIGNED_TRAILER = 'STREAMING-UNSIGNED-PAYLOAD-TRAILER';
export const STREAMING_PAYLOADS = [STREAMING_SIGNED, STREAMING_SIGNED_TRAILER, STREAMING_UNSIGNED_TRAILER];

const EMPTY_SHA256 = createHash('sha256').digest('hex');
/** A chunk header or trailer line longer than this is not aws-chunked framing. */
const MAX_LINE = 4096;

/** What the header signature gives the chunk signatures: they chain from it under the same key and scope. */
export interface ChunkSigning {
  signingKey: Buffer;
  amzDate: string;
  /** `<date>/<region>/s3/aws4_request` */
  scope: string;
  seedSignature: string;
}

/** The SigV4 signing key: HMAC("AWS4" + secret, date) → region → service → "aws4_request". */
export function signingKeyOf(secretAccessKey: string, date: string, region: string, service: string): Buffer {
  const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();
  return hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), region), service), 'aws4_request');
}

interface Checksum {
  update(data: Uint8Array): void;
  digest(): Promise<Uint8Array>;
}

/** The trailing checksums S3 takes, by header name. */
const CHECKSUMS: Record<string, () => Checksum> = {
  'x-amz-checksum-crc32': () => new Crc32(),
  'x-amz-checksum-crc32c': () => new Crc32c(),
  'x-amz-checksum-crc64nvme': () => new Crc64Nvme(),
  'x-amz-checksum-sha1': () => nodeHash(createHash('sha1')),
  'x-amz-checksum-sha256': () => nodeHash(createHash('sha256')),
};

function nodeHash(hash: Hash): Checksum {
  return { update: (data) => void hash.update(data), digest: async () => hash.digest() };
}

const malformed = () => new S3Error('InvalidRequest', 'The aws-chunked body is not well formed.', 400);
const incomplete = () => new S3Error('IncompleteBody', 'The request body terminated unexpectedly', 400);
const sameHex = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

interface ChunkedOptions {
  /** `x-amz-content-sha256`: one of STREAMING_PAYLOADS. */
  mode: string;
  /** The signed forms' chain; absent for the unsigned one. */
  signing?: ChunkSigning;
  /** `x-amz-decoded-content-length`: the decoded size, checked at the end. */
  decodedLength: number;
  /** `x-amz-trailer`: the checksum the trailer must carry (required with the trailer forms). */
  trailer?: string;
  /**
   * Set when the caller computes the trailer's checksum itself (off the event loop): the decoder then only hands
   * it the trailer's value, and the caller answers BadDigest on a mismatch.
   */
  onTrailerChecksum?: (value: string) => void;
}

/** Checks what can be checked before reading: the mode, the declared trailer and the decoded length. */
export function checkChunkedHeaders(options: ChunkedOptions): void {
  if (!STREAMING_PAYLOADS.includes(options.mode)) throw errors.notImplemented(`x-amz-content-sha256: ${options.mode}`);
  const withTrailer = options.mode !== STREAMING_SIGNED;
  if (withTrailer && (options.trailer === undefined || CHECKSUMS[options.trailer] === undefined)) {
    throw errors.invalidArgument('x-amz-trailer must name one checksum: x-amz-checksum-crc32, -crc32c, -crc64nvme, -sha1 or -sha256.');
  }
  if (!withTrailer && options.trailer !== undefined) throw errors.invalidArgument('x-amz-trailer needs a *-TRAILER x-amz-content-sha256.');
  if (!Number.isSafeInteger(options.decodedLength) || options.decodedLength < 0) throw new S3Error('MissingContentLength', 'You must provide x-amz-decoded-content-length.', 411);
}

/**
 * The decoded bytes of an aws-chunked `body`, as a stream. Throws (as the stream's error) on broken framing,
 * a wrong chunk or trailer signature (SignatureDoesNotMatch), a trailing checksum that does not match the
 * bytes (BadDigest) or a decoded size other than declared (IncompleteBody).
 */
export async function* decodeAwsChunked(body: Readable, options: ChunkedOptions): AsyncGenerator<Buffer> {
  checkChunkedHeaders(options);
  const signed = options.mode !== STREAMING_UNSIGNED_TRAILER;
  if (signed && !options.signing) throw errors.accessDenied();
  const checksum = options.trailer && !options.onTrailerChecksum ? CHECKSUMS[options.trailer]() : undefined;
  const source = (body as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  let buffer: Buffer = Buffer.alloc(0);

  const more = async (): Promise<void> => {
    const next = await source.next();
    if (next.done) throw incomplete();
    buffer = buffer.length === 0 ? next.value : Buffer.concat([buffer, next.value]);
  };
  const line = async (): Promise<string> => {
    for (;;) {
      const end = buffer.indexOf('\r\n');
      if (end >= 0) {
        const text = buffer.subarray(0, end).toString('latin1');
        buffer = buffer.subarray(end + 2);
        return text;
      }
      if (buffer.length > MAX_LINE) throw malformed();
      await more();
    }
  };
  const chain = (stringToSign: string) => createHmac('sha256', options.signing!.signingKey).update(stringToSign).digest('hex');

  let previous = options.signing?.seedSignature ?? '';
  let decoded = 0;
  for (;;) {
    const [sizeText, ...extensions] = (await line()).split(';');
    if (!/^[0-9a-fA-F]{1,10}$/.test(sizeText)) throw malformed();
    const size = parseInt(sizeText, 16);
    if (decoded + size > options.decodedLength) throw incomplete();
    const chunkHash = createHash('sha256');
    let remaining = size;
    while (remaining > 0) {
      if (buffer.length === 0) await more();
      const piece = buffer.subarray(0, Math.min(remaining, buffer.length));
      buffer = buffer.subarray(piece.length);
      remaining -= piece.length;
      if (signed) chunkHash.update(piece);
      checksum?.update(piece);
      yield piece;
    }
    decoded += size;
    // The data's CRLF; the final chunk of a trailer form goes straight on to the trailers.
    if (size > 0 || options.mode === STREAMING_SIGNED) {
      if ((await line()) !== '') throw malformed();
    }
    if (signed) {
      const given = /^chunk-signature=([0-9a-f]{64})$/.exec(extensions.join(';'))?.[1];
      if (!given) throw malformed();
      const expected = chain(['AWS4-HMAC-SHA256-PAYLOAD', options.signing!.amzDate, options.signing!.scope, previous, EMPTY_SHA256, chunkHash.digest('hex')].join('\n'));
      if (!sameHex(expected, given)) throw errors.signatureDoesNotMatch();
      previous = given;
    } else if (extensions.length > 0) {
      throw malformed();
    }
    if (size === 0) break;
  }
  if (decoded !== options.decodedLength) throw incomplete();

  if (options.mode !== STREAMING_SIGNED) {
    const trailers: [string, string][] = [];
    let trailerSignature: string | undefined;
    for (let text = await line(); text !== ''; text = await line()) {
      const colon = text.indexOf(':');
      if (colon <= 0 || trailers.length > 8) throw malformed();
      const name = text.slice(0, colon).trim().toLowerCase();
      const value = text.slice(colon + 1).trim();
      if (name === 'x-amz-trailer-signature') trailerSignature = value;
      else trailers.push([name, value]);
    }
    if (trailers.length !== 1 || trailers[0][0] !== options.trailer) throw errors.invalidArgument(`The trailer must carry ${options.trailer} and nothing else.`);
    if (options.mode === STREAMING_SIGNED_TRAILER) {
      const canonical = trailers.map(([name, value]) => `${name}:${value}\n`).join('');
      const expected = chain(['AWS4-HMAC-SHA256-TRAILER', options.signing!.amzDate, options.signing!.scope, previous, createHash('sha256').update(canonical).digest('hex')].join('\n'));
      if (!trailerSignature || !/^[0-9a-f]{64}$/.test(trailerSignature) || !sameHex(expected, trailerSignature)) throw errors.signatureDoesNotMatch();
    }
    if (options.onTrailerChecksum) {
      options.onTrailerChecksum(trailers[0][1]);
    } else {
      const actual = Buffer.from(await checksum!.digest()).toString('base64');
      if (actual !== trailers[0][1]) throw errors.badDigest(`${options.trailer!.slice('x-amz-checksum-'.length).toUpperCase()} checksum`);
    }
  }
  // Nothing may follow the last chunk (and its trailers).
  if (buffer.length > 0 || !(await source.next()).done) throw malformed();
}
