import { svgPaint } from '../color.js';

/** A coordinate as written in the SVG: at most three decimals, no trailing zeros, never `-0`. */
export function num(n: number): string {
  const rounded = Math.round(n * 1000) / 1000;
  return Object.is(rounded, -0) ? '0' : String(rounded);
}

/** Corner radii clockwise from the top left; a negative radius curves the corner inwards (concave). */
export type Radii = [number, number, number, number];

/** A closed, clockwise rectangle with its corners rounded (or hollowed) by their own radius. */
export function roundedRect(x: number, y: number, w: number, h: number, [tl, tr, br, bl]: Radii): string {
  const arc = (r: number, dx: number, dy: number) =>
    r === 0
      ? `l${num(dx)} ${num(dy)}`
      : `a${num(Math.abs(r))} ${num(Math.abs(r))} 0 0 ${r > 0 ? 1 : 0} ${num(dx)} ${num(dy)}`;
  const a = (r: number) => Math.abs(r);
  return (
    `M${num(x + a(tl))} ${num(y)}` +
    `h${num(w - a(tl) - a(tr))}${arc(tr, a(tr), a(tr))}` +
    `v${num(h - a(tr) - a(br))}${arc(br, -a(br), a(br))}` +
    `h${num(-(w - a(br) - a(bl)))}${arc(bl, -a(bl), -a(bl))}` +
    `v${num(-(h - a(bl) - a(tl)))}${arc(tl, a(tl), -a(tl))}z`
  );
}

export function circle(cx: number, cy: number, r: number): string {
  return `M${num(cx - r)} ${num(cy)}a${num(r)} ${num(r)} 0 1 0 ${num(2 * r)} 0a${num(r)} ${num(r)} 0 1 0 ${num(-2 * r)} 0z`;
}

export function polygon(points: Array<[number, number]>): string {
  return points.map(([x, y], i) => `${i ? 'L' : 'M'}${num(x)} ${num(y)}`).join('') + 'z';
}

/** A shape drawn in a unit cell with absolute M/L/C commands, placed at (x, y). */
export type Template = Array<[string, ...number[]]>;

export function place(template: Template, x: number, y: number): string {
  return (
    template
      .map(([command, ...coords]) => command + coords.map((v, i) => num(v + (i % 2 ? y : x))).join(' '))
      .join('') + 'z'
  );
}

/** `fill` (and `fill-opacity` for a colour with alpha) of a hex colour. */
export function fillOf(hex: string): string {
  const { color, opacity } = svgPaint(hex);
  return opacity < 1 ? `fill="${color}" fill-opacity="${opacity}"` : `fill="${color}"`;
}

/** `stroke` (and `stroke-opacity`) of a hex colour. */
export function strokeOf(hex: string): string {
  const { color, opacity } = svgPaint(hex);
  return opacity < 1 ? `stroke="${color}" stroke-opacity="${opacity}"` : `stroke="${color}"`;
}
