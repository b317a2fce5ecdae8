import sharp, { type Sharp } from 'sharp';
import type { ResizeOptions, Rgb } from './options.js';

export interface Size {
  width: number;
  height: number;
}

/**
 * A target box larger than the image shrinks, keeping its aspect ratio, until it fits (spec rule 5: never
 * scale up); cover and thumb then crop at the original scale instead of enlarging.
 */
export function boxWithoutEnlargement(target: Size, original: Size): Size {
  const factor = Math.min(1, original.width / target.width, original.height / target.height);
  return {
    width: Math.max(1, Math.min(original.width, Math.round(target.width * factor))),
    height: Math.max(1, Math.min(original.height, Math.round(target.height * factor))),
  };
}

/** Applies spec rules 1–5 to a pipeline whose (auto-oriented) size is `original`. */
export async function applyResize(pipeline: Sharp, resize: ResizeOptions, original: Size): Promise<Sharp> {
  switch (resize.method) {
    case 'scale':
      return pipeline.resize(
        resize.width !== undefined
          ? { width: resize.width, withoutEnlargement: true }
          : { height: resize.height, withoutEnlargement: true },
      );
    case 'fit':
      return pipeline.resize({ width: resize.width, height: resize.height, fit: 'inside', withoutEnlargement: true });
    case 'cover': {
      const box = boxWithoutEnlargement(resize, original);
      return pipeline.resize({ ...box, fit: 'cover', position: sharp.strategy.attention });
    }
    case 'thumb':
      return thumbnail(pipeline, boxWithoutEnlargement(resize, original), original);
  }
}

/** Share of the image a trimmed subject must leave as border before the background counts as plain. */
const MIN_BORDER_SHARE = 0.02;

/**
 * Thumb: a cut-out subject on a plain background (detected by trimming the border colour) is framed whole
 * and padded with that background to the exact box; anything else is cropped like cover.
 */
async function thumbnail(pipeline: Sharp, box: Size, original: Size): Promise<Sharp> {
  const flat = await pipeline.clone().png({ compressionLevel: 0 }).toBuffer();
  const background = await borderColour(flat);
  const trimmed = await sharp(flat)
    .trim({ threshold: 12 })
    .toBuffer({ resolveWithObject: true })
    .catch(() => undefined);
  const info = trimmed?.info;
  const plainBackground =
    info !== undefined &&
    background !== undefined &&
    info.width * info.height < original.width * original.height * (1 - MIN_BORDER_SHARE);
  if (!plainBackground || !trimmed) {
    return pipeline.resize({ ...box, fit: 'cover', position: sharp.strategy.attention });
  }
  // A margin of 5% of the box around the subject, so it does not touch the edges.
  const inner = { width: Math.max(1, Math.round(box.width * 0.9)), height: Math.max(1, Math.round(box.height * 0.9)) };
  const subject = await sharp(trimmed.data)
    .resize({ ...inner, fit: 'inside', withoutEnlargement: true })
    .toBuffer({ resolveWithObject: true });
  const padX = box.width - subject.info.width;
  const padY = box.height - subject.info.height;
  return sharp(subject.data).extend({
    left: Math.floor(padX / 2),
    right: Math.ceil(padX / 2),
    top: Math.floor(padY / 2),
    bottom: Math.ceil(padY / 2),
    background,
  });
}

/** The colour of the four corners when they agree (a plain background), else undefined. */
async function borderColour(png: Buffer): Promise<(Rgb & { alpha: number }) | undefined> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => {
    const i = (y * info.width + x) * 4;
    return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!] as const;
  };
  const corners = [at(0, 0), at(info.width - 1, 0), at(0, info.height - 1), at(info.width - 1, info.height - 1)];
  const [first] = corners;
  if (!first || !corners.every((c) => c.every((v, i) => Math.abs(v - first[i]!) <= 12))) return undefined;
  return { r: first[0], g: first[1], b: first[2], alpha: first[3] / 255 };
}
