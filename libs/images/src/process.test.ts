import { describe, expect, it } from 'vitest';
import { compressImage, renderOutput } from './process.js';
import { readExifFacts } from './exif.js';
import { buildTestImage, readBack } from './testing.js';

const limits = { maxPixels: 40_000_000 };

describe('compressImage', { timeout: 30_000 }, () => {
  it.each(['image/png', 'image/jpeg', 'image/webp', 'image/avif'] as const)(
    'shrinks a %s and keeps its type',
    async (type) => {
      const input = await buildTestImage({ type, photo: true });
      const { input: seen, output } = await compressImage(input, limits);
      expect(seen.type).toBe(type);
      expect(output.type).toBe(type);
      expect(output.data.length).toBeLessThan(input.length);
      const meta = await readBack(output.data);
      expect([meta.width, meta.height]).toEqual([320, 240]);
    },
  );

  it('keeps the alpha channel of a PNG through palette quantisation', async () => {
    const { output } = await compressImage(await buildTestImage({ photo: true, alpha: 0.5 }), limits);
    expect((await readBack(output.data)).hasAlpha).toBe(true);
  });

  it('returns the input itself when compression cannot make it smaller', async () => {
    const tiny = (await compressImage(await buildTestImage({ width: 4, height: 4 }), limits)).output.data;
    const again = await compressImage(tiny, limits);
    expect(again.output.data.length).toBeLessThanOrEqual(tiny.length);
  });

  it('refuses other types with 415 and empty input with 400', async () => {
    await expect(compressImage(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), limits)).rejects.toMatchObject({
      kind: 'unsupported_media_type',
    });
    await expect(compressImage(Buffer.alloc(0), limits)).rejects.toMatchObject({ kind: 'input' });
  });

  it('refuses an image above the pixel limit before decoding it', async () => {
    const big = await buildTestImage({ width: 2000, height: 2000 });
    await expect(compressImage(big, { maxPixels: 1_000_000 })).rejects.toMatchObject({
      kind: 'too_large',
      code: 'too_many_pixels',
    });
  });

  it('reports corrupt pixel data as a client error', async () => {
    const good = await buildTestImage({ type: 'image/jpeg', photo: true });
    const broken = Buffer.concat([good.subarray(0, 400), Buffer.alloc(200, 0x55)]);
    await expect(compressImage(broken, limits)).rejects.toMatchObject({ kind: 'input', code: 'decode_error' });
  });
});

describe('renderOutput', { timeout: 30_000 }, () => {
  it('scale keeps proportions and hits the given dimension', async () => {
    const out = await renderOutput(
      await buildTestImage({ photo: true }),
      { resize: { method: 'scale', width: 160 } },
      limits,
    );
    expect([out.width, out.height]).toEqual([160, 120]);
  });

  it('fit stays within both, cover fills both exactly', async () => {
    const input = await buildTestImage({ photo: true });
    const fit = await renderOutput(input, { resize: { method: 'fit', width: 100, height: 100 } }, limits);
    expect([fit.width, fit.height]).toEqual([100, 75]);
    const cover = await renderOutput(input, { resize: { method: 'cover', width: 100, height: 100 } }, limits);
    expect([cover.width, cover.height]).toEqual([100, 100]);
  });

  it('never scales up (spec rule 5)', async () => {
    const input = await buildTestImage({ photo: true });
    const scale = await renderOutput(input, { resize: { method: 'scale', width: 1000 } }, limits);
    expect([scale.width, scale.height]).toEqual([320, 240]);
    const cover = await renderOutput(input, { resize: { method: 'cover', width: 480, height: 480 } }, limits);
    expect([cover.width, cover.height]).toEqual([240, 240]);
  });

  it('thumb frames a subject on a plain background and pads to the exact box', async () => {
    const input = await buildTestImage({ subject: true, width: 400, height: 200 });
    const out = await renderOutput(input, { resize: { method: 'thumb', width: 100, height: 100 } }, limits);
    expect([out.width, out.height]).toEqual([100, 100]);
  });

  it('converts to one type, or to the smallest of several', async () => {
    const input = await buildTestImage({ photo: true });
    const webp = await renderOutput(input, { convert: ['image/webp'] }, limits);
    expect((await readBack(webp.data)).format).toBe('webp');
    const all = await Promise.all(
      (['image/avif', 'image/webp', 'image/jpeg', 'image/png'] as const).map((t) =>
        renderOutput(input, { convert: [t] }, limits),
      ),
    );
    const smallest = await renderOutput(
      input,
      { convert: ['image/avif', 'image/webp', 'image/jpeg', 'image/png'] },
      limits,
    );
    expect(smallest.data.length).toBe(Math.min(...all.map((o) => o.data.length)));
  });

  it('needs a background to make a transparent image a JPEG, and fills it when given', async () => {
    const input = await buildTestImage({ alpha: 0 });
    await expect(renderOutput(input, { convert: ['image/jpeg'] }, limits)).rejects.toThrow(
      /requires transform.background/,
    );
    const out = await renderOutput(input, { convert: ['image/jpeg'], background: { r: 0, g: 0, b: 0 } }, limits);
    const { data } = await (await import('sharp')).default(out.data).raw().toBuffer({ resolveWithObject: true });
    expect(data[0]).toBeLessThan(10);
    const listed = await renderOutput(input, { convert: ['image/jpeg', 'image/png'] }, limits);
    expect(listed.type).toBe('image/png');
  });

  it('preserves copyright, creation and location in a JPEG, and adds nothing that was absent', async () => {
    const input = await buildTestImage({
      type: 'image/jpeg',
      photo: true,
      exif: {
        IFD0: { Copyright: 'Copyright 2024 Jane' },
        IFD2: { DateTimeOriginal: '2024:05:06 07:08:09' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '52/1 22/1 30/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '4/1 53/1 0/1',
        },
      },
    });
    const out = await renderOutput(input, { preserve: ['copyright', 'creation', 'location'] }, limits);
    const facts = readExifFacts((await readBack(out.data)).exif);
    expect(facts).toEqual({
      copyright: 'Copyright 2024 Jane',
      dateTimeOriginal: '2024:05:06 07:08:09',
      gps: { latitudeRef: 'N', latitude: [52, 22, 30], longitudeRef: 'E', longitude: [4, 53, 0] },
    });
    const none = await renderOutput(input, { preserve: [] }, limits);
    expect((await readBack(none.data)).exif).toBeUndefined();
    const bare = await renderOutput(await buildTestImage({ type: 'image/jpeg' }), { preserve: ['copyright'] }, limits);
    expect((await readBack(bare.data)).exif).toBeUndefined();
  });

  it('preserves copyright and creation as EXIF (an eXIf chunk) in a PNG, never location', async () => {
    const input = await buildTestImage({
      type: 'image/jpeg',
      photo: true,
      exif: { IFD0: { Copyright: 'Jane & Co' }, IFD2: { DateTimeOriginal: '2024:05:06 07:08:09' } },
    });
    const out = await renderOutput(
      input,
      { convert: ['image/png'], preserve: ['copyright', 'creation', 'location'] },
      limits,
    );
    expect(readExifFacts((await readBack(out.data)).exif)).toEqual({
      copyright: 'Jane & Co',
      dateTimeOriginal: '2024:05:06 07:08:09',
    });
  });
});
