import sharp, { type Sharp } from 'sharp';
import { lumaOf, meanSsimAgainst, ssimReference, type LumaPlane } from './ssim.js';

/**
 * Per-image JPEG quality: the lowest mozjpeg quality whose SSIM against the source stays at the target.
 * A fixed quality is wasteful on smooth photos (skies, studio shots) and too coarse on fine texture (foliage,
 * paintings, text); the search spends the bytes where SSIM says they are seen.
 */
export const JPEG_QUALITY_SEARCH = {
  /** Full-resolution luma SSIM the result must keep: a margin above 0.98 for the sampling error and for chroma. */
  targetSsim: 0.985,
  /** Below 70 smooth images still pass on luma while their colour visibly degrades (DSSIM doubles). */
  minQuality: 70,
  /** Fine texture (a painting, foliage) can need this much; above it the source's own noise is being coded. */
  maxQuality: 95,
  /** Tiles of 128 px (a multiple of the 16-px MCU), at most 5 × 5 of them: 0.4 MP whatever the image size. */
  tile: 128,
  grid: 5,
} as const;

interface Rect {
  x: number;
  y: number;
}

/**
 * Tile origins spread evenly over the image, aligned to the 16-px MCU grid so each tile is coded exactly as
 * in the full image. SSIM is a mean over windows: an even sample of windows estimates it at full resolution.
 */
function tileOrigins(width: number, height: number, tile: number, grid: number): Rect[] {
  const cols = Math.min(grid, Math.floor(width / tile));
  const rows = Math.min(grid, Math.floor(height / tile));
  const at = (i: number, n: number, size: number) => (n === 1 ? 0 : Math.floor(((i * (size - tile)) / (n - 1)) / 16) * 16);
  const origins: Rect[] = [];
  for (let r = 0; r < rows; r++) for (let c = 0; c < cols; c++) origins.push({ x: at(c, cols, width), y: at(r, rows, height) });
  return origins;
}

/** The sampled tiles side by side (or the whole image when it is small): packed RGB, 3 channels. */
function mosaic(pixels: Buffer, width: number, height: number) {
  const { tile, grid } = JPEG_QUALITY_SEARCH;
  const origins = tileOrigins(width, height, tile, grid);
  if (origins.length === 0 || width * height <= origins.length * tile * tile) {
    return { data: pixels, width, height, tiles: [{ x: 0, y: 0, w: width, h: height }] };
  }
  const cols = Math.min(grid, Math.floor(width / tile));
  const rows = origins.length / cols;
  const out = Buffer.alloc(cols * tile * rows * tile * 3);
  const tiles = origins.map((origin, i) => {
    const mx = (i % cols) * tile;
    const my = Math.floor(i / cols) * tile;
    for (let y = 0; y < tile; y++) {
      const from = ((origin.y + y) * width + origin.x) * 3;
      pixels.copy(out, ((my + y) * cols * tile + mx) * 3, from, from + tile * 3);
    }
    return { x: mx, y: my, w: tile, h: tile };
  });
  return { data: out, width: cols * tile, height: rows * tile, tiles };
}

function crop(plane: LumaPlane, rect: { x: number; y: number; w: number; h: number }): LumaPlane {
  if (rect.w === plane.width && rect.h === plane.height) return plane;
  const data = new Float32Array(rect.w * rect.h);
  for (let y = 0; y < rect.h; y++) data.set(plane.data.subarray((rect.y + y) * plane.width + rect.x, (rect.y + y) * plane.width + rect.x + rect.w), y * rect.w);
  return { data, width: rect.w, height: rect.h };
}

/**
 * Binary search over quality for the prepared pipeline, on a sample of tiles (a few ms per step whatever the
 * image size); `encodeAt` applies the same encoder options as the final encode.
 */
export async function searchJpegQuality(pipeline: Sharp, encodeAt: (p: Sharp, quality: number) => Sharp): Promise<number> {
  const { data, info } = await pipeline.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const sample = mosaic(data, info.width, info.height);
  const raw = { width: sample.width, height: sample.height, channels: 3 as const };
  const reference = lumaOf(sample.data, sample.width, sample.height, 3);
  const referenceTiles = sample.tiles.map((t) => ssimReference(crop(reference, t)));
  const ssimAt = async (quality: number) => {
    const jpeg = await encodeAt(sharp(sample.data, { raw }), quality).toBuffer();
    const decoded = await sharp(jpeg).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    const luma = lumaOf(decoded.data, decoded.info.width, decoded.info.height, decoded.info.channels);
    const scores = sample.tiles.map((t, i) => meanSsimAgainst(referenceTiles[i]!, crop(luma, t)));
    return scores.reduce((a, b) => a + b, 0) / scores.length;
  };
  let low: number = JPEG_QUALITY_SEARCH.minQuality;
  let high: number = JPEG_QUALITY_SEARCH.maxQuality;
  while (low < high) {
    const mid = Math.floor((low + high) / 2);
    if ((await ssimAt(mid)) >= JPEG_QUALITY_SEARCH.targetSsim) high = mid;
    else low = mid + 1;
  }
  return low;
}
