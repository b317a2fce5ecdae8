import { describe, expect, it } from 'vitest';
import { lumaOf, meanSsim, type LumaPlane } from './ssim.js';

function plane(width: number, height: number, value: (x: number, y: number) => number): LumaPlane {
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data[y * width + x] = value(x, y);
  return { data, width, height };
}

describe('meanSsim', () => {
  const pattern = plane(64, 48, (x, y) => 128 + 60 * Math.sin(x / 3) * Math.cos(y / 5));

  it('is 1 for identical planes and symmetric', () => {
    expect(meanSsim(pattern, pattern)).toBeCloseTo(1, 6);
    const shifted = plane(64, 48, (x, y) => pattern.data[y * 64 + x]! + ((x * 7 + y * 13) % 5) - 2);
    expect(meanSsim(pattern, shifted)).toBeCloseTo(meanSsim(shifted, pattern), 6);
  });

  it('falls as the distortion grows', () => {
    const noisy = (amount: number) =>
      plane(64, 48, (x, y) => pattern.data[y * 64 + x]! + amount * (((x * 31 + y * 17) % 11) - 5));
    const light = meanSsim(pattern, noisy(1));
    const heavy = meanSsim(pattern, noisy(6));
    expect(light).toBeLessThan(1);
    expect(heavy).toBeLessThan(light);
  });

  it('reads BT.601 luma from RGB and RGBA pixels', () => {
    const rgba = lumaOf(Uint8Array.from([255, 0, 0, 9, 0, 255, 0, 9]), 2, 1, 4);
    expect(Array.from(rgba.data)).toEqual([expect.closeTo(76.245, 3), expect.closeTo(149.685, 3)]);
  });
});
