import { describe, expect, it } from 'vitest';
import type { ImageType } from './media-types.js';
import type { MetadataKind } from './options.js';
import { renderOutput } from './process.js';
import { buildTestImage } from './testing.js';

const limits = { maxPixels: 40_000_000 };
const COPYRIGHT = 'Copyright 2026 Ada Lovelace';

/**
 * Spec, preserve: copyright adds "up to 90 bytes plus the length of the copyright data", creation "about 70
 * bytes", location "about 130 bytes" (JPEG only). Measured as the difference from the same output without them.
 */
describe('preserve adds what the spec says, and no more', { timeout: 60_000 }, () => {
  let original: Buffer;
  const sizes = new Map<string, number>();
  const sizeOf = async (type: ImageType, preserve: MetadataKind[]) => {
    const key = `${type} ${preserve.join(',')}`;
    if (!sizes.has(key)) {
      original ??= await buildTestImage({
        type: 'image/jpeg',
        photo: true,
        width: 96,
        height: 64,
        exif: {
          IFD0: { Copyright: COPYRIGHT },
          IFD2: { DateTimeOriginal: '2026:01:02 03:04:05' },
          IFD3: {
            GPSLatitudeRef: 'N',
            GPSLatitude: '52/1 30/1 0/1',
            GPSLongitudeRef: 'W',
            GPSLongitude: '0/1 7/1 30/1',
          },
        },
      });
      sizes.set(key, (await renderOutput(original, { convert: [type], preserve }, limits)).data.length);
    }
    return sizes.get(key)!;
  };
  const added = async (type: ImageType, preserve: MetadataKind[]) =>
    (await sizeOf(type, preserve)) - (await sizeOf(type, []));

  it.each(['image/jpeg', 'image/png'] as const)('%s: copyright within 90 bytes plus the text', async (type) => {
    const delta = await added(type, ['copyright']);
    expect(delta).toBeGreaterThan(COPYRIGHT.length);
    expect(delta).toBeLessThanOrEqual(90 + COPYRIGHT.length);
  });

  it.each(['image/jpeg', 'image/png'] as const)('%s: creation about 70 bytes', async (type) => {
    const delta = await added(type, ['creation']);
    expect(delta).toBeGreaterThanOrEqual(60);
    expect(delta).toBeLessThanOrEqual(80);
  });

  it('JPEG: location about 130 bytes; PNG: none', async () => {
    const delta = await added('image/jpeg', ['location']);
    expect(delta).toBeGreaterThanOrEqual(120);
    expect(delta).toBeLessThanOrEqual(140);
    expect(await added('image/png', ['location'])).toBe(0);
  });

  it('JPEG: all three together cost less than their sum', async () => {
    const all = await added('image/jpeg', ['copyright', 'creation', 'location']);
    const sum =
      (await added('image/jpeg', ['copyright'])) +
      (await added('image/jpeg', ['creation'])) +
      (await added('image/jpeg', ['location']));
    expect(all).toBeLessThan(sum);
    expect(all).toBeLessThanOrEqual(90 + COPYRIGHT.length + 70 + 130);
  });
});
