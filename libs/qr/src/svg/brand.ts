import { linkGlyph } from './frames.js';
import { textElement } from './text.js';

export interface BrandMark {
  /** Shown left of the glyph, e.g. the service's name. */
  text?: string;
  /** Hex colour; the dot colour by default. */
  color?: string;
}

/** The brand strip's mark, right-aligned in a strip of `height` at `y`, under the code's quiet zone. */
export function brandMark(side: number, y: number, height: number, mark: BrandMark | undefined, dots: string): string {
  const color = mark?.color ?? dots;
  const glyphSize = height * 0.75;
  const gx = side - 1 - glyphSize / 2;
  const cy = y + height / 2;
  const parts = [linkGlyph(gx, cy, glyphSize, color)];
  const text = mark?.text?.trim();
  if (text) {
    const size = height * 0.5;
    const right = gx - glyphSize * 0.7;
    const width = Math.min(side * 0.5, [...text].length * size * 0.7);
    parts.push(textElement(text, color, { cx: right - width / 2, cy, width, size }));
  }
  return `<g opacity="0.8">${parts.join('')}</g>`;
}
