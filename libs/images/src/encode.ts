import sharp, { type Sharp } from 'sharp';
import { supportsAlpha, type ImageType } from './media-types.js';
import type { RgbaPixels } from './perceptual.js';
import { recompressPng } from './png-deflate.js';
import {
  createScorer,
  pixelsOf,
  searchFromEnds,
  searchQuality,
  type EncodeAt,
  type Measured,
  type QualityRange,
} from './quality-search.js';

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
 * - PNG: a libimagequant palette (alpha kept), plain when that reaches the distance, else dithered, then deflated
 *   by Zopfli when small; truecolour when smaller, or when even the dithered palette's error is visible (banding). Flat images, icons and text need few colours; gradients and soft alpha edges
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

/**
 * `compressionLevel` 0 for a search's candidates that are only scored (the sample is not the whole image): deflate
 * at level 9 was a third of a sample encode's time on renders, and their bytes are never kept.
 */
const paletteAt =
  (dither: number, compressionLevel = 9): EncodeAt =>
  (p, quality) =>
    p.png({ palette: true, quality, effort: 7, dither, compressionLevel });

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

/**
 * Past this distance (with dithering) a palette's error is seen, not masked by texture: banding on a smooth
 * gradient, which dithering only turns into grain. Smooth gradients measured 0.0099–0.0105; the renders and photos
 * of the corpus whose full palette is out of reach but whose texture hides it 0.0038–0.0062, and keep their palette.
 * Such an image is kept in truecolour.
 */
export const PNG_VISIBLE_DISTANCE = 0.008;

/**
 * One decode; the palette searched on the sample from the ends of the range (searchFromEnds), first without
 * dithering (smaller on flat images, which are most of those within), then dithered only when that is out of
 * reach; the winner encoded at full size only when the sample is not the whole image. A truecolour encode beside
 * it, kept when smaller or when the palette's error is visible.
 */
async function encodePng(pipeline: Sharp): Promise<EncodedImage> {
  const source = await pixelsOf(pipeline.clone(), true);
  const range = QUALITY_TARGETS['image/png'];
  const scorer = createScorer(source, range);
  try {
    return await encodePngWith(pipeline, source, scorer);
  } finally {
    scorer.close();
  }
}

async function encodePngWith(
  pipeline: Sharp,
  source: RgbaPixels,
  scorer: ReturnType<typeof createScorer>,
): Promise<EncodedImage> {
  const range = QUALITY_TARGETS['image/png'];
  const level = scorer.whole ? 9 : 0;
  const fullSize = (dither: number, quality: number) =>
    paletteAt(dither)(sharp(source.data, { raw: rawOf(source) }), quality).toBuffer();
  // Rarely smaller than a palette; adaptive filtering made it larger on screenshots and slower on photos.
  const truecolorAt = (p: Sharp) => p.png({ palette: false, compressionLevel: 9 });
  const truecolorOf = () => toEncoded(truecolorAt(pipeline.clone()), 'image/png');
  // Independent of the search: encoded beside it, on a core the search leaves idle most of the time.
  const sampleTruecolor = scorer.whole
    ? undefined
    : startedEarly(truecolorAt(sharp(scorer.sample.data, { raw: rawOf(scorer.sample) })).toBuffer());
  const plain = await searchFromEnds(scorer, range, paletteAt(0, level), 'bottom', (png) => paletteSize(png) >= 256);
  let ditheredTop: Promise<Buffer> | undefined;
  let chosen: Measured & { dither: number };
  if (plain.within) chosen = { dither: 0, ...plain };
  else {
    // Dithering hides banding on ramps; tried only where the plain palette is out of reach, and kept then. Where
    // it is, the dithered palette was out of reach too on every such image of the corpus, so the answer is the
    // top: its full-size encode, the longest step, starts now, beside the search, instead of after it. Unless the
    // plain palette's error is so far past visible that the dithered one's (0.76–0.99 of it on the corpus) likely
    // is too, and truecolour wins.
    if (!scorer.whole && plain.distance <= PNG_VISIBLE_DISTANCE * 1.25)
      ditheredTop = startedEarly(fullSize(1, range.maxQuality));
    chosen = { dither: 1, ...(await searchFromEnds(scorer, range, paletteAt(1, level), 'top')) };
  }
  // A palette out of reach was scored only until one background passed the limit: its full distance decides.
  const visible =
    chosen.distance > PNG_VISIBLE_DISTANCE ||
    (!chosen.exact && (await scorer.exactDistance(chosen)) > PNG_VISIBLE_DISTANCE);
  if (visible) {
    const truecolor = await truecolorOf();
    return { ...truecolor, data: await recompressPng(truecolor.data) };
  }
  const palette = scorer.whole
    ? chosen.encoded
    : ditheredTop && chosen.dither === 1 && chosen.quality === range.maxQuality
      ? await ditheredTop
      : await fullSize(chosen.dither, chosen.quality);
  if (sampleTruecolor && !truecolorMayWin((await sampleTruecolor).length, scorer.sample, source, palette.length))
    return { data: await recompressPng(palette), type: 'image/png', width: source.width, height: source.height };
  const truecolor = await truecolorOf();
  const best =
    truecolor.data.length <= palette.length
      ? truecolor
      : { data: palette, type: 'image/png' as const, width: source.width, height: source.height };
  return { ...best, data: await recompressPng(best.data) };
}

const rawOf = (pixels: RgbaPixels) => ({
  width: pixels.width,
  height: pixels.height,
  channels: pixels.channels as 3 | 4,
});

/**
 * Work started before it is known to be needed: its failure is seen only by whoever awaits it, and is no unhandled
 * rejection when nobody does.
 */
function startedEarly<T>(work: Promise<T>): Promise<T> {
  work.catch(() => undefined);
  return work;
}

/** The number of entries in a PNG's palette (PLTE chunk), 0 when it has none. */
export function paletteSize(png: Buffer): number {
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'PLTE') return length / 3;
    if (type === 'IDAT') return 0;
    at += 12 + length;
  }
  return 0;
}

/**
 * Whether a full-size truecolour encode could be smaller than the palette: its size estimated from the sample's
 * (per pixel), with a wide margin. On a large photo or render it is 3–8 times the palette's, and skipping it saves
 * a full-size deflate at level 9.
 */
function truecolorMayWin(sampleBytes: number, sample: RgbaPixels, source: RgbaPixels, paletteBytes: number): boolean {
  const estimate = (sampleBytes * source.width * source.height) / (sample.width * sample.height);
  return estimate < paletteBytes * 1.5;
}

/** Encodes one prepared pipeline as `type` at the quality its search finds for this image. */
export async function encodeAs(pipeline: Sharp, type: ImageType): Promise<EncodedImage> {
  if (type === 'image/png') return encodePng(pipeline);
  const source = await pixelsOf(pipeline.clone(), supportsAlpha(type));
  const encodeAt = ENCODERS[type](source.width * source.height);
  const { quality } = await searchQuality(source, QUALITY_TARGETS[type], encodeAt);
  return toEncoded(encodeAt(pipeline.clone(), quality), type);
}
