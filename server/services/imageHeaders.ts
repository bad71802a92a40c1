// What an identity photo is, read from its own bytes: the format its first bytes say and the pixel size its
// header gives, with the file's structure walked so that a photo cut short or corrupted on the way is told
// apart from one that is not a photo at all. Pure functions over a Buffer: no pixel data is decompressed, and
// each reads only the markers it needs.
import { crc32 } from 'node:zlib';

export type ImageFormat = 'png' | 'jpeg';

interface ImageHeader {
  format: ImageFormat;
  width: number;
  height: number;
}

/** `not-image`: the first bytes are not the format's; `not-decodable`: they are, but the file is truncated or corrupt. */
type ImageProblem = 'not-image' | 'not-decodable';

type ImageHeaderResult = ({ ok: true } & ImageHeader) | { ok: false; problem: ImageProblem };

const NOT_IMAGE = { ok: false, problem: 'not-image' } as const;
const NOT_DECODABLE = { ok: false, problem: 'not-decodable' } as const;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Length, type and CRC around each chunk's data. */
const PNG_CHUNK_FRAME = 12;
const PNG_MAX_LENGTH = 0x7fffffff;
/** The bit depths each PNG colour type allows (greyscale, RGB, palette, greyscale + alpha, RGBA). */
const PNG_BIT_DEPTHS: Record<number, number[]> = { 0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16] };

/** IHDR's 13 bytes as a size, or nothing when a field has a value the format does not define. */
function pngSize(data: Buffer): { width: number; height: number } | undefined {
  const width = data.readUInt32BE(0);
  const height = data.readUInt32BE(4);
  const [bitDepth, colourType, compression, filter, interlace] = data.subarray(8, 13);
  const sized = width > 0 && width <= PNG_MAX_LENGTH && height > 0 && height <= PNG_MAX_LENGTH;
  const defined = (PNG_BIT_DEPTHS[colourType]?.includes(bitDepth) ?? false) && compression === 0 && filter === 0 && interlace <= 1;
  return sized && defined ? { width, height } : undefined;
}

/**
 * A PNG: the signature, IHDR first (its CRC right, its fields defined), then every chunk's length within the
 * file up to IEND, which must end it, with image data (IDAT) before it.
 */
export function readPngHeader(bytes: Buffer): ImageHeaderResult {
  if (bytes.length < PNG_SIGNATURE.length || !bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return NOT_IMAGE;
  let size: { width: number; height: number } | undefined;
  let imageData = false;
  for (let offset = PNG_SIGNATURE.length; offset + PNG_CHUNK_FRAME <= bytes.length; ) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const end = offset + PNG_CHUNK_FRAME + length;
    if (length > PNG_MAX_LENGTH || !/^[A-Za-z]{4}$/.test(type) || end > bytes.length) return NOT_DECODABLE;
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    const crcMatches = () => crc32(bytes.subarray(offset + 4, offset + 8 + length)) === bytes.readUInt32BE(offset + 8 + length);
    if (size === undefined) {
      if (type !== 'IHDR' || length !== 13 || !crcMatches()) return NOT_DECODABLE;
      size = pngSize(data);
      if (size === undefined) return NOT_DECODABLE;
    } else if (type === 'IHDR') {
      return NOT_DECODABLE;
    } else if (type === 'IDAT') {
      imageData = true;
    } else if (type === 'IEND') {
      return length === 0 && imageData && end === bytes.length && crcMatches() ? { ok: true, format: 'png', ...size } : NOT_DECODABLE;
    }
    offset = end;
  }
  // The walk ran out of bytes before IEND: cut short.
  return NOT_DECODABLE;
}

/** The frame headers (SOF0–SOF15 but DHT, JPG and DAC), baseline, progressive and lossless alike. */
const JPEG_FRAME_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);
const JPEG_SOI = 0xd8;
const JPEG_EOI = 0xd9;
const JPEG_SOS = 0xda;
const JPEG_TEM = 0x01;
const JPEG_END = Buffer.from([0xff, JPEG_EOI]);

/**
 * A JPEG: SOI, then a walk of the segments (each length within the file) to the frame header that gives the
 * size, and an EOI after it. Nothing before the frame may be a scan, a restart or another image's start. Bytes
 * after the EOI are allowed: phone cameras append their own data there (motion photos, depth maps).
 */
export function readJpegHeader(bytes: Buffer): ImageHeaderResult {
  if (bytes.length < 3 || bytes[0] !== 0xff || bytes[1] !== JPEG_SOI || bytes[2] !== 0xff) return NOT_IMAGE;
  let offset = 2;
  for (;;) {
    if (offset >= bytes.length || bytes[offset] !== 0xff) return NOT_DECODABLE;
    // A marker may be preceded by any number of fill bytes (0xFF).
    while (offset < bytes.length && bytes[offset] === 0xff) offset += 1;
    if (offset >= bytes.length) return NOT_DECODABLE;
    const marker = bytes[offset];
    offset += 1;
    if (marker === JPEG_TEM) continue;
    if (marker === 0x00 || marker === JPEG_SOI || marker === JPEG_EOI || marker === JPEG_SOS || (marker >= 0xd0 && marker <= 0xd7)) return NOT_DECODABLE;
    if (offset + 2 > bytes.length) return NOT_DECODABLE;
    const length = bytes.readUInt16BE(offset);
    if (length < 2 || offset + length > bytes.length) return NOT_DECODABLE;
    if (JPEG_FRAME_MARKERS.has(marker)) {
      // Precision, height, width, the number of components and three bytes for each.
      if (length < 8) return NOT_DECODABLE;
      const height = bytes.readUInt16BE(offset + 3);
      const width = bytes.readUInt16BE(offset + 5);
      const components = bytes[offset + 7];
      if (width === 0 || height === 0 || components === 0 || length !== 8 + 3 * components) return NOT_DECODABLE;
      const closed = bytes.lastIndexOf(JPEG_END) >= offset + length;
      return closed ? { ok: true, format: 'jpeg', width, height } : NOT_DECODABLE;
    }
    offset += length;
  }
}

/** The header of an image said to be `format` (its content type): bytes of another format are `not-image`. */
export function readImageHeader(bytes: Buffer, format: ImageFormat): ImageHeaderResult {
  return format === 'png' ? readPngHeader(bytes) : readJpegHeader(bytes);
}
