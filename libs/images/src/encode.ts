import type { Sharp } from 'sharp';
import type { ImageType } from './media-types.js';

export interface EncodedImage {
  data: Buffer;
  type: ImageType;
  width: number;
  height: number;
}

/**
 * Lossy settings chosen for a high visual quality: libimagequant palettes for PNG (alpha kept, dithered),
 * mozjpeg (trellis quantisation, progressive scans), WebP and AVIF with a bounded encoder effort so one
 * large image cannot hold a worker for long.
 */
const candidates: Record<ImageType, Array<(pipeline: Sharp) => Sharp>> = {
  'image/png': [
    (p) => p.png({ palette: true, quality: 85, effort: 8, dither: 1, compressionLevel: 9 }),
    // Photographic PNGs can grow under a 256-colour palette; lossless is the fallback.
    (p) => p.png({ palette: false, compressionLevel: 9, adaptiveFiltering: true }),
  ],
  'image/jpeg': [(p) => p.jpeg({ mozjpeg: true, quality: 78, chromaSubsampling: '4:2:0' })],
  'image/webp': [(p) => p.webp({ quality: 78, alphaQuality: 90, effort: 4, smartSubsample: true })],
  'image/avif': [(p) => p.avif({ quality: 55, effort: 4, chromaSubsampling: '4:2:0' })],
};

/** Encodes one prepared pipeline as `type`; the smallest of the type's candidate settings wins. */
export async function encodeAs(pipeline: Sharp, type: ImageType): Promise<EncodedImage> {
  let best: EncodedImage | undefined;
  for (const encode of candidates[type]) {
    const { data, info } = await encode(pipeline.clone()).toBuffer({ resolveWithObject: true });
    if (!best || data.length < best.data.length) best = { data, type, width: info.width, height: info.height };
  }
  return best!;
}
