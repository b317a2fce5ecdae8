import type { Sharp } from 'sharp';
import { searchJpegQuality } from './jpeg-quality.js';
import type { ImageType } from './media-types.js';

export interface EncodedImage {
  data: Buffer;
  type: ImageType;
  width: number;
  height: number;
}

const jpegAt = (p: Sharp, quality: number) => p.jpeg({ mozjpeg: true, quality, chromaSubsampling: '4:2:0' });

/**
 * Lossy settings chosen for a high visual quality, measured by `npm run bench` (image-quality; the numbers and
 * the reasons are in docs/performance.md):
 * - PNG: a libimagequant palette at full quality (256 colours when the image needs them, alpha kept,
 *   dithered), effort 7: a lower quality target lets it drop colours and wrecks gradients and soft alpha;
 *   effort 9–10 saved 0.2–1.6 % for 40–65 % more time.
 * - JPEG: mozjpeg (trellis quantisation, progressive scans) at the lowest quality in 70–95 that keeps the
 *   luma SSIM at 0.985 (searched per image on a sample of tiles, see jpeg-quality.ts).
 * - WebP: quality 80, effort 4 (sharp's defaults), alpha at 90; smart chroma subsampling doubled the time
 *   with no gain in SSIM or DSSIM on the corpus.
 * - AVIF: quality 55 at effort 2, so one large image cannot hold a worker for long: a 6 MP image takes
 *   2–3 s where the default effort (4) takes 19–26 s.
 */
const candidates: Record<ImageType, Array<(pipeline: Sharp) => Sharp | Promise<Sharp>>> = {
  'image/png': [
    (p) => p.png({ palette: true, quality: 100, effort: 7, dither: 1, compressionLevel: 9 }),
    // Rarely smaller than the palette; adaptive filtering made it larger on screenshots and slower on photos.
    (p) => p.png({ palette: false, compressionLevel: 9 }),
  ],
  'image/jpeg': [async (p) => jpegAt(p, await searchJpegQuality(p.clone(), jpegAt))],
  'image/webp': [(p) => p.webp({ quality: 80, alphaQuality: 90, effort: 4 })],
  'image/avif': [(p) => p.avif({ quality: 55, effort: 2, chromaSubsampling: '4:2:0' })],
};

/** Encodes one prepared pipeline as `type`; the smallest of the type's candidate settings wins. */
export async function encodeAs(pipeline: Sharp, type: ImageType): Promise<EncodedImage> {
  let best: EncodedImage | undefined;
  for (const encode of candidates[type]) {
    const { data, info } = await (await encode(pipeline.clone())).toBuffer({ resolveWithObject: true });
    if (!best || data.length < best.data.length) best = { data, type, width: info.width, height: info.height };
  }
  return best!;
}
