import { canonicalHex } from './color.js';
import {
  CORNER_KEYS,
  DEFAULT_BACKGROUND,
  DEFAULT_DOTS,
  DEFAULT_ERROR_CORRECTION,
  type RenderCustomizations,
} from './model.js';

const same = (a: string | undefined, b: string) => a === undefined || canonicalHex(a) === canonicalHex(b);

/** Whether anything differs from a plain code: black square dots and corners on white, level M, no extras. */
export function isCustomized(c: RenderCustomizations): boolean {
  const dots = c.dot_pattern_color ?? DEFAULT_DOTS;
  const corners = CORNER_KEYS.some((key) => {
    const corner = c.corners?.[key];
    return (
      corner !== undefined &&
      (corner.shape !== 'standard' || !same(corner.inner_color, dots) || !same(corner.outer_color, dots))
    );
  });
  const texts = [c.text?.center, c.text?.top, c.text?.bottom].some((t) => Boolean(t?.content.trim()));
  return (
    !same(c.background_color, DEFAULT_BACKGROUND) ||
    !same(c.dot_pattern_color, DEFAULT_DOTS) ||
    (c.dot_pattern_type ?? 'standard') !== 'standard' ||
    corners ||
    (c.gradient?.style ?? 'no_gradient') !== 'no_gradient' ||
    (c.background_gradient?.style ?? 'no_gradient') !== 'no_gradient' ||
    c.logo !== undefined ||
    (c.frame?.id ?? 'none') !== 'none' ||
    texts ||
    c.branding?.service_brand === true ||
    (c.spec_settings?.error_correction ?? DEFAULT_ERROR_CORRECTION) !== DEFAULT_ERROR_CORRECTION
  );
}
