import sharp, { type Metadata, type Sharp } from 'sharp';
import { detectImageType } from './detect-type.js';
import { IMAGE_ERRORS } from './errors.js';
import { declaredDimensions } from './header-dimensions.js';
import type { ImageType } from './media-types.js';

export interface DecodeLimits {
  /** Decoded width × height above which an input is refused (decompression bombs). */
  maxPixels: number;
}

export interface InspectedImage {
  type: ImageType;
  width: number;
  height: number;
  hasAlpha: boolean;
  metadata: Metadata;
}

const SHARP_FORMAT: Record<ImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/avif': 'heif',
};

let restricted = false;

/**
 * Only the PNG, JPEG, WebP and HEIF (AVIF) buffer loaders of libvips stay enabled, process-wide: the other
 * loaders (SVG, TIFF, PDF, GIF, RAW …) parse far more complex formats and are never needed for user input.
 */
export function restrictDecoders(): void {
  if (restricted) return;
  sharp.block({ operation: ['VipsForeignLoad'] });
  sharp.unblock({
    operation: [
      'VipsForeignLoadJpegBuffer',
      'VipsForeignLoadPngBuffer',
      'VipsForeignLoadWebpBuffer',
      'VipsForeignLoadHeifBuffer',
    ],
  });
  restricted = true;
}

/**
 * Undoes restrictDecoders when the image worker stops, so that a process hosting other services after it (a test
 * run, or QR codes rasterized from SVG) has every loader again.
 */
export function liftDecoderRestriction(): void {
  if (!restricted) return;
  sharp.unblock({ operation: ['VipsForeignLoad'] });
  restricted = false;
}

/** A sharp pipeline over untrusted bytes: strict decoding, the pixel limit, first frame only. */
export function openImage(input: Buffer, limits: DecodeLimits): Sharp {
  restrictDecoders();
  return sharp(input, { failOn: 'error', limitInputPixels: limits.maxPixels, animated: false, sequentialRead: true });
}

/**
 * Checks an input before any pixel work: its type from the bytes, that the dimensions its header declares stay
 * under the pixel limit (read here first, so that dimensions libvips itself refuses are still a 413, not an
 * undecodable file), that libvips agrees, and the limit again on the dimensions libvips reads.
 */
export async function inspectImage(input: Buffer, limits: DecodeLimits): Promise<InspectedImage> {
  if (input.length === 0) throw IMAGE_ERRORS.inputMissing();
  const type = detectImageType(input);
  if (!type) throw IMAGE_ERRORS.unsupportedType();
  const declared = declaredDimensions(input, type);
  if (declared && declared.width * declared.height > limits.maxPixels)
    throw IMAGE_ERRORS.tooManyPixels(limits.maxPixels);
  restrictDecoders();
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { failOn: 'error', limitInputPixels: false }).metadata();
  } catch {
    throw IMAGE_ERRORS.undecodable();
  }
  if (metadata.format !== SHARP_FORMAT[type] || (type === 'image/avif' && metadata.compression !== 'av1')) {
    throw IMAGE_ERRORS.unsupportedType();
  }
  const width = metadata.autoOrient.width;
  const height = metadata.autoOrient.height;
  if (!width || !height) throw IMAGE_ERRORS.undecodable();
  if (width * height > limits.maxPixels) throw IMAGE_ERRORS.tooManyPixels(limits.maxPixels);
  return { type, width, height, hasAlpha: metadata.hasAlpha, metadata };
}

/** A checked input that fails while its pixels are decoded is corrupt: a client error, never a crash. */
export function asDecodeError(error: unknown): Error {
  if (error instanceof Error && error.constructor === Error) return IMAGE_ERRORS.undecodable();
  return error instanceof Error ? error : new Error(String(error));
}
