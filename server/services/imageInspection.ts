// Whether an identity photo can show a document or a face, judged from its pixels. Three stages, cheapest
// first: the header read (imageHeaders.ts) gives the format and the size, so a file whose pixels would not
// fit the budget is refused before anything is decompressed; then libvips (sharp) decodes the whole image and
// fails on any decoding error; then two measures of a small grey copy tell a blank or featureless picture
// from a photo. The thresholds are explained beside them (docs/onboarding.md, "Documents").
import sharp from 'sharp';
import { readImageHeader, type ImageFormat } from './imageHeaders';

export const IMAGE_LIMITS = {
  /** Each side, in pixels: an ID card 320 px high still shows its letters some 8 px tall. */
  minSide: 320,
  /** Each side, in pixels: no camera makes more. */
  maxSide: 12_000,
  /**
   * The pixel budget: a 50-megapixel phone camera makes 8160 × 6144 (50.1 Mpx); above 64 Mpx the file is not a
   * phone's photo, and decoding it would cost the server memory and time for nothing.
   */
  maxPixels: 64_000_000,
} as const;

/** The measures are taken on a copy whose longer side is at most this: enough to see text lines and a face. */
const WORKING_SIDE = 512;
/**
 * Blank: every colour channel's standard deviation below 8 of 255 levels (3% of the range). Such a picture looks
 * like one colour to the eye: a covered lens, a dark room, a blank screen. Real photos measure 30 and more.
 */
const BLANK_MAX_STDEV = 8;
/** The side of the squares the picture is cut into to find where it shows something. */
const BLOCK = 8;
/**
 * A square shows something when the mean absolute Laplacian of its grey levels reaches 4: edges, text, hair,
 * skin texture. A smooth gradient measures under 1.5 and JPEG's own noise or a faint sensor noise under 2.5.
 */
const DETAIL_MIN_LAPLACIAN = 4;
/**
 * Uniform: under 10% of the squares show something. A document filling the frame (as the screen asks) or a face
 * with its hair and shoulders puts detail in well over a third of them (photos measured 38–93%); a gradient, a
 * plain wall, a blurred or nearly blank picture has almost none (0–4%).
 */
const MIN_DETAIL_SHARE = 0.1;

/**
 * `not-image`: the bytes are of another format; `not-decodable`: truncated or corrupt; `too-small` / `too-large`:
 * a side or the pixel budget; `blank`: one colour; `uniform`: too little detail to show a document or a face.
 */
type ImageProblem = 'not-image' | 'not-decodable' | 'too-small' | 'too-large' | 'blank' | 'uniform';

/** Each problem as the server answers it: its error code and a message that says which. */
const IMAGE_REFUSALS = {
  'not-image': { code: 'DOCUMENT_NOT_IMAGE', message: 'The document is not a JPEG or PNG image' },
  'not-decodable': { code: 'DOCUMENT_NOT_DECODABLE', message: 'The image is truncated or corrupt' },
  'too-small': { code: 'IMAGE_TOO_SMALL', message: `Each side of the image must be at least ${IMAGE_LIMITS.minSide} pixels` },
  'too-large': {
    code: 'IMAGE_TOO_LARGE',
    message: `Each side of the image must be at most ${IMAGE_LIMITS.maxSide} pixels, and the whole at most ${IMAGE_LIMITS.maxPixels / 1_000_000} megapixels`,
  },
  blank: { code: 'IMAGE_BLANK', message: 'The image is blank: it shows one colour and nothing else' },
  uniform: { code: 'IMAGE_UNIFORM', message: 'The image shows too little detail to see a document or a face' },
} as const satisfies Record<ImageProblem, { code: string; message: string }>;

type Refusal = { ok: false; problem: ImageProblem } & (typeof IMAGE_REFUSALS)[ImageProblem];
const refused = (problem: ImageProblem): Refusal => ({ ok: false, problem, ...IMAGE_REFUSALS[problem] });

interface ImageMeasures {
  /** Per colour channel, of the working copy, in levels of 255. */
  stdev: number[];
  /** The share of the picture (0–1) that shows something. */
  detailShare: number;
}

type ImageInspection = ({ ok: true; width: number; height: number } & ImageMeasures) | Refusal;

/** The pixels of a decoded picture, RGB, row after row. */
interface RgbImage {
  data: Uint8Array;
  width: number;
  height: number;
}

/** A decoder that stops at the first error, and never takes more pixels than the budget. */
const decoder = (bytes: Buffer) => sharp(bytes, { failOn: 'error', limitInputPixels: IMAGE_LIMITS.maxPixels, sequentialRead: true });

/**
 * The whole image decoded and reduced to RGB whose longer side is at most `side` (never enlarged). Every
 * compressed byte is decoded on the way: a corrupt or truncated stream throws.
 */
export async function decodeRgb(bytes: Buffer, side: number): Promise<RgbImage> {
  const { data, info } = await decoder(bytes)
    .autoOrient()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected RGB, decoded ${info.channels} channels`);
  // A copy of its own (a few hundred kilobytes): the measures below run over it at full speed in any context.
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** The standard deviation of each channel, and the share of BLOCK × BLOCK squares whose grey levels show edges. */
function measure({ data, width, height }: RgbImage): ImageMeasures {
  const pixels = width * height;
  const stdev = [0, 1, 2].map((channel) => {
    let sum = 0;
    let squares = 0;
    for (let index = channel; index < data.length; index += 3) {
      sum += data[index];
      squares += data[index] * data[index];
    }
    const mean = sum / pixels;
    return Math.sqrt(Math.max(0, squares / pixels - mean * mean));
  });
  const grey = new Float32Array(pixels);
  for (let pixel = 0; pixel < pixels; pixel += 1) grey[pixel] = 0.299 * data[pixel * 3] + 0.587 * data[pixel * 3 + 1] + 0.114 * data[pixel * 3 + 2];
  const columns = Math.floor(width / BLOCK);
  const rows = Math.floor(height / BLOCK);
  let detailed = 0;
  // No global (Math) looked up per pixel: in a vm context, as under Jest, each such lookup is slow (~50× here).
  const { abs } = Math;
  for (let row = 0; row < rows; row += 1) {
    const top = Math.max(1, row * BLOCK);
    const bottom = Math.min(height - 1, (row + 1) * BLOCK);
    for (let column = 0; column < columns; column += 1) {
      const left = Math.max(1, column * BLOCK);
      const right = Math.min(width - 1, (column + 1) * BLOCK);
      let sum = 0;
      let counted = 0;
      for (let y = top; y < bottom; y += 1) {
        for (let x = left; x < right; x += 1) {
          const at = y * width + x;
          sum += abs(4 * grey[at] - grey[at - 1] - grey[at + 1] - grey[at - width] - grey[at + width]);
          counted += 1;
        }
      }
      if (counted > 0 && sum / counted >= DETAIL_MIN_LAPLACIAN) detailed += 1;
    }
  }
  return { stdev, detailShare: columns * rows === 0 ? 0 : detailed / (columns * rows) };
}

/**
 * Inspects an identity photo said to be `format` (its content type). Nothing is decoded unless the header is
 * sound and the size within the limits.
 */
export async function inspectImage(bytes: Buffer, format: ImageFormat): Promise<ImageInspection> {
  const header = readImageHeader(bytes, format);
  if (!header.ok) return refused(header.problem);
  const { width, height } = header;
  if (Math.min(width, height) < IMAGE_LIMITS.minSide) return refused('too-small');
  if (Math.max(width, height) > IMAGE_LIMITS.maxSide || width * height > IMAGE_LIMITS.maxPixels) return refused('too-large');
  let working: RgbImage;
  try {
    // The format libvips finds must be the one the header read found (it sniffs the bytes itself).
    const found = (await decoder(bytes).metadata()).format;
    if (found !== format) return refused('not-image');
    working = await decodeRgb(bytes, WORKING_SIDE);
  } catch {
    return refused('not-decodable');
  }
  const measures = measure(working);
  if (Math.max(...measures.stdev) < BLANK_MAX_STDEV) return refused('blank');
  if (measures.detailShare < MIN_DETAIL_SHARE) return refused('uniform');
  return { ok: true, width, height, ...measures };
}
