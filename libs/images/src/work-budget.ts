import { IMAGE_ERRORS } from './errors.js';
import type { DecodeLimits } from './decode.js';
import type { ImageType } from './media-types.js';
import type { ResizeOptions } from './options.js';
import { boxWithoutEnlargement, type Size } from './resize.js';

export interface ImageLimits extends DecodeLimits {
  /** Estimated seconds of work one request may take (see {@link estimateWorkSeconds}); 0 or absent: no bound. */
  workBudgetSeconds?: number;
  /** Milliseconds an AVIF encode may take before WebP is made instead; 0 or absent: no bound. */
  avifBudgetMs?: number;
}

/**
 * Seconds per megapixel of output to encode detailed content in each type, quality search included, measured on
 * the 2-core CI machines under load (numbers in apps/images-gateway/README.md): a noisy photo converted to PNG
 * is the worst case. PNG's was 25 while a palette search cost seconds per step; since the search became cheap
 * (docs/performance.md, PNG encode) a 4 MP noise photo converts in 1.5 s per megapixel on a quiet machine and
 * detailed 2–6 MP photos in 0.4–2, so 6 keeps the margin of the other types without refusing a 3 MP photo.
 */
export const ENCODE_SECONDS_PER_MP: Record<ImageType, number> = {
  'image/jpeg': 1,
  'image/webp': 2,
  'image/avif': 4,
  'image/png': 6,
};
/** Decoding, orienting and the transparency check, per megapixel of input. */
const DECODE_SECONDS_PER_MP = 0.2;
/** cover and thumb look at the whole input for the crop (attention, trim). */
const CROP_SECONDS_PER_MP = 0.3;
/**
 * Bytes per pixel of fully detailed content in each input type. Flat images (screenshots, icons, a 120 KB file
 * declaring 100 MP) compress to a small fraction of it and encode some ten times faster per pixel.
 */
const DETAILED_BYTES_PER_PIXEL: Record<ImageType, number> = {
  'image/jpeg': 0.5,
  'image/webp': 0.4,
  'image/avif': 0.3,
  'image/png': 2.5,
};
/**
 * The least detail an input is priced at, whatever it claims. A PNG's bytes say least about its work: a 120 KB file
 * may declare 49 MP of flat content, which libvips and the palette search still walk pixel by pixel.
 */
const MIN_DETAIL: Record<ImageType, number> = {
  'image/jpeg': 0.05,
  'image/webp': 0.05,
  'image/avif': 0.05,
  'image/png': 0.2,
};

export interface WorkRequest {
  type: ImageType;
  width: number;
  height: number;
  /** The upload's size in bytes: how detailed the content is. */
  bytes: number;
  targets: ImageType[];
  resize?: ResizeOptions | undefined;
}

/** The output size of a resize, as applyResize makes it (never larger than the input). */
function outputSize(input: Size, resize: ResizeOptions | undefined): Size {
  if (!resize) return input;
  if (resize.method === 'scale') {
    const factor = Math.min(1, resize.width !== undefined ? resize.width / input.width : resize.height / input.height);
    return { width: input.width * factor, height: input.height * factor };
  }
  if (resize.method === 'fit') {
    const factor = Math.min(1, resize.width / input.width, resize.height / input.height);
    return { width: input.width * factor, height: input.height * factor };
  }
  return boxWithoutEnlargement(resize, input);
}

/** An upper estimate, in seconds, of the work one request makes: decode, crop and one encode per target type. */
export function estimateWorkSeconds(request: WorkRequest): number {
  const inputMp = (request.width * request.height) / 1e6;
  const output = outputSize(request, request.resize);
  const outputMp = (output.width * output.height) / 1e6;
  const detail = Math.min(
    1,
    Math.max(
      MIN_DETAIL[request.type],
      request.bytes / (request.width * request.height) / DETAILED_BYTES_PER_PIXEL[request.type],
    ),
  );
  const crop = request.resize?.method === 'cover' || request.resize?.method === 'thumb' ? CROP_SECONDS_PER_MP : 0;
  const encode = request.targets.reduce((sum, type) => sum + ENCODE_SECONDS_PER_MP[type], 0) * detail;
  return inputMp * (DECODE_SECONDS_PER_MP + crop) + outputMp * encode;
}

/** Refuses (413) before any pixel is decoded when the estimate is over the budget. */
export function assertWithinBudget(request: WorkRequest, limits: ImageLimits): void {
  const budget = limits.workBudgetSeconds ?? 0;
  if (budget > 0 && estimateWorkSeconds(request) > budget) throw IMAGE_ERRORS.tooMuchWork();
}
