// Images for the identity photo tests. Tiny ones made byte by byte for the header reads: a greyscale PNG (its
// rows deflated with zlib) and a baseline greyscale JPEG whose scan any decoder reads as a flat grey picture.
// Photo-like ones drawn with sharp, seeded, the same on every run: an ID card on a desk and a selfie, which the
// server's inspection takes for photos, and the blank, flat and featureless pictures it refuses.
import path from 'node:path';
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

/** A seeded pseudo-random sequence (mulberry32): the same pictures on every run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type PhotoFormat = 'png' | 'jpeg';

const photographs = new Map<string, Promise<Buffer>>();

/** An SVG drawn, with a camera's sensor noise over it, encoded as `format`; each picture made once per test file. */
function photograph(svg: string, width: number, height: number, format: PhotoFormat, seed: number): Promise<Buffer> {
  const key = `${svg}|${width}|${height}|${format}|${seed}`;
  if (!photographs.has(key)) photographs.set(key, drawPhoto(svg, width, height, format, seed));
  return photographs.get(key)!;
}

/** The side of the square of grain laid, repeated, over a drawing. */
const GRAIN = 128;

async function drawPhoto(svg: string, width: number, height: number, format: PhotoFormat, seed: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  // A square of grey grain (128 ± 12, seeded) laid over the whole drawing in soft light: a sensor's noise.
  const random = seeded(seed);
  const grain = Buffer.from(Array.from({ length: GRAIN * GRAIN * 3 }, () => 116 + Math.floor(random() * 25)));
  const image = sharp(Buffer.from(svg))
    .resize(width, height)
    .composite([{ input: grain, raw: { width: GRAIN, height: GRAIN, channels: 3 }, tile: true, blend: 'soft-light' }])
    .removeAlpha();
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 88 }).toBuffer();
}

/** A face as a child would draw it, shaded: head, hair, eyes, brows, nose, mouth and shoulders. */
const face = (x: number, y: number, scale: number) => `
  <g transform="translate(${x} ${y}) scale(${scale})">
    <path d="M-150 330 Q0 230 150 330 L170 420 L-170 420 Z" fill="#2f4d6b"/>
    <rect x="-35" y="130" width="70" height="90" fill="#d9a37c"/>
    <ellipse cx="0" cy="0" rx="105" ry="135" fill="#e2b08a"/>
    <path d="M-110 -20 Q-120 -150 0 -150 Q120 -150 110 -20 Q90 -100 0 -105 Q-90 -100 -110 -20 Z" fill="#3b2416"/>
    <ellipse cx="-40" cy="-10" rx="18" ry="10" fill="#fff"/><circle cx="-40" cy="-10" r="7" fill="#2a1a10"/>
    <ellipse cx="40" cy="-10" rx="18" ry="10" fill="#fff"/><circle cx="40" cy="-10" r="7" fill="#2a1a10"/>
    <path d="M-62 -35 Q-40 -48 -18 -35" stroke="#3b2416" stroke-width="6" fill="none"/>
    <path d="M18 -35 Q40 -48 62 -35" stroke="#3b2416" stroke-width="6" fill="none"/>
    <path d="M0 0 L-10 45 L10 45" stroke="#b27c5a" stroke-width="4" fill="none"/>
    <path d="M-35 75 Q0 100 35 75" stroke="#a0463c" stroke-width="8" fill="none"/>
  </g>`;

/**
 * A photo of an ID card on a wooden desk: the card's coloured band, the holder's portrait (unless `portrait` is
 * false), and lines of text drawn as bars (no font needed). `width` × `height` pixels; 1200 × 760 by default.
 */
export function documentPhoto(format: PhotoFormat = 'jpeg', { width = 1200, height = 760, seed = 7, portrait = true } = {}): Promise<Buffer> {
  const random = seeded(seed);
  const grain = Array.from({ length: 40 }, (_, line) => `<path d="M0 ${line * 19 + random() * 8} Q600 ${line * 19 + random() * 30} 1200 ${line * 19 + random() * 8}" stroke="#8a5a34" stroke-width="${2 + random() * 3}" fill="none" opacity="0.5"/>`);
  const text = Array.from({ length: 7 }, (_, line) => {
    const words = Array.from({ length: 4 }, (_, word) => `<rect x="${470 + word * 150}" y="${250 + line * 58}" width="${60 + random() * 80}" height="22" fill="#1f2a36"/>`);
    return `<rect x="470" y="${232 + line * 58}" width="120" height="10" fill="#7a8796"/>${words.join('')}`;
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="760">
    <rect width="1200" height="760" fill="#a8744a"/>${grain.join('')}
    <g transform="rotate(-2 600 380)">
      <rect x="70" y="70" width="1060" height="620" rx="34" fill="#eef1f4" stroke="#c5ccd4" stroke-width="3"/>
      <rect x="70" y="70" width="1060" height="110" rx="34" fill="#b3272f"/>
      <rect x="120" y="108" width="520" height="34" fill="#f6d44b"/><rect x="680" y="108" width="380" height="34" fill="#ffffff"/>
      <rect x="120" y="220" width="300" height="380" fill="#c9d3dc"/>
      ${portrait ? `<svg x="120" y="220" width="300" height="380" viewBox="-170 -220 340 640">${face(0, 0, 1)}</svg>` : ''}
      ${text.join('')}
      <rect x="120" y="630" width="960" height="18" fill="#55606c"/>
    </g></svg>`;
  return photograph(svg, width, height, format, seed);
}

/** A selfie: a face and shoulders against a room (a window, a shelf, a plant). 720 × 960 by default. */
export function selfiePhoto(format: PhotoFormat = 'jpeg', { width = 720, height = 960, seed = 11 } = {}): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="720" height="960">
    <rect width="720" height="960" fill="#cfc6b8"/>
    <rect x="40" y="60" width="220" height="300" fill="#9fc3de" stroke="#f4f4f4" stroke-width="14"/>
    <line x1="150" y1="60" x2="150" y2="360" stroke="#f4f4f4" stroke-width="10"/>
    <rect x="470" y="140" width="230" height="16" fill="#6b4a2f"/>
    <rect x="490" y="70" width="30" height="70" fill="#3c6e71"/><rect x="530" y="90" width="26" height="50" fill="#d9a441"/><rect x="566" y="60" width="22" height="80" fill="#8c2f39"/>
    <path d="M600 900 Q560 700 640 620 Q700 700 690 900 Z" fill="#3f7d45"/>
    ${face(360, 390, 1.35)}
  </svg>`;
  return photograph(svg, width, height, format, seed);
}

/** A real photograph, one of those the face detector's package ships for its demonstration (1920 px wide). */
export const realPhotoFile = (index: 1 | 2 | 3 | 4 | 5 | 6) =>
  path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'demo', `sample${index}.jpg`);

/** A real selfie: one woman's face and shoulders, cut from the first of those photographs, 720 × 960 JPEG. */
export async function realSelfie(): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  return sharp(realPhotoFile(1)).extract({ left: 1296, top: 96, width: 528, height: 696 }).resize(720, 960, { fit: 'cover' }).jpeg({ quality: 88 }).toBuffer();
}

/** A `width` × `height` picture of one colour, as a covered lens makes. */
export async function flatPhoto(format: PhotoFormat, width: number, height: number, colour = '#7f7f7f'): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  return format === 'png' ? image.png().toBuffer() : image.jpeg().toBuffer();
}

/** A smooth gradient from corner to corner, with no noise: lots of colour and nothing to see. */
export async function gradientPhoto(format: PhotoFormat, width: number, height: number): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e5adc"/><stop offset="1" stop-color="#e6be28"/></linearGradient></defs>
    <rect width="${width}" height="${height}" fill="url(#g)"/></svg>`;
  const image = sharp(Buffer.from(svg)).removeAlpha();
  return format === 'png' ? image.png().toBuffer() : image.jpeg({ quality: 85 }).toBuffer();
}

const HTML = '<html><script>alert(document.domain)</script></html>';

/**
 * The security review's PNG without a picture: a sound header (800 × 600, 8-bit RGB), a text chunk holding
 * HTML, and one garbage byte of image data.
 */
export function pictureLessPng(): Buffer {
  const header = Buffer.concat([u32(800), u32(600), Buffer.from([8, 2, 0, 0, 0])]);
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('tEXt', Buffer.from(`Comment\0${HTML}`, 'latin1')),
    pngChunk('IDAT', Buffer.from([0x42])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The review's JPEG without a picture: a start, a frame header (800 × 600, one component), HTML, an end marker. */
export function pictureLessJpeg(): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8]), segment(0xc0, Buffer.concat([Buffer.from([8]), u16(600), u16(800), Buffer.from([1, 1, 0x11, 0])])), Buffer.from(HTML), Buffer.from([0xff, 0xd9])]);
}

/**
 * A PNG that declares `width` × `height` pixels of 16-bit RGBA (8 bytes each) over a few bytes of deflated
 * zeros: decoding it would take width × height × 8 bytes.
 */
export function declaredHugePng(width: number, height: number): Buffer {
  const header = Buffer.concat([u32(width), u32(height), Buffer.from([16, 6, 0, 0, 0])]);
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', header), pngChunk('IDAT', deflateSync(Buffer.alloc(64))), pngChunk('IEND', Buffer.alloc(0))]);
}
