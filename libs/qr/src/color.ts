export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** 0..1 */
  a: number;
}

const HEX = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value);
}

/** #RGB, #RGBA, #RRGGBB or #RRGGBBAA; the caller has checked the form with isHexColor. */
export function parseHex(hex: string): Rgba {
  let digits = hex.slice(1);
  if (digits.length <= 4) digits = [...digits].map((d) => d + d).join('');
  const channel = (i: number) => parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return { r: channel(0), g: channel(1), b: channel(2), a: digits.length === 8 ? channel(3) / 255 : 1 };
}

/** Lower-case #rrggbbaa: equal colours written differently compare equal. */
export function canonicalHex(hex: string): string {
  const { r, g, b, a } = parseHex(hex);
  return `#${[r, g, b, Math.round(a * 255)].map((n) => n.toString(16).padStart(2, '0')).join('')}`;
}

/** SVG paint: the opaque #rrggbb plus an opacity, since not every SVG reader takes 8-digit hex. */
export function svgPaint(hex: string): { color: string; opacity: number } {
  const { r, g, b, a } = parseHex(hex);
  return {
    color: `#${[r, g, b].map((n) => n.toString(16).padStart(2, '0')).join('')}`,
    opacity: Math.round(a * 1000) / 1000,
  };
}

export function compositeOver(top: Rgba, bottom: Rgba): Rgba {
  const mix = (t: number, b: number) => t * top.a + b * (1 - top.a);
  return { r: mix(top.r, bottom.r), g: mix(top.g, bottom.g), b: mix(top.b, bottom.b), a: 1 };
}

export const WHITE: Rgba = { r: 255, g: 255, b: 255, a: 1 };

/** WCAG 2.x relative luminance of an opaque colour. */
export function relativeLuminance({ r, g, b }: Rgba): number {
  const linear = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

export function contrastRatio(a: Rgba, b: Rgba): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}
