import { plateColor, type Paints } from '../paints.js';
import type { TextItem } from '../model.js';
import { fillOf, num, roundedRect } from './path.js';
import { textElement } from './text.js';

/** Most of the symbol a logo (or centre text) may hide; level H restores up to 30 % of the codewords. */
const MAX_COVERED_AREA = 0.2;

/** Modules left out of the drawing, in matrix rows and columns. */
export interface Region {
  row: number;
  col: number;
  rows: number;
  cols: number;
}

const oddAtMost = (x: number) => {
  const f = Math.floor(x);
  return f % 2 ? f : f - 1;
};

/**
 * The modules left out in the centre for a logo and/or a centre text: odd sides, so exactly centred, and
 * within rows and columns 9 to size - 10, clear of the timing patterns, the format information and the
 * alignment pattern of versions 2 to 6.
 */
export function centreRegion(size: number, logo: boolean, text: boolean): Region | undefined {
  if (!logo && !text) return undefined;
  const most = oddAtMost(size - 18);
  let rows: number;
  let cols: number;
  if (logo) {
    rows = cols = Math.min(most, oddAtMost(Math.sqrt(MAX_COVERED_AREA) * size));
  } else {
    cols = Math.min(most, oddAtMost(size * 0.62));
    rows = Math.min(most, Math.max(3, oddAtMost(Math.min(size * 0.2, (MAX_COVERED_AREA * size * size) / cols))));
  }
  return { row: (size - rows) / 2, col: (size - cols) / 2, rows, cols };
}

export function inRegion(region: Region | undefined, row: number, col: number): boolean {
  return Boolean(
    region &&
    row >= region.row &&
    row < region.row + region.rows &&
    col >= region.col &&
    col < region.col + region.cols,
  );
}

/**
 * What fills the centre region, placed at (ox, oy), the matrix origin: the logo (a data: URI, kept in its
 * aspect), and under it, or alone, the centre text on its plate. Nothing behind them: the background shows.
 */
export function centreContent(
  region: Region,
  ox: number,
  oy: number,
  parts: { logo?: string; text?: TextItem; paints: Paints; textSize: number },
): string {
  const { logo, text, paints } = parts;
  const margin = 0.5;
  const x = ox + region.col + margin;
  const y = oy + region.row + margin;
  const w = region.cols - 2 * margin;
  const h = region.rows - 2 * margin;
  const textHeight = text ? (logo ? h * 0.3 : h) : 0;
  const out: string[] = [];
  if (logo) {
    const logoHeight = h - textHeight - (text ? margin : 0);
    out.push(
      `<image x="${num(x)}" y="${num(y)}" width="${num(w)}" height="${num(logoHeight)}" preserveAspectRatio="xMidYMid meet" xlink:href="${logo}"/>`,
    );
  }
  if (text) {
    const plateY = y + h - textHeight;
    const r = Math.min(textHeight, w) * 0.3;
    out.push(
      `<path d="${roundedRect(x, plateY, w, textHeight, [r, r, r, r])}" ${fillOf(plateColor(text.color, paints))}/>`,
    );
    out.push(
      textElement(text.content, text.color, {
        cx: x + w / 2,
        cy: plateY + textHeight / 2,
        width: w - 2 * r,
        size: Math.min(textHeight * 0.55, parts.textSize),
      }),
    );
  }
  return out.join('');
}
