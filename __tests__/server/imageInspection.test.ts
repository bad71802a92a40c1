// The identity photos judged from their pixels: drawn photo-like pictures and real photographs pass; files
// without a picture, over the pixel budget, too small, blank or featureless are refused, each for its reason.
import sharp from 'sharp';
import { IMAGE_LIMITS, inspectImage } from '../../server/services/imageInspection';
import { declaredHugePng, documentPhoto, flatPhoto, gradientPhoto, jpeg, pictureLessJpeg, pictureLessPng, png, realPhotoFile as realPhoto, realSelfie, selfiePhoto } from './images';

describe('identity photo inspection', () => {
  it('takes photo-like pictures of a document and a face, as JPEG and PNG, and real photographs', async () => {
    for (const format of ['jpeg', 'png'] as const) {
      expect(await inspectImage(await documentPhoto(format), format)).toMatchObject({ ok: true, width: 1200, height: 760 });
      expect(await inspectImage(await selfiePhoto(format), format)).toMatchObject({ ok: true, width: 720, height: 960 });
    }
    expect(await inspectImage(await realSelfie(), 'jpeg')).toMatchObject({ ok: true, width: 720, height: 960 });
    for (const index of [1, 2, 3, 4, 5, 6] as const) {
      const result = await inspectImage(await sharp(realPhoto(index)).toBuffer(), 'jpeg');
      expect({ index, ok: result.ok }).toEqual({ index, ok: true });
    }
    // The smallest card the limits take still shows its lines.
    expect(await inspectImage(await documentPhoto('jpeg', { width: 506, height: 320 }), 'jpeg')).toMatchObject({ ok: true });
  });

  it('refuses the files without a picture that passed a header read, as not decodable', async () => {
    expect(await inspectImage(pictureLessPng(), 'png')).toMatchObject({ ok: false, problem: 'not-decodable' });
    expect(await inspectImage(pictureLessJpeg(), 'jpeg')).toMatchObject({ ok: false, problem: 'not-decodable' });
    const photo = await documentPhoto('png');
    expect(await inspectImage(photo.subarray(0, photo.length - 40_000), 'png')).toMatchObject({ ok: false, problem: 'not-decodable' });
  });

  it('refuses a picture of another format than its type says', async () => {
    expect(await inspectImage(await documentPhoto('png'), 'jpeg')).toMatchObject({ ok: false, problem: 'not-image' });
    expect(await inspectImage(Buffer.from('%PDF-1.7\n'), 'png')).toMatchObject({ ok: false, problem: 'not-image' });
  });

  it('refuses over the pixel budget from the header alone, before decoding anything', async () => {
    // Each declares more pixels than it carries: decoding would fail, so only the budget can answer `too-large`.
    expect(await inspectImage(declaredHugePng(12_000, 12_000), 'png')).toMatchObject({ ok: false, problem: 'too-large' });
    expect(await inspectImage(declaredHugePng(9000, 8000), 'png')).toMatchObject({ ok: false, problem: 'too-large' });
    expect(9000 * 8000).toBeGreaterThan(IMAGE_LIMITS.maxPixels);
    expect(await inspectImage(declaredHugePng(8000, 8000), 'png')).toMatchObject({ ok: false, problem: 'not-decodable' });
    expect(await inspectImage(png(12_001, 320), 'png')).toMatchObject({ ok: false, problem: 'too-large' });
  });

  it('refuses a picture too small to read', async () => {
    expect(await inspectImage(await documentPhoto('jpeg', { width: 480, height: 304 }), 'jpeg')).toMatchObject({ ok: false, problem: 'too-small' });
    expect(await inspectImage(jpeg(319, 2000), 'jpeg')).toMatchObject({ ok: false, problem: 'too-small' });
  });

  it('refuses a blank picture: one colour, a covered lens, a dark room', async () => {
    for (const format of ['jpeg', 'png'] as const) {
      expect(await inspectImage(await flatPhoto(format, 1200, 800), format)).toMatchObject({ ok: false, problem: 'blank' });
      expect(await inspectImage(await flatPhoto(format, 1200, 800, '#ffffff'), format)).toMatchObject({ ok: false, problem: 'blank' });
    }
    expect(await inspectImage(jpeg(1200, 760), 'jpeg')).toMatchObject({ ok: false, problem: 'blank' });
    const dark = await sharp(realPhoto(2)).linear(0.05, 0).jpeg().toBuffer();
    expect(await inspectImage(dark, 'jpeg')).toMatchObject({ ok: false, problem: 'blank' });
  });

  it('refuses a featureless picture: a smooth gradient, a blurred photo, a page with one line', async () => {
    expect(await inspectImage(await gradientPhoto('png', 1200, 800), 'png')).toMatchObject({ ok: false, problem: 'uniform' });
    expect(await inspectImage(await gradientPhoto('jpeg', 4000, 3000), 'jpeg')).toMatchObject({ ok: false, problem: 'uniform' });
    const blurred = await sharp(realPhoto(1)).blur(25).jpeg().toBuffer();
    expect(await inspectImage(blurred, 'jpeg')).toMatchObject({ ok: false, problem: 'uniform' });
    const oneLine = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#f2f2f2' } })
      .composite([{ input: { create: { width: 500, height: 24, channels: 3, background: '#202020' } }, left: 350, top: 388 }])
      .png()
      .toBuffer();
    expect(await inspectImage(oneLine, 'png')).toMatchObject({ ok: false, problem: 'uniform' });
  });
});
