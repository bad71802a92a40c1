// Real, tiny images made byte by byte for the identity photo tests: a greyscale PNG (its rows deflated with
// zlib) and a baseline greyscale JPEG whose scan any decoder reads as a flat grey picture.
import { crc32, deflateSync } from 'node:zlib';

const u32 = (value: number) => {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(value);
  return bytes;
};
const u16 = (value: number) => Buffer.from([value >> 8, value & 0xff]);

/** One PNG chunk: length, type, data and the CRC of type and data. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  return Buffer.concat([u32(data.length), typed, u32(crc32(typed))]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A `width` × `height` 8-bit greyscale PNG: every row filter 0, a gentle gradient. */
export function png(width: number, height: number): Buffer {
  const header = Buffer.concat([u32(width), u32(height), Buffer.from([8, 0, 0, 0, 0])]);
  const rows = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y += 1) for (let x = 0; x < width; x += 1) rows[y * (width + 1) + 1 + x] = (x + y) & 0xff;
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(rows)), pngChunk('IEND', Buffer.alloc(0))]);
}

/** A segment: its marker, then a length that counts itself. */
const segment = (marker: number, data: Buffer) => Buffer.concat([Buffer.from([0xff, marker]), u16(data.length + 2), data]);

/**
 * A `width` × `height` baseline greyscale JPEG: JFIF, a flat quantisation table, the frame header (SOF0), one
 * Huffman table each for DC and AC holding a single one-bit code (DC difference 0, end of block), and a scan in
 * which every 8×8 block is those two bits: a flat grey image.
 */
export function jpeg(width: number, height: number): Buffer {
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const scanBits = blocks * 2;
  const scan = Buffer.alloc(Math.ceil(scanBits / 8));
  // The last byte's unused bits are padded with ones, as the standard asks.
  if (scanBits % 8 !== 0) scan[scan.length - 1] = (1 << (8 - (scanBits % 8))) - 1;
  const oneCodeTable = (tableClass: number) => Buffer.concat([Buffer.from([tableClass << 4, 1]), Buffer.alloc(15), Buffer.from([0x00])]);
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, Buffer.from([0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0])),
    segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)])),
    segment(0xc0, Buffer.concat([Buffer.from([8]), u16(height), u16(width), Buffer.from([1, 1, 0x11, 0])])),
    segment(0xc4, oneCodeTable(0)),
    segment(0xc4, oneCodeTable(1)),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    scan,
    Buffer.from([0xff, 0xd9]),
  ]);
}
