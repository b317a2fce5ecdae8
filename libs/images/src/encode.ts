import type { Sharp } from 'sharp';
import { supportsAlpha, type ImageType } from './media-types.js';
import { recompressPng } from './png-deflate.js';
import { pixelsOf, searchQualities, searchQuality, type EncodeAt, type QualityRange } from './quality-search.js';

export interface EncodedImage {
  data: Buffer;
  type: ImageType;
  width: number;
  height: number;
}

/**
 * Per image and per type, the lowest encoder quality whose output stays within the type's perceptual distance
 * (perceptual.ts: dissimilarity of L*a*b* with alpha over five scales; 0 is identical), searched on a sample of
 * the image (quality-search.ts). Chosen on the corpus of `npm run bench` (image-quality, numbers in
 * docs/performance.md; reasons in ADR 0020):
 * - PNG: a libimagequant palette (alpha kept), dithered or not, whichever is smaller within the distance, then
 *   deflated by Zopfli when small. Flat images, icons and text need few colours; gradients and soft alpha edges
 *   keep 256 (quality 100). Below 85 sharp's libimagequant scores worse than pngquant at the same setting.
 * - JPEG: mozjpeg (progressive, optimised Huffman codes, its quantisation tables, trellis up to 5 MP, 4:2:0), in
 *   steps of 2. Smooth photos go down to 50; fine texture
 *   (foliage, paintings) keeps up to 95, above which the source's own noise is being coded. The luma SSIM floor
 *   catches the texture loss that the multi-scale distance weighs lightly.
 * - WebP: lossy at 50–90, alpha at 90. AVIF: 35–70 at effort 2, so one large image cannot hold a worker for long.
 */
export const QUALITY_TARGETS: Record<ImageType, QualityRange> = {
  'image/png': { maxDistance: 0.002, minQuality: 85, maxQuality: 100 },
  'image/jpeg': { maxDistance: 0.015, minLumaSsim: 0.982, minQuality: 50, maxQuality: 95, step: 2 },
  'image/webp': { maxDistance: 0.015, minLumaSsim: 0.982, minQuality: 50, maxQuality: 90, step: 5 },
  'image/avif': { maxDistance: 0.015, minLumaSsim: 0.982, minQuality: 35, maxQuality: 70, step: 5 },
};

const paletteAt =
  (dither: number): EncodeAt =>
  (p, quality) =>
    p.png({ palette: true, quality, effort: 7, dither, compressionLevel: 9 });

/**
 * mozjpeg's trellis quantisation saves about 6 % for about 0.3 s per megapixel on these machines; above this size
 * it is left out so that a 12 MP photo is done in seconds. Its optimised scan order is always left out: it cost
 * 2 s on a 12 MP photo and saved under 0.1 %.
 */
export const JPEG_TRELLIS_MAX_PIXELS = 5_000_000;

const jpegAt =
  (trellis: boolean): EncodeAt =>
  (p, quality) =>
    p.jpeg({
      quality,
      chromaSubsampling: '4:2:0',
      progressive: true,
      optimiseCoding: true,
      quantisationTable: 3,
      trellisQuantisation: trellis,
      overshootDeringing: trellis,
      optimiseScans: false,
    });

const ENCODERS: Record<Exclude<ImageType, 'image/png'>, (pixels: number) => EncodeAt> = {
  'image/jpeg': (pixels) => jpegAt(pixels <= JPEG_TRELLIS_MAX_PIXELS),
  'image/webp': () => (p, quality) => p.webp({ quality, alphaQuality: 90, effort: 4 }),
  'image/avif': () => (p, quality) => p.avif({ quality, effort: 2, chromaSubsampling: '4:2:0' }),
};

async function toEncoded(pipeline: Sharp, type: ImageType): Promise<EncodedImage> {
  const { data, info } = await pipeline.toBuffer({ resolveWithObject: true });
  return { data, type, width: info.width, height: info.height };
}

async function encodePng(pipeline: Sharp): Promise<EncodedImage> {
  const source = await pixelsOf(pipeline.clone(), true);
  const range = QUALITY_TARGETS['image/png'];
  const candidates: EncodedImage[] = [];
  // Dithering hides banding on ramps but costs bytes on flat areas; each is searched, the smaller within range wins.
  const dithers = [1, 0];
  const searches = (await searchQualities(source, range, dithers.map(paletteAt))).map((result, i) => ({
    dither: dithers[i]!,
    ...result,
  }));
  const within = searches.filter((s) => s.within);
  for (const { dither, quality } of within.length ? within : searches.slice(0, 1)) {
    candidates.push(await toEncoded(paletteAt(dither)(pipeline.clone(), quality), 'image/png'));
  }
  // Rarely smaller than a palette; adaptive filtering made it larger on screenshots and slower on photos.
  candidates.push(await toEncoded(pipeline.clone().png({ palette: false, compressionLevel: 9 }), 'image/png'));
  const best = candidates.reduce((a, b) => (b.data.length < a.data.length ? b : a));
  return { ...best, data: await recompressPng(best.data) };
}

/** Encodes one prepared pipeline as `type` at the quality its search finds for this image. */
export async function encodeAs(pipeline: Sharp, type: ImageType): Promise<EncodedImage> {
  if (type === 'image/png') return encodePng(pipeline);
  const source = await pixelsOf(pipeline.clone(), supportsAlpha(type));
  const encodeAt = ENCODERS[type](source.width * source.height);
  const { quality } = await searchQuality(source, QUALITY_TARGETS[type], encodeAt);
  return toEncoded(encodeAt(pipeline.clone(), quality), type);
}
