import sharp, { type Exif, type FormatEnum, type Metadata, type Sharp } from 'sharp';
import type { ImageType } from './media-types.js';

/** Builders for test images (unit and integration suites): real encoded files, made on the fly. */
export interface TestImageOptions {
  width?: number;
  height?: number;
  type?: ImageType;
  /** Alpha of the background, 0..1 (only types with alpha keep it). */
  alpha?: number;
  /** A photographic-looking pattern (noise and gradients) rather than flat colour. */
  photo?: boolean;
  /** A dark square subject centred on a plain white background. */
  subject?: boolean;
  exif?: Exif;
  xmp?: string;
}

const FORMAT: Record<ImageType, keyof FormatEnum | 'avif'> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
  'image/avif': 'avif',
};

export async function buildTestImage(options: TestImageOptions = {}): Promise<Buffer> {
  const width = options.width ?? 320;
  const height = options.height ?? 240;
  const alpha = options.alpha ?? 1;
  let pipeline: Sharp;
  if (options.photo) {
    const raw = Buffer.alloc(width * height * 4);
    let seed = 42;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        seed = (seed * 1103515245 + 12345) & 0x7fffffff;
        const i = (y * width + x) * 4;
        raw[i] = (x * 255) / width + (seed % 32);
        raw[i + 1] = (y * 255) / height + ((seed >> 5) % 32);
        raw[i + 2] = 128 + Math.round(60 * Math.sin(x / 9) * Math.cos(y / 7));
        raw[i + 3] = Math.round(alpha * 255);
      }
    }
    pipeline = sharp(raw, { raw: { width, height, channels: 4 } });
  } else {
    pipeline = sharp({ create: { width, height, channels: 4, background: { r: 255, g: 255, b: 255, alpha } } });
    if (options.subject) {
      const side = Math.round(Math.min(width, height) / 3);
      const square = await sharp({
        create: { width: side, height: side, channels: 4, background: { r: 20, g: 40, b: 200, alpha: 1 } },
      })
        .png()
        .toBuffer();
      pipeline = sharp(await pipeline.png().toBuffer()).composite([{ input: square, gravity: 'centre' }]);
    }
  }
  pipeline = pipeline.toFormat(
    FORMAT[options.type ?? 'image/png'],
    options.type === 'image/jpeg' ? { quality: 95 } : { quality: 100 },
  );
  if (options.exif) pipeline = pipeline.withExif(options.exif);
  if (options.xmp) pipeline = pipeline.withXmp(options.xmp);
  return pipeline.toBuffer();
}

/** Type, size and metadata as read back from the bytes. */
export async function readBack(data: Buffer): Promise<Metadata> {
  return sharp(data).metadata();
}
