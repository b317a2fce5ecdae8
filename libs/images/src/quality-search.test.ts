import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { QUALITY_TARGETS, encodeAs } from './encode.js';
import { perceptualDistance, perceptualReference } from './perceptual.js';
import { createScorer, pixelsOf, sampleOf, searchQuality } from './quality-search.js';

const jpegAt = (p: Sharp, quality: number) => p.jpeg({ mozjpeg: true, quality, chromaSubsampling: '4:2:0' });

function noise(width: number, height: number, amplitude: number): Buffer {
  const data = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const base = 128 + 60 * Math.sin(i / 900);
    data[i] = Math.max(0, Math.min(255, Math.round(base + ((seed % 1000) / 1000 - 0.5) * amplitude)));
  }
  return data;
}

/** A two-dimensional colour ramp with a little Gaussian noise: more colours than a palette holds, none masked. */
function noisyGradient(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 3);
  let seed = 1;
  const uniform = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const n = 2 * Math.sqrt(-2 * Math.log(uniform() + 1e-12)) * Math.cos(2 * Math.PI * uniform());
      const [u, v] = [x / (width - 1), y / (height - 1)];
      data.set([clamp(30 + 180 * u + n), clamp(60 + 150 * v + n), clamp(200 - 60 * (u + v) + n)], (y * width + x) * 3);
    }
  return data;
}

function psnr(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += (a[i]! - b[i]!) ** 2;
  return sum === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sum / a.length));
}

const raw = (data: Buffer, width: number, height: number) => ({ data, width, height, channels: 3 });

describe('searchQuality', { timeout: 30_000 }, () => {
  it('gives a smooth image a lower JPEG quality than a finely textured one', async () => {
    const smooth = await searchQuality(raw(noise(256, 256, 4), 256, 256), QUALITY_TARGETS['image/jpeg'], jpegAt);
    const textured = await searchQuality(raw(noise(256, 256, 120), 256, 256), QUALITY_TARGETS['image/jpeg'], jpegAt);
    expect(smooth.within).toBe(true);
    expect(smooth.quality).toBeLessThan(textured.quality);
    expect(smooth.quality).toBeGreaterThanOrEqual(QUALITY_TARGETS['image/jpeg'].minQuality);
  });

  it('samples large images as at most 5 × 5 tiles of 128 px, and small ones whole', () => {
    const big = sampleOf(raw(Buffer.alloc(2000 * 1500 * 3), 2000, 1500));
    expect([big.width, big.height]).toEqual([640, 640]);
    const small = raw(Buffer.alloc(300 * 200 * 3), 300, 200);
    expect(sampleOf(small)).toBe(small);
  });
});

describe('createScorer', { timeout: 30_000 }, () => {
  it('scores a candidate past the limit over one background only, and gives its exact distance on demand', async () => {
    // A translucent noisy ramp: two backgrounds to measure, and a 4-colour palette far out of reach on both.
    const rgb = noisyGradient(160, 160);
    const rgba = Buffer.alloc(160 * 160 * 4);
    for (let i = 0; i < 160 * 160; i++)
      rgba.set([rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!, 40 + (i % 160)], 4 * i);
    const source = { data: rgba, width: 160, height: 160, channels: 4 };
    const range = QUALITY_TARGETS['image/png'];
    const scorer = createScorer(source, range);
    const fourColours = (p: Sharp) => p.png({ palette: true, colours: 4, dither: 0 });
    const measured = await scorer.measure(fourColours, range.minQuality);
    expect(measured).toMatchObject({ within: false, exact: false });
    const decoded = await sharp(measured.encoded).ensureAlpha().raw().toBuffer();
    const full = perceptualDistance(perceptualReference(source), { ...source, data: decoded });
    expect(measured.distance).toBeLessThanOrEqual(full);
    expect(await scorer.exactDistance(measured)).toBeCloseTo(full, 12);
    // The source's own pixels are within, and exact.
    const lossless = await scorer.measure((p) => p.png(), range.minQuality);
    expect(lossless).toMatchObject({ within: true, exact: true, distance: 0 });
  });
});

describe('encodeAs', { timeout: 30_000 }, () => {
  it('gives a flat logo with text a small palette within the PNG target', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="80"><rect x="4" y="4" width="72" height="72" rx="16" fill="#e4572e"/><text x="90" y="56" font-family="DejaVu Sans" font-weight="700" font-size="40" fill="#1b2a4a">acme</text></svg>`;
    const input = await sharp(Buffer.from(svg)).png({ compressionLevel: 6 }).toBuffer();
    const output = await encodeAs(sharp(input), 'image/png');
    expect(output.data.length).toBeLessThan(input.length * 0.6);
    const meta = await sharp(output.data).metadata();
    expect(meta.isPalette).toBe(true);
    const reference = perceptualReference(await pixelsOf(sharp(input), true));
    expect(perceptualDistance(reference, await pixelsOf(sharp(output.data), true))).toBeLessThanOrEqual(
      QUALITY_TARGETS['image/png'].maxDistance,
    );
  });

  it('keeps a noisy gradient free of banding (truecolour where a palette error is visible)', async () => {
    const input = await sharp(noisyGradient(384, 384), { raw: { width: 384, height: 384, channels: 3 } })
      .png()
      .toBuffer();
    const banded = await sharp(input).png({ palette: true, quality: 100, effort: 7, dither: 1 }).toBuffer();
    const output = await encodeAs(sharp(input), 'image/png');
    const [source, palette, ours] = await Promise.all(
      [input, banded, output.data].map((png) => sharp(png).removeAlpha().raw().toBuffer()),
    );
    expect(psnr(source!, palette!)).toBeLessThan(40);
    expect(psnr(source!, ours!)).toBeGreaterThanOrEqual(45);
    expect(output.data.length).toBeLessThanOrEqual(input.length);
  });
});
