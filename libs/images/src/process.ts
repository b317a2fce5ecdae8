import { InputError } from '@platform/errors';
import type { Sharp } from 'sharp';
import { encodeWithinBudget } from './avif-budget.js';
import { asDecodeError, inspectImage, openImage, type InspectedImage } from './decode.js';
import type { EncodedImage } from './encode.js';
import { supportsAlpha, type ImageType } from './media-types.js';
import type { OutputOptions } from './options.js';
import { applyMetadata, finishMetadata, metadataFacts } from './preserve.js';
import { applyResize } from './resize.js';
import { assertWithinBudget, type ImageLimits } from './work-budget.js';

/**
 * The /shrink step: the same type, smaller. When no setting beats the input, the input itself is the
 * result (never a larger file for the same type); so is an AVIF whose encode ran out of its time budget.
 */
export async function compressImage(
  input: Buffer,
  limits: ImageLimits,
): Promise<{ input: InspectedImage; output: EncodedImage }> {
  const inspected = await inspectImage(input, limits);
  assertWithinBudget({ ...inspected, bytes: input.length, targets: [inspected.type] }, limits);
  const encoded = await run(() =>
    encodeWithinBudget(openImage(input, limits).autoOrient(), inspected.type, limits.avifBudgetMs),
  );
  const output =
    encoded.type === inspected.type && encoded.data.length < input.length
      ? encoded
      : {
          data: input,
          type: inspected.type,
          width: inspected.metadata.width ?? inspected.width,
          height: inspected.metadata.height ?? inspected.height,
        };
  return { input: inspected, output };
}

/**
 * POST /output: resize, convert (with background) and preserve, applied to the original upload and
 * compressed in the target type. With several target types, the smallest result wins.
 */
export async function renderOutput(input: Buffer, options: OutputOptions, limits: ImageLimits): Promise<EncodedImage> {
  const inspected = await inspectImage(input, limits);
  const targets: ImageType[] = options.convert ?? [inspected.type];
  assertWithinBudget({ ...inspected, bytes: input.length, targets, resize: options.resize }, limits);
  const transparent = inspected.hasAlpha && !options.background && (await hasTransparency(input, limits));
  const usable = targets.filter((t) => supportsAlpha(t) || !transparent);
  // In a list, a type that cannot keep the transparency simply drops out; alone, it is the client's error.
  if (usable.length === 0) {
    throw new InputError('bad_request', 'Converting a transparent image to image/jpeg requires transform.background.');
  }
  return run(async () => {
    let pipeline: Sharp = openImage(input, limits).autoOrient();
    if (options.resize) pipeline = await applyResize(pipeline, options.resize, inspected);
    if (options.background) pipeline = pipeline.flatten({ background: options.background });
    const facts = options.preserve?.length ? metadataFacts(inspected.metadata) : {};
    let best: EncodedImage | undefined;
    const made = new Set<ImageType>();
    for (const type of usable) {
      // An AVIF over its time budget comes back as WebP: no need to make that WebP twice.
      if (made.has(type)) continue;
      const prepared = options.preserve?.length
        ? applyMetadata(pipeline.clone(), facts, options.preserve, type)
        : pipeline;
      const encoded = await encodeWithinBudget(prepared, type, limits.avifBudgetMs);
      made.add(encoded.type);
      if (options.preserve?.length) encoded.data = finishMetadata(encoded.data, facts, options.preserve, encoded.type);
      if (!best || encoded.data.length < best.data.length) best = encoded;
    }
    return best!;
  });
}

async function hasTransparency(input: Buffer, limits: ImageLimits): Promise<boolean> {
  const stats = await run(() => openImage(input, limits).ensureAlpha().stats());
  const alpha = stats.channels[stats.channels.length - 1];
  return alpha !== undefined && alpha.min < 255;
}

async function run<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asDecodeError(error);
  }
}
