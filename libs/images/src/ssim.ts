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
const C1 = (0.01 * 255) ** 2;
const C2 = (0.03 * 255) ** 2;
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
}

function squares(plane: LumaPlane): Float32Array {
  return plane.data.map((v) => v * v);
}

export function ssimReference(plane: LumaPlane): SsimReference {
  const { width, height } = plane;
  if (width < WINDOW || height < WINDOW) return { plane, mu: new Float32Array(0), meanOfSquares: new Float32Array(0) };
  return { plane, mu: filter(plane.data, width, height), meanOfSquares: filter(squares(plane), width, height) };
}

/**
 * Mean SSIM (Wang, Bovik, Sheikh & Simoncelli 2004: 11×11 Gaussian window, σ 1.5, K1 0.01, K2 0.03) of a
 * plane against a reference of the same size, at full resolution. Planes smaller than the window compare exactly.
 */
export function meanSsimAgainst(reference: SsimReference, b: LumaPlane): number {
  const a = reference.plane;
  if (a.width !== b.width || a.height !== b.height) throw new Error('SSIM needs planes of the same size');
  const { width, height } = a;
  if (width < WINDOW || height < WINDOW) return a.data.every((v, i) => v === b.data[i]) ? 1 : 0;
  const products = b.data.map((y, i) => y * a.data[i]!);
  const muA = reference.mu;
  const sAA = reference.meanOfSquares;
  const muB = filter(b.data, width, height);
  const sBB = filter(squares(b), width, height);
  const sAB = filter(products, width, height);
  let total = 0;
  for (let i = 0; i < muA.length; i++) {
    const ma = muA[i]!;
    const mb = muB[i]!;
    const varA = sAA[i]! - ma * ma;
    const varB = sBB[i]! - mb * mb;
    const cov = sAB[i]! - ma * mb;
    total += ((2 * ma * mb + C1) * (2 * cov + C2)) / ((ma * ma + mb * mb + C1) * (varA + varB + C2));
  }
  return total / muA.length;
}

export function meanSsim(a: LumaPlane, b: LumaPlane): number {
  return meanSsimAgainst(ssimReference(a), b);
}
