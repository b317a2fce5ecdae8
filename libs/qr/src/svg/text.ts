import { svgPaint } from '../color.js';
import { num } from './path.js';

/** DejaVu ships with most Linux images (the rasterizer's fonts); the rest are for browsers elsewhere. */
export const FONT_SANS = 'DejaVu Sans, Arial, Helvetica, sans-serif';
export const FONT_SCRIPT = 'DejaVu Serif, Georgia, Times New Roman, serif';
export const FONT_MONO = 'DejaVu Sans Mono, Menlo, Consolas, monospace';

// XML 1.0 cannot hold these, so they are dropped.
const NOT_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an XML attribute or element: escaped, and without the characters XML 1.0 cannot hold. */
export function xmlText(value: string): string {
  return value.replace(NOT_XML, '').replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Width of a line of DejaVu Sans Bold per unit of font size, generously (capitals run to about 0.75). */
const WIDTH_PER_CHAR = 0.7;

export interface TextBox {
  cx: number;
  cy: number;
  /** Widest the text may be; the font shrinks to fit. */
  width: number;
  size: number;
}

export function textElement(
  content: string,
  color: string,
  box: TextBox,
  style: { font?: string; italic?: boolean } = {},
): string {
  const line = content.replace(/\s+/g, ' ').trim();
  if (!line) return '';
  const size = Math.min(box.size, box.width / ([...line].length * WIDTH_PER_CHAR));
  const { color: fill, opacity } = svgPaint(color);
  // Alphabetic baseline placed so the capitals sit centred on cy (librsvg ignores dominant-baseline).
  const attrs = [
    `x="${num(box.cx)}"`,
    `y="${num(box.cy + size * 0.36)}"`,
    `font-family="${style.font ?? FONT_SANS}"`,
    `font-size="${num(size)}"`,
    `font-weight="bold"`,
    style.italic ? 'font-style="italic"' : '',
    `text-anchor="middle"`,
    `fill="${fill}"`,
    opacity < 1 ? `fill-opacity="${opacity}"` : '',
  ].filter(Boolean);
  return `<text ${attrs.join(' ')}>${xmlText(line)}</text>`;
}
