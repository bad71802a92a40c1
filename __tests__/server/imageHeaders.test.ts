// The identity photos' format and size read from their bytes: real PNGs (zlib) and baseline JPEGs made here,
// then the same files cut short, corrupted or of another format.
import { readImageHeader, readJpegHeader, readPngHeader } from '../../server/services/imageHeaders';
import { jpeg, png, pngChunk, PNG_SIGNATURE } from './images';

/** The chunks of a PNG as [type, data] pairs, to build variants of it. */
function chunksOf(file: Buffer): [string, Buffer][] {
  const chunks: [string, Buffer][] = [];
  for (let offset = 8; offset < file.length; ) {
    const length = file.readUInt32BE(offset);
    chunks.push([file.toString('latin1', offset + 4, offset + 8), file.subarray(offset + 8, offset + 8 + length)]);
    offset += 12 + length;
  }
  return chunks;
}
const pngOf = (chunks: [string, Buffer][]) => Buffer.concat([PNG_SIGNATURE, ...chunks.map(([type, data]) => pngChunk(type, data))]);
const NOT_DECODABLE = { ok: false, problem: 'not-decodable' };
const NOT_IMAGE = { ok: false, problem: 'not-image' };

describe('PNG headers', () => {
  const good = png(640, 480);

  it('reads the size of a real PNG, whatever its shape', () => {
    expect(readPngHeader(good)).toEqual({ ok: true, format: 'png', width: 640, height: 480 });
    expect(readPngHeader(png(10, 10))).toEqual({ ok: true, format: 'png', width: 10, height: 10 });
    expect(readImageHeader(png(321, 2000), 'png')).toMatchObject({ width: 321, height: 2000 });
  });

  it('tells a file of another format from a PNG', () => {
    expect(readPngHeader(Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj'))).toEqual(NOT_IMAGE);
    expect(readPngHeader(jpeg(640, 480))).toEqual(NOT_IMAGE);
    expect(readImageHeader(good, 'jpeg')).toEqual(NOT_IMAGE);
    expect(readPngHeader(Buffer.alloc(0))).toEqual(NOT_IMAGE);
  });

  it('refuses a PNG cut short anywhere: in IHDR, in the image data, before IEND', () => {
    for (const length of [8, 20, 40, good.length - 30, good.length - 12, good.length - 1]) {
      expect({ length, result: readPngHeader(good.subarray(0, length)) }).toEqual({ length, result: NOT_DECODABLE });
    }
  });

  it('refuses a corrupt IHDR: its CRC, its fields, its place', () => {
    const flipped = Buffer.from(good);
    flipped[16] ^= 0x01; // the width's first byte: the CRC no longer matches
    expect(readPngHeader(flipped)).toEqual(NOT_DECODABLE);
    const [[, header], ...rest] = chunksOf(good);
    const withHeader = (change: (data: Buffer) => void) => {
      const data = Buffer.from(header);
      change(data);
      return pngOf([['IHDR', data], ...rest]);
    };
    expect(readPngHeader(withHeader((data) => data.writeUInt32BE(0, 0)))).toEqual(NOT_DECODABLE);
    expect(readPngHeader(withHeader((data) => (data[8] = 3)))).toEqual(NOT_DECODABLE); // 3-bit greyscale
    expect(readPngHeader(withHeader((data) => (data[12] = 2)))).toEqual(NOT_DECODABLE); // no such interlace
    expect(readPngHeader(pngOf([rest[0], ['IHDR', header], ...rest.slice(1)]))).toEqual(NOT_DECODABLE);
    expect(readPngHeader(pngOf([['IHDR', header], ['IHDR', header], ...rest]))).toEqual(NOT_DECODABLE);
  });

  it('refuses a chunk whose length runs past the file, a bad chunk type, no image data, bytes after IEND', () => {
    const overrun = Buffer.from(good);
    overrun.writeUInt32BE(good.length, 33); // IDAT's length
    expect(readPngHeader(overrun)).toEqual(NOT_DECODABLE);
    const [ihdr, idat, iend] = chunksOf(good);
    expect(readPngHeader(pngOf([ihdr, ['ID@T', idat[1]], iend]))).toEqual(NOT_DECODABLE);
    expect(readPngHeader(pngOf([ihdr, iend]))).toEqual(NOT_DECODABLE);
    expect(readPngHeader(Buffer.concat([good, Buffer.from('more')]))).toEqual(NOT_DECODABLE);
    // Ancillary chunks are walked over.
    expect(readPngHeader(pngOf([ihdr, ['tEXt', Buffer.from('Comment\0hola')], idat, iend]))).toMatchObject({ ok: true, width: 640 });
  });
});

describe('JPEG headers', () => {
  const good = jpeg(1024, 768);
  /** Where the frame header (SOF0) of a file made by `jpeg` starts. */
  const frameAt = (file: Buffer) => file.indexOf(Buffer.from([0xff, 0xc0]));

  it('reads the size from the frame header of a real baseline JPEG', () => {
    expect(readJpegHeader(good)).toEqual({ ok: true, format: 'jpeg', width: 1024, height: 768 });
    expect(readImageHeader(jpeg(8, 8), 'jpeg')).toEqual({ ok: true, format: 'jpeg', width: 8, height: 8 });
  });

  it('reads any frame type (progressive here), after fill bytes and segments it does not know', () => {
    const progressive = Buffer.from(good);
    progressive[frameAt(good) + 1] = 0xc2;
    expect(readJpegHeader(progressive)).toMatchObject({ ok: true, width: 1024, height: 768 });
    const comment = Buffer.concat([Buffer.from([0xff, 0xff, 0xfe, 0x00, 0x06]), Buffer.from('hola')]);
    expect(readJpegHeader(Buffer.concat([good.subarray(0, 2), comment, good.subarray(2)]))).toMatchObject({ ok: true, width: 1024 });
  });

  it('tells a file of another format from a JPEG', () => {
    expect(readJpegHeader(Buffer.from('%PDF-1.7\n'))).toEqual(NOT_IMAGE);
    expect(readJpegHeader(png(640, 480))).toEqual(NOT_IMAGE);
    expect(readImageHeader(good, 'png')).toEqual(NOT_IMAGE);
    expect(readJpegHeader(Buffer.from([0xff, 0xd8]))).toEqual(NOT_IMAGE);
  });

  it('refuses a JPEG cut short: in a segment, before the frame header, without its EOI', () => {
    const frame = frameAt(good);
    for (const length of [4, 10, frame + 3, frame + 8, good.length - 1, good.length - 2]) {
      expect({ length, result: readJpegHeader(good.subarray(0, length)) }).toEqual({ length, result: NOT_DECODABLE });
    }
  });

  it("accepts a phone camera's JPEG with its own data after the EOI", () => {
    const withTrailer = Buffer.concat([good, Buffer.from('MotionPhoto_Data'), Buffer.alloc(64, 7)]);
    expect(readJpegHeader(withTrailer)).toMatchObject({ ok: true, format: 'jpeg' });
  });

  it('refuses a corrupt JPEG: a segment overrunning the file, a scan or EOI before the frame, a zero size, a bad frame length', () => {
    const overrun = Buffer.from(good);
    overrun.writeUInt16BE(0xfff0, 4); // JFIF's length
    expect(readJpegHeader(overrun)).toEqual(NOT_DECODABLE);
    const frame = frameAt(good);
    const scanFirst = Buffer.concat([good.subarray(0, frame), Buffer.from([0xff, 0xda, 0x00, 0x08, 1, 1, 0, 0, 63, 0]), good.subarray(frame)]);
    expect(readJpegHeader(scanFirst)).toEqual(NOT_DECODABLE);
    expect(readJpegHeader(Buffer.concat([good.subarray(0, frame), Buffer.from([0xff, 0xd9])]))).toEqual(NOT_DECODABLE);
    const noHeight = Buffer.from(good);
    noHeight.writeUInt16BE(0, frame + 5);
    expect(readJpegHeader(noHeight)).toEqual(NOT_DECODABLE);
    const badLength = Buffer.from(good);
    badLength.writeUInt16BE(12, frame + 2);
    expect(readJpegHeader(badLength)).toEqual(NOT_DECODABLE);
    const notAMarker = Buffer.from(good);
    notAMarker[frame] = 0x00;
    expect(readJpegHeader(notAMarker)).toEqual(NOT_DECODABLE);
  });
});
