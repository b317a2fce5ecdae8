import sharp from 'sharp';

export const DEFAULT_PNG_WIDTH = 1000;
export const MAX_PNG_WIDTH = 4096;
const MIN_PNG_WIDTH = 64;

export interface RenderPngOptions {
  /** Width in pixels (the height follows the SVG's aspect ratio). */
  size?: number;
}

/**
 * Rasterizes an SVG (librsvg, through sharp) at `size` pixels wide: rendered at that density rather than
 * scaled afterwards, so module edges stay sharp. No metadata is written: the same SVG gives the same bytes.
 */
export async function renderPng(svg: string, options: RenderPngOptions = {}): Promise<Buffer> {
  const size = options.size ?? DEFAULT_PNG_WIDTH;
  if (!Number.isInteger(size) || size < MIN_PNG_WIDTH || size > MAX_PNG_WIDTH) {
    throw new RangeError(`The PNG width is an integer from ${MIN_PNG_WIDTH} to ${MAX_PNG_WIDTH}.`);
  }
  const input = Buffer.from(svg);
  const { width } = await sharp(input).metadata();
  if (!width) throw new Error('The SVG has no width.');
  const density = (72 * size) / width;
  return sharp(input, { density }).resize({ width: size }).png().toBuffer();
}
