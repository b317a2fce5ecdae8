import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { boundedPerceptualDistance, perceptualReference, releaseReference, type RgbaPixels } from './perceptual.js';
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
  /** Exact when `within`; past the limit it may be a lower bound (see Measured.exact). */
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
  const scorer = createScorer(source, range);
  try {
    const qualities = qualitiesOf(range);
    const results: SearchResult[] = [];
    for (const encodeAt of encoders) {
      const measure = (quality: number) => scorer.measure(encodeAt, quality);
      const { quality, distance, within } = await bisect(measure, qualities);
      results.push({ quality, distance, within });
    }
    return results;
  } finally {
    scorer.close();
  }
}

/** The qualities a search may choose: minQuality + k·step, and maxQuality. */
function qualitiesOf(range: QualityRange): number[] {
  const step = range.step ?? 1;
  const qualities: number[] = [];
  for (let q = range.minQuality; q < range.maxQuality; q += step) qualities.push(q);
  qualities.push(range.maxQuality);
  return qualities;
}

/** One candidate: the sample encoded at `quality`, and how far it is from the sample. */
export interface Measured extends SearchResult {
  encoded: Buffer;
  /** False when `distance` is a lower bound: scoring stopped at the first background past the limit. */
  exact: boolean;
}

type Measure = (quality: number) => Promise<Measured>;

/**
 * Encodes and scores candidates against one sample and reference, each (encoder, quality) once; an output
 * byte for byte like one already scored (a palette that no longer changes with quality) is not scored again.
 */
export function createScorer(source: RgbaPixels, range: QualityRange) {
  const sample = sampleOf(source);
  // Filtered on first need: a candidate with the sample's very pixels (a palette that holds every colour) needs none.
  let reference: ReturnType<typeof perceptualReference> | undefined;
  let lumaReference: ReturnType<typeof ssimReference> | undefined;
  const raw = { width: sample.width, height: sample.height, channels: sample.channels as 3 | 4 };
  const byOutput = new Map<string, { distance: number; within: boolean; exact: boolean }>();
  const byEncoder = new Map<EncodeAt, Map<number, Promise<Measured>>>();
  // The background that was worst last time is measured first: the likeliest to settle a candidate alone.
  let worstBackground = 0;

  const keyOf = (encoded: Buffer) => `${encoded.length}:${createHash('sha1').update(encoded).digest('base64')}`;

  const decode = async (encoded: Buffer): Promise<RgbaPixels> => {
    const srgb = sharp(encoded).toColourspace('srgb');
    const decoded = await (sample.channels === 4 ? srgb.ensureAlpha() : srgb.removeAlpha())
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      data: decoded.data,
      width: decoded.info.width,
      height: decoded.info.height,
      channels: decoded.info.channels,
    };
  };

  const referenceOf = () => (reference ??= perceptualReference(sample, { onThread: true }));

  const score = async (encoded: Buffer) => {
    const key = keyOf(encoded);
    const known = byOutput.get(key);
    if (known) return known;
    const pixels = await decode(encoded);
    const result = Buffer.from(sample.data.buffer, sample.data.byteOffset, sample.data.byteLength).equals(pixels.data)
      ? { distance: 0, within: true, exact: true }
      : await distanceOf(pixels);
    byOutput.set(key, result);
    return result;
  };

  const distanceOf = async (pixels: RgbaPixels) => {
    const bounded = await boundedPerceptualDistance(referenceOf(), pixels, range.maxDistance, worstBackground);
    worstBackground = bounded.worst;
    const { distance } = bounded;
    let within = distance <= range.maxDistance;
    if (within && range.minLumaSsim !== undefined) {
      lumaReference ??= ssimReference(lumaOf(sample.data, sample.width, sample.height, sample.channels));
      within =
        meanSsimAgainst(lumaReference, lumaOf(pixels.data, pixels.width, pixels.height, pixels.channels)) >=
        range.minLumaSsim;
    }
    return { distance, within, exact: bounded.complete };
  };

  /** The exact distance of a candidate whose scoring stopped early (decoded and measured again, once). */
  const exactDistance = async (measured: Measured): Promise<number> => {
    if (measured.exact) return measured.distance;
    const key = keyOf(measured.encoded);
    const known = byOutput.get(key);
    if (known?.exact) return known.distance;
    const { distance } = await boundedPerceptualDistance(referenceOf(), await decode(measured.encoded), Infinity);
    byOutput.set(key, { distance, within: known?.within ?? false, exact: true });
    return distance;
  };

  const measure = (encodeAt: EncodeAt, quality: number): Promise<Measured> => {
    const done = byEncoder.get(encodeAt) ?? new Map<number, Promise<Measured>>();
    byEncoder.set(encodeAt, done);
    let result = done.get(quality);
    if (!result) {
      result = (async () => {
        const encoded = await encodeAt(sharp(sample.data, { raw }), quality).toBuffer();
        return { quality, encoded, ...(await score(encoded)) };
      })();
      done.set(quality, result);
    }
    return result;
  };

  /** True when the sample is the whole image: its candidates are final outputs. */
  const whole = sample === source;
  /** Frees what the scorer keeps on the SSIM thread; its results stay valid. */
  const close = () => {
    if (reference) releaseReference(reference);
  };
  return { measure, exactDistance, whole, sample, close };
}

/** Binary search for the lowest quality within; the top when none is (`within` false). */
async function bisect(measure: Measure, qualities: number[]): Promise<Measured> {
  let low = 0;
  let high = qualities.length - 1;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if ((await measure(qualities[mid]!)).within) high = mid;
    else low = mid + 1;
  }
  return measure(qualities[low]!);
}

/**
 * The same answer as the binary search when distance falls with quality, with the ends tried first: flat images
 * (icons, clip art, screenshots) are within at the bottom, photos and renders out of reach at the top, so most
 * images take one or two encodes instead of five. `first` is the end more likely to settle the search. Between
 * the ends, each step tries the quality where the distance, interpolated between the bracket's ends, meets the
 * limit (kept a quarter of the bracket from its ends): two or three encodes instead of four.
 */
export async function searchFromEnds(
  scorer: ReturnType<typeof createScorer>,
  range: QualityRange,
  encodeAt: EncodeAt,
  first: 'bottom' | 'top' = 'bottom',
  /**
   * True when no higher quality can change the output (a palette already full at the bottom: libimagequant then
   * gives the same 256 colours at every quality), which saves the top's encode on photos and renders.
   */
  saturated: (encoded: Buffer) => boolean = () => false,
): Promise<Measured> {
  const qualities = qualitiesOf(range);
  const measure = (quality: number) => scorer.measure(encodeAt, quality);
  const [bottom, top] = [qualities[0]!, qualities[qualities.length - 1]!];
  if (first === 'top') {
    const atTop = await measure(top);
    if (!atTop.within) return atTop;
  }
  let out = await measure(bottom);
  if (out.within || qualities.length === 1 || saturated(out.encoded)) return out;
  let inside = await measure(top);
  if (!inside.within) return inside;
  // Invariant: qualities[low] is out of reach, qualities[high] within.
  let low = 0;
  let high = qualities.length - 1;
  while (high - low > 1) {
    const share = (out.distance - range.maxDistance) / Math.max(out.distance - inside.distance, 1e-12);
    const guess = low + Math.round(share * (high - low));
    // Kept a quarter of the bracket from either end, so that each step removes at least a quarter of it.
    const margin = Math.max(1, Math.floor((high - low) / 4));
    const at = Math.min(high - margin, Math.max(low + margin, guess));
    const measured = await measure(qualities[at]!);
    if (measured.within) [high, inside] = [at, measured];
    else [low, out] = [at, measured];
  }
  return inside;
}
