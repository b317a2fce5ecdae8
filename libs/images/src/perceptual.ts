import { meanSsimAgainst, ssimReference, type LumaPlane, type SsimReference } from './ssim.js';
import { adoptOnThread, type SsimOnThread } from './ssim-thread.js';

/**
 * A perceptual distance that sees colour and transparency, for the per-image quality searches: the structural
 * dissimilarity 1/SSIM − 1 (as dssim reports it) of CIE L*a*b* planes, with
 * - five scales, each half the size of the one before, weighted as in multi-scale SSIM (Wang, Simoncelli & Bovik
 *   2003): the finest scale counts little, so dithering noise that the eye averages out is not taken for damage,
 *   while banding and blur, which span many pixels, are;
 * - lightness weighted 0.8, and a*, b* (at half resolution) 0.1 each: the eye resolves colour more coarsely than
 *   lightness, but a palette or chroma subsampling that shifts a hue is seen;
 * - transparent pixels composited over white and over black, the worse of the two counting, so an edge that
 *   only shows on one background (a logo's anti-aliasing, a soft shadow) is measured.
 * 0 is identical. `npm run bench` (image-quality) checks it against dssim itself on the corpus.
 */
export const PERCEPTUAL = {
  scaleWeights: [0.0448, 0.2856, 0.3001, 0.2363, 0.1333],
  lightnessWeight: 0.8,
  chromaWeight: 0.1,
  backgrounds: [255, 0],
} as const;

export interface RgbaPixels {
  data: Uint8Array;
  width: number;
  height: number;
  /** 3 (RGB) or 4 (RGBA). */
  channels: number;
}

interface LabReference {
  /** One entry per scale, finest first. */
  lightness: SsimReference[];
  a: SsimReference[];
  b: SsimReference[];
}

/** sRGB 8-bit value to linear light. */
const LINEAR = Float32Array.from({ length: 256 }, (_, v) => {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

const labF = (t: number) => (t > 0.008856 ? Math.cbrt(t) : 7.787 * t + 16 / 116);

/** L*, a*, b* (D65) of the pixels composited over a grey `background` (0–255) in sRGB, as browsers blend. */
function labOf(pixels: RgbaPixels, background: number): { lightness: LumaPlane; a: LumaPlane; b: LumaPlane } {
  const { data, width, height, channels } = pixels;
  const n = width * height;
  const L = new Float32Array(n);
  const A = new Float32Array(n);
  const B = new Float32Array(n);
  // Runs of one colour (flat areas, every palette candidate) are converted once.
  let last = -1;
  let [l, a, b] = [0, 0, 0];
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    let r = data[p]!;
    let g = data[p + 1]!;
    let bl = data[p + 2]!;
    if (channels === 4) {
      const alpha = data[p + 3]! / 255;
      const under = background * (1 - alpha);
      r = Math.round(r * alpha + under);
      g = Math.round(g * alpha + under);
      bl = Math.round(bl * alpha + under);
    }
    const key = (r << 16) | (g << 8) | bl;
    if (key !== last) {
      last = key;
      const lr = LINEAR[r]!;
      const lg = LINEAR[g]!;
      const lb = LINEAR[bl]!;
      const fx = labF((0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047);
      const fy = labF(0.2126 * lr + 0.7152 * lg + 0.0722 * lb);
      const fz = labF((0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883);
      l = 116 * fy - 16;
      a = 500 * (fx - fy);
      b = 200 * (fy - fz);
    }
    L[i] = l;
    A[i] = a;
    B[i] = b;
  }
  return {
    lightness: { data: L, width, height },
    a: half({ data: A, width, height }),
    b: half({ data: B, width, height }),
  };
}

/** 2×2 box average (the last odd row or column dropped); planes of one pixel stay as they are. */
function half(plane: LumaPlane): LumaPlane {
  const width = Math.floor(plane.width / 2);
  const height = Math.floor(plane.height / 2);
  if (width === 0 || height === 0) return plane;
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const top = 2 * y * plane.width;
    const bottom = top + plane.width;
    for (let x = 0; x < width; x++) {
      data[y * width + x] =
        (plane.data[top + 2 * x]! +
          plane.data[top + 2 * x + 1]! +
          plane.data[bottom + 2 * x]! +
          plane.data[bottom + 2 * x + 1]!) /
        4;
    }
  }
  return { data, width, height };
}

/** The plane and its successive halvings, one per scale weight. */
function pyramid(plane: LumaPlane): LumaPlane[] {
  const levels = [plane];
  while (levels.length < PERCEPTUAL.scaleWeights.length) levels.push(half(levels[levels.length - 1]!));
  return levels;
}

/** The source side, converted and filtered once: a search measures several candidates against it. */
export interface PerceptualReference {
  width: number;
  height: number;
  perBackground: LabReference[];
  backgrounds: readonly number[];
  /** Per background, the full-resolution lightness kept on the SSIM thread (see `onThread`). */
  finestOnThread?: SsimOnThread[];
}

/**
 * Below this many pixels the full-resolution lightness is measured here: a message to the thread and back costs
 * more than the SSIM of a small plane.
 */
const THREAD_FROM_PIXELS = 128 * 128;

/**
 * `onThread`: the full-resolution lightness (about half of a distance's work) is measured on a second thread while
 * this one measures the other fourteen planes, so that a search scores a candidate in about half the time when a
 * core is free. The distances are the same, bit for bit. `releaseReference` frees the thread's copy.
 */
export function perceptualReference(source: RgbaPixels, options: { onThread?: boolean } = {}): PerceptualReference {
  const backgrounds = source.channels === 4 ? PERCEPTUAL.backgrounds : PERCEPTUAL.backgrounds.slice(0, 1);
  const perBackground = backgrounds.map((background) => {
    const lab = labOf(source, background);
    const references = (plane: LumaPlane) => pyramid(plane).map((level) => ssimReference(level, 100));
    return { lightness: references(lab.lightness), a: references(lab.a), b: references(lab.b) };
  });
  const onThread = options.onThread && source.width * source.height >= THREAD_FROM_PIXELS;
  return {
    width: source.width,
    height: source.height,
    perBackground,
    backgrounds,
    ...(onThread ? { finestOnThread: perBackground.map((r) => adoptOnThread(r.lightness[0]!)) } : {}),
  };
}

export function releaseReference(reference: PerceptualReference): void {
  for (const remote of reference.finestOnThread ?? []) remote.release();
}

/** Distance of `candidate` (same size as the reference) from the reference: 0 is identical. Measured here. */
export function perceptualDistance(reference: PerceptualReference, candidate: RgbaPixels): number {
  assertSameSize(reference, candidate);
  let distance = 0;
  for (let i = 0; i < reference.backgrounds.length; i++)
    distance = Math.max(distance, distanceHere(reference, candidate, i));
  return distance;
}

export interface BoundedDistance {
  /** The distance when `complete`; else the distance over the backgrounds measured, a lower bound. */
  distance: number;
  complete: boolean;
  /** The background (index into `reference.backgrounds`) that was worst: worth measuring first next time. */
  worst: number;
}

/**
 * The distance, but over the backgrounds one at a time, stopping as soon as one is past `limit`: a search needs the
 * exact distance only of candidates within its limit, and the worse background alone (half of the work on an image
 * with alpha) tells that one is not. `first` is the background measured first. Uses the reference's thread.
 */
export async function boundedPerceptualDistance(
  reference: PerceptualReference,
  candidate: RgbaPixels,
  limit: number,
  first = 0,
): Promise<BoundedDistance> {
  assertSameSize(reference, candidate);
  const count = reference.backgrounds.length;
  let distance = 0;
  let worst = 0;
  for (let n = 0; n < count; n++) {
    const i = (first + n) % count;
    const over = await distanceOver(reference, candidate, i);
    if (n === 0 || over > distance) worst = i;
    distance = Math.max(distance, over);
    if (distance > limit && n < count - 1) return { distance, complete: false, worst };
  }
  return { distance, complete: true, worst };
}

function assertSameSize(reference: PerceptualReference, candidate: RgbaPixels): void {
  if (candidate.width !== reference.width || candidate.height !== reference.height) {
    throw new Error('perceptual distance needs images of the same size');
  }
}

interface LabPyramids {
  lightness: LumaPlane[];
  a: LumaPlane[];
  b: LumaPlane[];
}

function planesOver(reference: PerceptualReference, candidate: RgbaPixels, i: number): LabPyramids {
  const lab = labOf(candidate, reference.backgrounds[i]!);
  return { lightness: pyramid(lab.lightness), a: pyramid(lab.a), b: pyramid(lab.b) };
}

/** 1/SSIM − 1 of the candidate composited over one of the reference's backgrounds. */
async function distanceOver(reference: PerceptualReference, candidate: RgbaPixels, i: number): Promise<number> {
  const remote = reference.finestOnThread?.[i];
  if (!remote) return distanceHere(reference, candidate, i);
  const ref = reference.perBackground[i]!;
  const planes = planesOver(reference, candidate, i);
  const finest = remote.measure(planes.lightness[0]!);
  const rest = restOf(ref, planes);
  return combine(await finest, rest);
}

/** The same, every plane measured on this thread. */
function distanceHere(reference: PerceptualReference, candidate: RgbaPixels, i: number): number {
  const ref = reference.perBackground[i]!;
  const planes = planesOver(reference, candidate, i);
  return combine(meanSsimAgainst(ref.lightness[0]!, planes.lightness[0]!), restOf(ref, planes));
}

/** The SSIMs of every plane and scale but the full-resolution lightness, finest scale first. */
function restOf(ref: LabReference, planes: LabPyramids) {
  return PERCEPTUAL.scaleWeights.map((_, scale) => ({
    lightness: scale === 0 ? NaN : meanSsimAgainst(ref.lightness[scale]!, planes.lightness[scale]!),
    a: meanSsimAgainst(ref.a[scale]!, planes.a[scale]!),
    b: meanSsimAgainst(ref.b[scale]!, planes.b[scale]!),
  }));
}

/** The weighted sum over scales, always in the same order, so a distance does not depend on where it was measured. */
function combine(finestLightness: number, rest: ReturnType<typeof restOf>): number {
  let ssim = 0;
  for (const [scale, weight] of PERCEPTUAL.scaleWeights.entries()) {
    const { a, b } = rest[scale]!;
    const lightness = scale === 0 ? finestLightness : rest[scale]!.lightness;
    ssim +=
      weight * (PERCEPTUAL.lightnessWeight * lightness + PERCEPTUAL.chromaWeight * a + PERCEPTUAL.chromaWeight * b);
  }
  return 1 / Math.max(ssim, 1e-6) - 1;
}
