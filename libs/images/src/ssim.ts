/** A plane of 8-bit-range luma values, row-major. */
export interface LumaPlane {
  data: Float32Array;
  width: number;
  height: number;
}

/** ITU-R BT.601 luma of packed 8-bit pixels (`channels` 3 or 4; alpha ignored), as SSIM's reference code takes it. */
export function lumaOf(pixels: Uint8Array, width: number, height: number, channels: number): LumaPlane {
  const data = new Float32Array(width * height);
  for (let i = 0, p = 0; i < data.length; i++, p += channels) {
    data[i] = 0.299 * pixels[p]! + 0.587 * pixels[p + 1]! + 0.114 * pixels[p + 2]!;
  }
  return { data, width, height };
}

const WINDOW = 11;
const RADIUS = (WINDOW - 1) / 2;
const GAUSSIAN = (() => {
  const sigma = 1.5;
  const weights = Array.from({ length: WINDOW }, (_, i) => Math.exp(-((i - RADIUS) ** 2) / (2 * sigma * sigma)));
  const sum = weights.reduce((a, b) => a + b, 0);
  return Float32Array.from(weights.map((w) => w / sum));
})();

/** Separable Gaussian filter, "valid" region only: the output is (width−10) × (height−10). */
function filter(source: Float32Array, width: number, height: number): Float32Array {
  const outW = width - 2 * RADIUS;
  const outH = height - 2 * RADIUS;
  const rows = new Float32Array(outW * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < outW; x++) {
      let acc = 0;
      for (let k = 0; k < WINDOW; k++) acc += GAUSSIAN[k]! * source[row + x + k]!;
      rows[y * outW + x] = acc;
    }
  }
  const out = new Float32Array(outW * outH);
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      let acc = 0;
      for (let k = 0; k < WINDOW; k++) acc += GAUSSIAN[k]! * rows[(y + k) * outW + x]!;
      out[y * outW + x] = acc;
    }
  }
  return out;
}

/** The reference side of SSIM, filtered once: a search compares many candidates against one source. */
export interface SsimReference {
  plane: LumaPlane;
  mu: Float32Array;
  meanOfSquares: Float32Array;
  /** Stabilising constants (K1 L)² and (K2 L)² for the plane's dynamic range L. */
  c1: number;
  c2: number;
}

function squares(plane: LumaPlane): Float32Array {
  return plane.data.map((v) => v * v);
}

/** `range` is the plane's dynamic range: 255 for 8-bit values, 100 for CIE L*. */
export function ssimReference(plane: LumaPlane, range = 255): SsimReference {
  const { width, height } = plane;
  const constants = { c1: (0.01 * range) ** 2, c2: (0.03 * range) ** 2 };
  if (width < WINDOW || height < WINDOW)
    return { plane, mu: new Float32Array(0), meanOfSquares: new Float32Array(0), ...constants };
  return {
    plane,
    mu: filter(plane.data, width, height),
    meanOfSquares: filter(squares(plane), width, height),
    ...constants,
  };
}

/** One window over the whole of a plane smaller than the Gaussian window (a 16-px icon's chroma at half size). */
function globalSsim(a: Float32Array, b: Float32Array, c1: number, c2: number): number {
  const n = a.length;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i]!;
    mb += b[i]!;
  }
  ma /= n;
  mb /= n;
  let va = 0;
  let vb = 0;
  let cov = 0;
  for (let i = 0; i < n; i++) {
    va += (a[i]! - ma) ** 2;
    vb += (b[i]! - mb) ** 2;
    cov += (a[i]! - ma) * (b[i]! - mb);
  }
  return ((2 * ma * mb + c1) * ((2 * cov) / n + c2)) / ((ma * ma + mb * mb + c1) * ((va + vb) / n + c2));
}

const [G0, G1, G2, G3, G4, G5] = [GAUSSIAN[0]!, GAUSSIAN[1]!, GAUSSIAN[2]!, GAUSSIAN[3]!, GAUSSIAN[4]!, GAUSSIAN[5]!];

/** The Gaussian window over v[p … p+10]: symmetric, so taps k and 10−k share one multiplication. */
function windowSum(v: Float32Array, p: number): number {
  return (
    G0 * (v[p]! + v[p + 10]!) +
    G1 * (v[p + 1]! + v[p + 9]!) +
    G2 * (v[p + 2]! + v[p + 8]!) +
    G3 * (v[p + 3]! + v[p + 7]!) +
    G4 * (v[p + 4]! + v[p + 6]!) +
    G5 * v[p + 5]!
  );
}

/** Reused between calls (a search scores candidates one after another): the horizontal pass's three planes. */
let scratch = new Float32Array(0);
function scratchOf(length: number): Float32Array {
  if (scratch.length < length) scratch = new Float32Array(length);
  return scratch;
}

/**
 * Mean SSIM (Wang, Bovik, Sheikh & Simoncelli 2004: 11×11 Gaussian window, σ 1.5, K1 0.01, K2 0.03) of a
 * plane against a reference of the same size, at full resolution. A plane smaller than the window is one window.
 * The candidate's three filters (b, b², a·b) share one horizontal pass; the vertical pass sums whole rows at a time
 * (memory in order) into row accumulators that feed SSIM directly. The window is symmetric: taps k and 10−k share
 * one multiplication.
 */
export function meanSsimAgainst(reference: SsimReference, b: LumaPlane): number {
  const a = reference.plane;
  if (a.width !== b.width || a.height !== b.height) throw new Error('SSIM needs planes of the same size');
  const { width, height } = a;
  const { c1: C1, c2: C2 } = reference;
  if (width < WINDOW || height < WINDOW) return globalSsim(a.data, b.data, C1, C2);
  const muA = reference.mu;
  const sAA = reference.meanOfSquares;
  const outW = width - 2 * RADIUS;
  const outH = height - 2 * RADIUS;
  const plane = outW * height;
  const buffer = scratchOf(3 * plane + 3 * width + 3 * outW);
  const hB = buffer.subarray(0, plane);
  const hBB = buffer.subarray(plane, 2 * plane);
  const hAB = buffer.subarray(2 * plane, 3 * plane);
  const bb = buffer.subarray(3 * plane, 3 * plane + width);
  const ab = buffer.subarray(3 * plane + width, 3 * plane + 2 * width);
  const rowB = buffer.subarray(3 * plane + 2 * width, 3 * plane + 2 * width + outW);
  const rowBB = buffer.subarray(3 * plane + 2 * width + outW, 3 * plane + 2 * width + 2 * outW);
  const rowAB = buffer.subarray(3 * plane + 2 * width + 2 * outW, 3 * plane + 2 * width + 3 * outW);
  const A = a.data;
  const B = b.data;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const vb = B[row + x]!;
      bb[x] = vb * vb;
      ab[x] = vb * A[row + x]!;
    }
    const o = y * outW;
    for (let x = 0; x < outW; x++) {
      hB[o + x] = windowSum(B, row + x);
      hBB[o + x] = windowSum(bb, x);
      hAB[o + x] = windowSum(ab, x);
    }
  }
  let total = 0;
  for (let y = 0; y < outH; y++) {
    const centre = (y + RADIUS) * outW;
    const g = GAUSSIAN[RADIUS]!;
    for (let x = 0; x < outW; x++) {
      rowB[x] = g * hB[centre + x]!;
      rowBB[x] = g * hBB[centre + x]!;
      rowAB[x] = g * hAB[centre + x]!;
    }
    for (let k = 0; k < RADIUS; k++) {
      const gk = GAUSSIAN[k]!;
      const up = (y + k) * outW;
      const down = (y + WINDOW - 1 - k) * outW;
      for (let x = 0; x < outW; x++) {
        rowB[x] = rowB[x]! + gk * (hB[up + x]! + hB[down + x]!);
        rowBB[x] = rowBB[x]! + gk * (hBB[up + x]! + hBB[down + x]!);
        rowAB[x] = rowAB[x]! + gk * (hAB[up + x]! + hAB[down + x]!);
      }
    }
    const o = y * outW;
    for (let x = 0; x < outW; x++) {
      const ma = muA[o + x]!;
      const mb = rowB[x]!;
      const varA = sAA[o + x]! - ma * ma;
      const varB = rowBB[x]! - mb * mb;
      const cov = rowAB[x]! - ma * mb;
      total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (varA + varB + C2));
    }
  }
  return total / (outW * outH);
}

export function meanSsim(a: LumaPlane, b: LumaPlane): number {
  return meanSsimAgainst(ssimReference(a), b);
}

/**
 * This module's SSIM as the source of a worker thread (ssim-thread.ts). It is plain arithmetic without imports, so
 * the functions' own text is the thread's code: the same in the built module and in the TypeScript sources that
 * the tests run, which a worker thread could not load.
 */
export const SSIM_KERNEL_SOURCE = [
  `const WINDOW = ${WINDOW};`,
  `const RADIUS = ${RADIUS};`,
  `const GAUSSIAN = Float32Array.from(${JSON.stringify(Array.from(GAUSSIAN))});`,
  'const [G0, G1, G2, G3, G4, G5] = GAUSSIAN;',
  'let scratch = new Float32Array(0);',
  ...[scratchOf, globalSsim, windowSum, meanSsimAgainst].map(String),
].join('\n');
