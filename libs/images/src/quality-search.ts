import sharp, { type Sharp } from 'sharp';
import { perceptualDistance, perceptualReference, type RgbaPixels } from './perceptual.js';
import { lumaOf, meanSsimAgainst, ssimReference } from './ssim.js';

/** The range a search walks and the distance (perceptual.ts) its result must stay within. */
export interface QualityRange {
  /** The largest perceptual distance from the source the output may have. */
  maxDistance: number;
  /**
   * For lossy codecs that blur fine texture (which the multi-scale distance weighs lightly): the least
   * full-resolution luma SSIM the output must keep. Not for palettes, whose dithering it would take for damage.
   */
  minLumaSsim?: number;
  /** Below it an encoder's artefacts change in kind (blocks, banding) faster than the metric sees. */
  minQuality: number;
  maxQuality: number;
  /** Qualities tried are minQuality + k·step (and maxQuality): a palette's size moves in steps, a DCT codec's finely. */
  step?: number;
}

/** Tiles of 128 px (a multiple of the 16-px JPEG MCU and WebP macroblock), at most 5 × 5: 0.4 MP whatever the size. */
const TILE = 128;
const GRID = 5;

/**
 * Tile origins spread evenly over the image, aligned to the 16-px block grid so each tile is coded as in the full
 * image. SSIM is a mean over windows: an even sample of windows estimates it at full resolution.
 */
function tileOrigins(width: number, height: number): Array<{ x: number; y: number }> {
  const cols = Math.min(GRID, Math.floor(width / TILE));
  const rows = Math.min(GRID, Math.floor(height / TILE));
  const at = (i: number, n: number, size: number) =>
    n === 1 ? 0 : Math.floor((i * (size - TILE)) / (n - 1) / 16) * 16;
  const origins = [];
  for (let r = 0; r < rows; r++)
    for (let c = 0; c < cols; c++) origins.push({ x: at(c, cols, width), y: at(r, rows, height) });
  return origins;
}

/**
 * The sampled tiles side by side, or the whole image when it is no larger than a full sample (0.4 MP). Windows that straddle
 * two tiles are measured too; they are the same for every candidate, so the search's order is unchanged.
 */
export function sampleOf(source: RgbaPixels): RgbaPixels {
  const { data, width, height, channels } = source;
  const origins = tileOrigins(width, height);
  if (origins.length === 0 || width * height <= GRID * GRID * TILE * TILE) return source;
  const cols = Math.min(GRID, Math.floor(width / TILE));
  const rows = origins.length / cols;
  const out = Buffer.alloc(cols * TILE * rows * TILE * channels);
  origins.forEach((origin, i) => {
    const mx = (i % cols) * TILE;
    const my = Math.floor(i / cols) * TILE;
    for (let y = 0; y < TILE; y++) {
      const from = ((origin.y + y) * width + origin.x) * channels;
      out.set(data.subarray(from, from + TILE * channels), ((my + y) * cols * TILE + mx) * channels);
    }
  });
  return { data: out, width: cols * TILE, height: rows * TILE, channels };
}

/**
 * Raw sRGB pixels of a prepared pipeline, alpha kept only when the output type can carry it and some pixel is not
 * opaque (an opaque alpha channel would double the work of measuring over two backgrounds for nothing).
 */
export async function pixelsOf(pipeline: Sharp, keepAlpha: boolean): Promise<RgbaPixels> {
  const prepared = keepAlpha ? pipeline.toColourspace('srgb') : pipeline.removeAlpha().toColourspace('srgb');
  const { data, info } = await prepared.raw().toBuffer({ resolveWithObject: true });
  if (info.channels === 4 && opaque(data)) {
    const rgb = Buffer.alloc((data.length / 4) * 3);
    for (let i = 0, o = 0; i < data.length; i += 4, o += 3) {
      rgb[o] = data[i]!;
      rgb[o + 1] = data[i + 1]!;
      rgb[o + 2] = data[i + 2]!;
    }
    return { data: rgb, width: info.width, height: info.height, channels: 3 };
  }
  return { data, width: info.width, height: info.height, channels: info.channels };
}

function opaque(rgba: Buffer): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return false;
  return true;
}

/**
 * The lowest quality in the range whose output stays within the distance, by binary search on a sample of the
 * image (a few ms to a few hundred ms per step whatever its size); `encodeAt` applies the final encoder's options.
 * Falls back to the range's top when even that is too far (`within` false): never worse than the top.
 */
export async function searchQuality(
  source: RgbaPixels,
  range: QualityRange,
  encodeAt: EncodeAt,
): Promise<SearchResult> {
  const [result] = await searchQualities(source, range, [encodeAt]);
  return result!;
}

export type EncodeAt = (pipeline: Sharp, quality: number) => Sharp;

export interface SearchResult {
  quality: number;
  distance: number;
  /** False when even the top of the range is too far: the result is then the top. */
  within: boolean;
}

/** One search per encoder setting, against one sample and reference (converted and filtered once). */
export async function searchQualities(
  source: RgbaPixels,
  range: QualityRange,
  encoders: EncodeAt[],
): Promise<SearchResult[]> {
  const sample = sampleOf(source);
  const reference = perceptualReference(sample);
  const lumaReference =
    range.minLumaSsim === undefined
      ? undefined
      : ssimReference(lumaOf(sample.data, sample.width, sample.height, sample.channels));
  const raw = { width: sample.width, height: sample.height, channels: sample.channels as 3 | 4 };
  const step = range.step ?? 1;
  const qualities: number[] = [];
  for (let q = range.minQuality; q < range.maxQuality; q += step) qualities.push(q);
  qualities.push(range.maxQuality);
  const results: SearchResult[] = [];
  for (const encodeAt of encoders)
    results.push(await searchOne(sample, raw, reference, lumaReference, range, qualities, encodeAt));
  return results;
}

async function searchOne(
  sample: RgbaPixels,
  raw: { width: number; height: number; channels: 3 | 4 },
  reference: ReturnType<typeof perceptualReference>,
  lumaReference: ReturnType<typeof ssimReference> | undefined,
  range: QualityRange,
  qualities: number[],
  encodeAt: EncodeAt,
): Promise<SearchResult> {
  const measured = new Map<number, { distance: number; within: boolean }>();
  const measure = async (quality: number) => {
    const encoded = await encodeAt(sharp(sample.data, { raw }), quality).toBuffer();
    const srgb = sharp(encoded).toColourspace('srgb');
    const decoded = await (sample.channels === 4 ? srgb.ensureAlpha() : srgb.removeAlpha())
      .raw()
      .toBuffer({ resolveWithObject: true });
    const pixels = {
      data: decoded.data,
      width: decoded.info.width,
      height: decoded.info.height,
      channels: decoded.info.channels,
    };
    const distance = perceptualDistance(reference, pixels);
    let within = distance <= range.maxDistance;
    if (within && lumaReference)
      within =
        meanSsimAgainst(lumaReference, lumaOf(pixels.data, pixels.width, pixels.height, pixels.channels)) >=
        range.minLumaSsim!;
    const result = { distance, within };
    measured.set(quality, result);
    return result;
  };
  let low = 0;
  let high = qualities.length - 1;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if ((await measure(qualities[mid]!)).within) high = mid;
    else low = mid + 1;
  }
  const quality = qualities[low]!;
  const found = measured.get(quality) ?? (await measure(quality));
  return { quality, ...found };
}
