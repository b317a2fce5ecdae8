import type { DotPatternType } from '../model.js';
import { circle, num, place, polygon, roundedRect, type Template } from './path.js';

/** Whether the data module at (row, col) is drawn: dark, and not in a finder pattern or under the logo. */
export type Drawn = (row: number, col: number) => boolean;

const HEART: Template = [
  ['M', 0.5, 1],
  ['C', 0.12, 0.72, 0, 0.52, 0, 0.32],
  ['C', 0, 0.1, 0.16, 0, 0.3, 0],
  ['C', 0.41, 0, 0.48, 0.07, 0.5, 0.16],
  ['C', 0.52, 0.07, 0.59, 0, 0.7, 0],
  ['C', 0.84, 0, 1, 0.1, 1, 0.32],
  ['C', 1, 0.52, 0.88, 0.72, 0.5, 1],
];

/** Five points, reaching a little past the cell so that the star's dark area stays near half the module. */
const STAR: Array<[number, number]> = Array.from({ length: 10 }, (_, i) => {
  const r = i % 2 ? 0.3 : 0.62;
  const angle = -Math.PI / 2 + (i * Math.PI) / 5;
  return [0.5 + r * Math.cos(angle), 0.54 + r * Math.sin(angle)];
});

const DIAMOND: Array<[number, number]> = [
  [0.5, -0.08],
  [1.08, 0.5],
  [0.5, 1.08],
  [-0.08, 0.5],
];

const TRIANGLE: Array<[number, number]> = [
  [0.5, -0.05],
  [1.05, 1],
  [-0.05, 1],
];

const at = (points: Array<[number, number]>, x: number, y: number) =>
  polygon(points.map(([px, py]) => [px + x, py + y]));

/**
 * One path for all data modules of a pattern (one path: no seams between touching shapes when rasterized).
 * Every shape covers its module's centre and at least about half of its cell, which is what a reader samples.
 */
export function dotsPath(size: number, drawn: Drawn, type: DotPatternType, ox: number, oy: number): string {
  const parts: string[] = [];
  const each = (draw: (x: number, y: number, row: number, col: number) => string) => {
    for (let row = 0; row < size; row++)
      for (let col = 0; col < size; col++) if (drawn(row, col)) parts.push(draw(ox + col, oy + row, row, col));
  };
  switch (type) {
    case 'standard':
      for (let row = 0; row < size; row++) {
        for (let col = 0; col < size; col++) {
          if (!drawn(row, col)) continue;
          const start = col;
          while (col + 1 < size && drawn(row, col + 1)) col++;
          parts.push(`M${num(ox + start)} ${num(oy + row)}h${col - start + 1}v1h${-(col - start + 1)}z`);
        }
      }
      break;
    case 'circle':
      each((x, y) => circle(x + 0.5, y + 0.5, 0.5));
      break;
    case 'block':
      each((x, y) => `M${num(x + 0.06)} ${num(y + 0.06)}h.88v.88h-.88z`);
      break;
    case 'rounded':
      each((x, y) => roundedRect(x, y, 1, 1, [0.3, 0.3, 0.3, 0.3]));
      break;
    case 'blob':
      // A corner is rounded only where neither neighbour beside it is dark, so touching modules flow together.
      each((x, y, row, col) => {
        const up = drawn(row - 1, col);
        const down = drawn(row + 1, col);
        const left = drawn(row, col - 1);
        const right = drawn(row, col + 1);
        const r = (a: boolean, b: boolean) => (a || b ? 0 : 0.5);
        return roundedRect(x, y, 1, 1, [r(up, left), r(up, right), r(down, right), r(down, left)]);
      });
      break;
    case 'vertical':
    case 'horizontal':
      parts.push(...bars(size, drawn, type, ox, oy));
      break;
    case 'triangle':
      each((x, y) => at(TRIANGLE, x, y));
      break;
    case 'heart':
      each((x, y) => place(HEART, x, y));
      break;
    case 'star':
      each((x, y) => at(STAR, x, y));
      break;
    case 'diamond':
      each((x, y) => at(DIAMOND, x, y));
      break;
  }
  return parts.join('');
}

/** Runs of dark modules in one direction joined into one rounded bar, 0.84 of a module wide. */
function bars(size: number, drawn: Drawn, direction: 'vertical' | 'horizontal', ox: number, oy: number): string[] {
  const parts: string[] = [];
  const inset = 0.08;
  const r = (1 - 2 * inset) / 2;
  for (let line = 0; line < size; line++) {
    for (let i = 0; i < size; i++) {
      const dark = (k: number) => (direction === 'vertical' ? drawn(k, line) : drawn(line, k));
      if (!dark(i)) continue;
      const start = i;
      while (i + 1 < size && dark(i + 1)) i++;
      const length = i - start + 1;
      parts.push(
        direction === 'vertical'
          ? roundedRect(ox + line + inset, oy + start, 1 - 2 * inset, length, [r, r, r, r])
          : roundedRect(ox + start, oy + line + inset, length, 1 - 2 * inset, [r, r, r, r]),
      );
    }
  }
  return parts;
}
