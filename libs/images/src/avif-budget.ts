import type { Sharp } from 'sharp';
import { encodeAs, type EncodedImage } from './encode.js';
import type { ImageType } from './media-types.js';

/**
 * Encodes as `type`; an AVIF encode that has not finished within `budgetMs` is given up for WebP (the next
 * smallest type, with transparency), so that AVIF's slow encoder never holds a request past its deadline. The
 * abandoned encode's pipelines carry libvips' own timeout (whole seconds), so its work stops soon after.
 */
export async function encodeWithinBudget(
  pipeline: Sharp,
  type: ImageType,
  budgetMs: number | undefined,
): Promise<EncodedImage> {
  if (type !== 'image/avif' || !budgetMs || budgetMs <= 0) return encodeAs(pipeline, type);
  const avif = encodeAs(pipeline.clone().timeout({ seconds: Math.max(1, Math.ceil(budgetMs / 1000)) }), type).catch(
    (error: unknown) => {
      if (error instanceof Error && /timeout/i.test(error.message)) return undefined;
      throw error;
    },
  );
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, budgetMs, undefined);
  });
  const encoded = await Promise.race([avif, expired]).finally(() => clearTimeout(timer));
  if (encoded) return encoded;
  avif.catch(() => undefined); // its outcome no longer matters
  return encodeAs(pipeline, 'image/webp');
}
