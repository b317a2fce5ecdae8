import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  boundedPerceptualDistance,
  perceptualDistance,
  perceptualReference,
  releaseReference,
  type RgbaPixels,
} from './perceptual.js';
import { measuredHere } from './ssim-thread.js';

function image(width: number, height: number, channels: 3 | 4, pixel: (x: number, y: number) => number[]): RgbaPixels {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set(pixel(x, y).slice(0, channels), (y * width + x) * channels);
  return { data, width, height, channels };
}

const ramp = image(96, 64, 3, (x, y) => [x * 2.6, y * 3.9, 128]);
const distance = (a: RgbaPixels, b: RgbaPixels) => perceptualDistance(perceptualReference(a), b);

describe('perceptualDistance', () => {
  it('is 0 for the same pixels and grows with the distortion', () => {
    expect(distance(ramp, ramp)).toBeCloseTo(0, 10);
    const banded = (step: number) =>
      image(96, 64, 3, (x, y) => [Math.floor((x * 2.6) / step) * step, Math.floor((y * 3.9) / step) * step, 128]);
    const light = distance(ramp, banded(8));
    const heavy = distance(ramp, banded(32));
    expect(light).toBeGreaterThan(0);
    expect(heavy).toBeGreaterThan(light);
  });

  it('sees a change of hue at the same lightness, which luma SSIM does not', () => {
    // Same BT.601 luma per pixel, opposite chroma: red-ish versus green-ish halves swapped in a checkerboard.
    const patch = (swap: boolean) =>
      image(64, 64, 3, (x, y) =>
        (Math.floor(x / 8) + Math.floor(y / 8)) % 2 === (swap ? 1 : 0) ? [200, 100, 100] : [100, 151, 100],
      );
    expect(distance(patch(false), patch(true))).toBeGreaterThan(0.05);
  });

  it('sees a change that only shows over one background (an alpha edge)', () => {
    const logo = (edgeAlpha: number) =>
      image(48, 48, 4, (x) => (x < 16 ? [20, 40, 200, 255] : x < 24 ? [20, 40, 200, edgeAlpha] : [0, 0, 0, 0]));
    expect(distance(logo(128), logo(128))).toBeCloseTo(0, 10);
    expect(distance(logo(128), logo(32))).toBeGreaterThan(0.001);
  });

  it('counts fine dithering noise for less than banding of the same mean error', async () => {
    const smooth = image(128, 128, 3, (x) => [x * 2, x * 2, x * 2]);
    const dithered = image(128, 128, 3, (x, y) => {
      const v = x * 2 + ((x + y) % 2 ? 4 : -4);
      return [v, v, v].map((c) => Math.max(0, Math.min(255, c)));
    });
    const banded = image(128, 128, 3, (x) => [
      Math.floor((x * 2) / 16) * 16 + 4,
      Math.floor((x * 2) / 16) * 16 + 4,
      Math.floor((x * 2) / 16) * 16 + 4,
    ]);
    expect(distance(smooth, dithered)).toBeLessThan(distance(smooth, banded));
    // Decoded images work as well as synthetic ones: a JPEG of the ramp is near, not identical.
    const jpeg = await sharp(Buffer.from(ramp.data), { raw: { width: 96, height: 64, channels: 3 } })
      .jpeg({ quality: 60 })
      .toBuffer();
    const decoded = await sharp(jpeg).removeAlpha().raw().toBuffer();
    expect(distance(ramp, { ...ramp, data: decoded })).toBeGreaterThan(0);
  });

  it('handles images smaller than the SSIM window', () => {
    const icon = image(6, 5, 4, (x, y) => [x * 40, y * 50, 90, 255]);
    expect(distance(icon, icon)).toBeCloseTo(0, 10);
    expect(
      distance(
        icon,
        image(6, 5, 4, (x, y) => [x * 40 + 30, y * 50, 90, 255]),
      ),
    ).toBeGreaterThan(0);
  });
});

describe('boundedPerceptualDistance', () => {
  // The edge shows over black (the dark blue against black barely changes) far less than over white, or the
  // reverse: either way the two backgrounds disagree, which is what the bound is about.
  const logo = (edgeAlpha: number) =>
    image(48, 48, 4, (x) => (x < 16 ? [20, 40, 200, 255] : x < 24 ? [20, 40, 200, edgeAlpha] : [0, 0, 0, 0]));
  const reference = perceptualReference(logo(128));
  const changed = logo(32);

  it('stops at the first background past the limit, with a lower bound of the distance', async () => {
    const full = perceptualDistance(reference, changed);
    for (const first of [0, 1]) {
      const bounded = await boundedPerceptualDistance(reference, changed, 0, first);
      expect(bounded.complete).toBe(false);
      expect(bounded.worst).toBe(first);
      expect(bounded.distance).toBeGreaterThan(0);
      expect(bounded.distance).toBeLessThanOrEqual(full);
    }
    // The worse background alone is the whole distance.
    const alone = await Promise.all([0, 1].map((first) => boundedPerceptualDistance(reference, changed, 0, first)));
    expect(alone.some((bounded) => bounded.distance === full)).toBe(true);
  });

  it('measures every background when within the limit, and equals the full distance', async () => {
    const full = perceptualDistance(reference, changed);
    const bounded = await boundedPerceptualDistance(reference, changed, full, 1);
    expect(bounded).toMatchObject({ complete: true, distance: full });
    expect(await boundedPerceptualDistance(reference, logo(128), 0.001)).toMatchObject({
      complete: true,
      distance: 0,
    });
  });

  it('measures the same distance, bit for bit, with the full-resolution lightness on the SSIM thread', async () => {
    const textured = (shift: number) =>
      image(200, 160, 4, (x, y) => [(x * 7 + y * 3 + shift) % 256, (x * y) % 256, (y * 5) % 256, (x + y) % 256]);
    const source = textured(0);
    const candidate = textured(9);
    const onThread = perceptualReference(source, { onThread: true });
    const fallbacks = measuredHere();
    expect(onThread.finestOnThread).toHaveLength(2);
    try {
      const here = perceptualDistance(perceptualReference(source), candidate);
      expect(here).toBeGreaterThan(0);
      expect((await boundedPerceptualDistance(onThread, candidate, Infinity)).distance).toBe(here);
      expect((await boundedPerceptualDistance(onThread, source, Infinity)).distance).toBe(0);
      expect(measuredHere()).toBe(fallbacks);
    } finally {
      releaseReference(onThread);
    }
    // A reference the thread no longer holds is measured here, to the same value.
    const here = perceptualDistance(onThread, candidate);
    expect((await boundedPerceptualDistance(onThread, candidate, Infinity)).distance).toBe(here);
    expect(measuredHere()).toBe(fallbacks + 2);
  });
});
