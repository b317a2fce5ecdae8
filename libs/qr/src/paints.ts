import { contrastRatio, parseHex } from './color.js';
import {
  CORNER_KEYS,
  DEFAULT_BACKGROUND,
  DEFAULT_DOTS,
  type CornerKey,
  type Gradient,
  type RenderCustomizations,
} from './model.js';

/** A colour, or the dots' gradient (a finder pattern painted with the code's gradient). */
export type Paint = { color: string } | { gradient: 'dots' };

export interface Paints {
  background: string;
  backgroundGradient?: Gradient;
  dots: string;
  dotsGradient?: Gradient;
  corners: Record<CornerKey, { outer: Paint; inner: Paint }>;
}

const active = (g: Gradient | undefined): Gradient | undefined =>
  g && g.style !== 'no_gradient' && g.colors.length >= 2 ? g : undefined;

/**
 * What each part of the code is painted with. The gradient covers the finder patterns too unless
 * `exclude_corners`; then (and without a gradient) each finder takes its own colours, the dot colour by default.
 */
export function resolvePaints(c: RenderCustomizations): Paints {
  const dots = c.dot_pattern_color ?? DEFAULT_DOTS;
  const dotsGradient = active(c.gradient);
  const paints: Paints = {
    background: c.background_color ?? DEFAULT_BACKGROUND,
    dots,
    corners: {} as Paints['corners'],
  };
  if (dotsGradient) paints.dotsGradient = dotsGradient;
  const backgroundGradient = active(c.background_gradient);
  if (backgroundGradient) paints.backgroundGradient = backgroundGradient;
  for (const key of CORNER_KEYS) {
    const corner = c.corners?.[key];
    paints.corners[key] =
      dotsGradient && !dotsGradient.exclude_corners
        ? { outer: { gradient: 'dots' }, inner: { gradient: 'dots' } }
        : { outer: { color: corner?.outer_color ?? dots }, inner: { color: corner?.inner_color ?? dots } };
  }
  return paints;
}

/** Every colour a dark module can be drawn in. */
export function darkColors(p: Paints): string[] {
  const colors = p.dotsGradient ? p.dotsGradient.colors.map((s) => s.color) : [p.dots];
  for (const key of CORNER_KEYS) {
    for (const paint of [p.corners[key].outer, p.corners[key].inner]) if ('color' in paint) colors.push(paint.color);
  }
  return [...new Set(colors)];
}

/** Every colour the background behind the modules can be. */
export function lightColors(p: Paints): string[] {
  return p.backgroundGradient ? [...new Set(p.backgroundGradient.colors.map((s) => s.color))] : [p.background];
}

/** Of the dot colour and the background, the one a text reads best on: the default white text gets the dots. */
export function plateColor(text: string, p: Paints): string {
  const t = parseHex(text);
  return contrastRatio(t, parseHex(p.dots)) >= contrastRatio(t, parseHex(p.background)) ? p.dots : p.background;
}
