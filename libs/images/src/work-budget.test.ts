import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { declaredDimensions } from './header-dimensions.js';
import { compressImage, renderOutput } from './process.js';
import { buildTestImage, readBack } from './testing.js';
import { estimateWorkSeconds } from './work-budget.js';

/** A real PNG whose IHDR is rewritten to declare other dimensions (its CRC made valid again). */
async function pngDeclaring(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await buildTestImage({ width: 1, height: 1 }));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)) >>> 0, 29);
  return png;
}

describe('dimensions read from the header before decoding', () => {
  it.each(['image/png', 'image/jpeg', 'image/webp', 'image/avif'] as const)('reads a %s', async (type) => {
    const image = await buildTestImage({ type, width: 123, height: 45 });
    expect(declaredDimensions(image, type)).toEqual({ width: 123, height: 45 });
  });

  it('answers a 2³¹−1 × 1 PNG with 413, not as undecodable', async () => {
    await expect(compressImage(await pngDeclaring(2 ** 31 - 1, 1), { maxPixels: 100_000_000 })).rejects.toMatchObject({
      kind: 'too_large',
      code: 'too_many_pixels',
    });
  });
});

describe('the work budget', { timeout: 30_000 }, () => {
  const limits = { maxPixels: 100_000_000, workBudgetSeconds: 60 };
  const photo12Mp = { type: 'image/jpeg' as const, width: 4000, height: 3000, bytes: 4_000_000 };

  it('prices the documented cases', () => {
    // A 12 MP photo: compressed as JPEG, WebP or PNG within the budget, as every type at once beyond it.
    expect(estimateWorkSeconds({ ...photo12Mp, targets: ['image/jpeg'] })).toBeLessThan(15);
    expect(estimateWorkSeconds({ ...photo12Mp, targets: ['image/webp'] })).toBeLessThan(25);
    expect(estimateWorkSeconds({ ...photo12Mp, targets: ['image/png'] })).toBeLessThan(60);
    const everyType = ['image/jpeg', 'image/webp', 'image/avif', 'image/png'] as const;
    expect(estimateWorkSeconds({ ...photo12Mp, targets: [...everyType] })).toBeGreaterThan(60);
    // A fully detailed 12 MP image (noise) as PNG: beyond it.
    expect(estimateWorkSeconds({ ...photo12Mp, bytes: 12_000_000, targets: ['image/png'] })).toBeGreaterThan(60);
    // ... and made small first, as PNG, within it.
    expect(
      estimateWorkSeconds({ ...photo12Mp, targets: ['image/png'], resize: { method: 'fit', width: 800, height: 800 } }),
    ).toBeLessThan(15);
    // A 4K screenshot of 1.5 MB: flat content, cheap per pixel.
    const screenshot = { type: 'image/png' as const, width: 3840, height: 2160, bytes: 1_500_000 };
    expect(estimateWorkSeconds({ ...screenshot, targets: ['image/png'] })).toBeLessThan(30);
    // 120 KB declaring 100 MP: over the budget even at the lowest detail.
    const bomb = { type: 'image/png' as const, width: 10_000, height: 10_000, bytes: 120_000 };
    expect(estimateWorkSeconds({ ...bomb, targets: ['image/png'] })).toBeGreaterThan(60);
  });

  it('refuses with 413 before decoding a small file that declares 100 MP', async () => {
    const started = performance.now();
    await expect(compressImage(await pngDeclaring(10_000, 10_000), limits)).rejects.toMatchObject({
      kind: 'too_large',
      code: 'too_much_work',
    });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('refuses an expensive conversion that the same image may have as a resize', async () => {
    const input = await buildTestImage({ type: 'image/jpeg', photo: true, width: 1600, height: 1200 });
    const tight = { ...limits, workBudgetSeconds: 5 };
    await expect(renderOutput(input, { convert: ['image/png', 'image/avif'] }, tight)).rejects.toMatchObject({
      code: 'too_much_work',
    });
    const small = await renderOutput(input, { resize: { method: 'scale', width: 200 } }, tight);
    expect(small.width).toBe(200);
  });
});

describe('the AVIF time budget', { timeout: 30_000 }, () => {
  it('makes WebP instead of an AVIF that takes longer than the budget', async () => {
    const input = await buildTestImage({ type: 'image/jpeg', photo: true });
    const out = await renderOutput(input, { convert: ['image/avif'] }, { maxPixels: 1e8, avifBudgetMs: 1 });
    expect(out.type).toBe('image/webp');
    expect((await readBack(out.data)).format).toBe('webp');
    const inTime = await renderOutput(input, { convert: ['image/avif'] }, { maxPixels: 1e8, avifBudgetMs: 20_000 });
    expect(inTime.type).toBe('image/avif');
  });

  it('keeps an AVIF upload as it is when its /shrink runs out of time', async () => {
    const input = await buildTestImage({ type: 'image/avif', photo: true });
    const { output } = await compressImage(input, { maxPixels: 1e8, avifBudgetMs: 1 });
    expect(output.type).toBe('image/avif');
    expect(output.data.equals(input)).toBe(true);
  });
});
