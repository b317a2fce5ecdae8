import type { CornerShape } from '../model.js';
import { circle, roundedRect, type Radii } from './path.js';

type Outline = 'square' | 'slightly_round' | 'rounded' | 'extra_round' | 'leaf' | 'circle' | 'concave';

/** The outline of a finder's 7x7 ring and of its 3x3 centre, per corner shape. */
const OUTLINES: Record<CornerShape, { outer: Outline; inner: Outline }> = {
  standard: { outer: 'square', inner: 'square' },
  slightly_round: { outer: 'slightly_round', inner: 'slightly_round' },
  rounded: { outer: 'rounded', inner: 'rounded' },
  extra_round: { outer: 'extra_round', inner: 'extra_round' },
  leaf: { outer: 'leaf', inner: 'leaf' },
  leaf_inner: { outer: 'square', inner: 'leaf' },
  leaf_outer: { outer: 'leaf', inner: 'square' },
  target: { outer: 'circle', inner: 'circle' },
  concave: { outer: 'concave', inner: 'concave' },
};

/**
 * Radii for a square of `size` modules; concave corners are hollowed (negative radius). A leaf rounds the
 * top-right and bottom-left corners only: readers (ZXing, jsQR) cross-check a finder along its top-left to
 * bottom-right diagonal, which must keep the 1:1:3:1:1 runs of the square.
 */
function radii(outline: Outline, size: number): Radii {
  const all = (r: number): Radii => [r, r, r, r];
  switch (outline) {
    case 'square':
    case 'circle':
      return all(0);
    case 'slightly_round':
      return all(size * 0.14);
    case 'rounded':
      return all(size * 0.3);
    case 'extra_round':
      return all(size * 0.42);
    case 'concave':
      return all(-size * 0.07);
    case 'leaf': {
      const r = size * 0.35;
      return [0, r, 0, r];
    }
  }
}

function shape(outline: Outline, x: number, y: number, size: number): string {
  if (outline === 'circle') return circle(x + size / 2, y + size / 2, size / 2);
  return roundedRect(x, y, size, size, radii(outline, size));
}

/**
 * A finder pattern at (x, y): the ring (drawn even-odd: its outline and a hole one module in) and the centre.
 * Any outline keeps the 1:1:3:1:1 run lengths along the lines through the centre, which is what readers look for.
 */
export function finderPaths(shapeName: CornerShape, x: number, y: number): { ring: string; centre: string } {
  const { outer, inner } = OUTLINES[shapeName];
  const hole = outer === 'concave' ? 'square' : outer;
  return {
    ring: shape(outer, x, y, 7) + shape(hole, x + 1, y + 1, 5),
    centre: shape(inner, x + 2, y + 2, 3),
  };
}

/**
 * An alignment pattern centred on the module at (x, y): drawn whole, its ring in the outline family of the
 * first corner and its one-module centre square (round for `target`), rather than as dots. A reader locates it by its 1:1:1 runs, which round dots break up.
 */
export function alignmentPath(shapeName: CornerShape, x: number, y: number): string {
  const { outer, inner } = OUTLINES[shapeName];
  const hole = outer === 'concave' ? 'square' : outer;
  const centre = inner === 'circle' ? 'circle' : 'square';
  return shape(outer, x - 2, y - 2, 5) + shape(hole, x - 1, y - 1, 3) + shape(centre, x, y, 1);
}
