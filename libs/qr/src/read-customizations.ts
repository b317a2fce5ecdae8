import { isHexColor } from './color.js';
import { contrastProblem } from './contrast.js';
import {
  CORNER_KEYS,
  CORNER_SHAPES,
  DEFAULT_TEXT_COLOR,
  DOT_PATTERN_TYPES,
  FRAME_IDS,
  GRADIENT_STYLES,
  MAX_GRADIENT_STOPS,
  MAX_TEXT_LENGTH,
  type Corner,
  type ErrorCorrection,
  type Frame,
  type Gradient,
  type Problem,
  type RenderCustomizations,
  type TextItem,
} from './model.js';

export type ReadResult = { ok: true; value: RenderCustomizations } | { ok: false; problems: Problem[] };

export interface ReadOptions {
  /** `static`: a static code (no short link behind it) takes colours, dots, corners, branding and spec settings only. */
  allowed?: 'full' | 'static';
}

const ROOT = 'render_customizations';
const STATIC_REFUSED = ['gradient', 'background_gradient', 'frame', 'text', 'logo'] as const;
/** The spec's integers 0..3, or the levels' recovery percentages, which readers of the QR standard also use. */
const ERROR_CORRECTION_INPUTS: Record<number, ErrorCorrection> = { 0: 0, 1: 1, 2: 2, 3: 3, 7: 0, 15: 1, 25: 2, 30: 3 };
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isAbsent = (v: unknown): v is null | undefined => v === undefined || v === null;

/** Collects every problem of one body; each reader returns undefined for a member that is absent or wrong. */
class Reader {
  readonly problems: Problem[] = [];

  problem(field: string, message: string): undefined {
    this.problems.push({ field, message });
    return undefined;
  }

  object(value: unknown, field: string): Json | undefined {
    if (isAbsent(value)) return undefined;
    return isObject(value) ? value : this.problem(field, `${field} must be an object`);
  }

  color(value: unknown, field: string): string | undefined {
    if (isAbsent(value)) return undefined;
    return isHexColor(value) ? value : this.problem(field, `${field} must be a hex colour: #RGB, #RRGGBB or #RRGGBBAA`);
  }

  oneOf<T extends string>(value: unknown, field: string, values: readonly T[]): T | undefined {
    if (isAbsent(value)) return undefined;
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
    return this.problem(field, `${field} must be one of ${values.join(', ')}`);
  }

  boolean(value: unknown, field: string): boolean | undefined {
    if (isAbsent(value)) return undefined;
    return typeof value === 'boolean' ? value : this.problem(field, `${field} must be true or false`);
  }

  text(value: unknown, field: string): TextItem | undefined {
    const item = this.object(value, field);
    if (!item) return undefined;
    const content = item['content'];
    const color = this.color(item['color'], `${field}.color`);
    if (typeof content !== 'string') return this.problem(`${field}.content`, `${field}.content must be a string`);
    if (content.length > MAX_TEXT_LENGTH)
      return this.problem(`${field}.content`, `${field}.content is at most ${MAX_TEXT_LENGTH} characters`);
    if (CONTROL_CHARACTERS.test(content))
      return this.problem(`${field}.content`, `${field}.content must not contain control characters`);
    return { content, color: color ?? DEFAULT_TEXT_COLOR };
  }

  gradient(value: unknown, field: string): Gradient | undefined {
    const g = this.object(value, field);
    if (!g) return undefined;
    const style = this.oneOf(g['style'], `${field}.style`, GRADIENT_STYLES) ?? 'no_gradient';
    const excludeCorners = this.boolean(g['exclude_corners'], `${field}.exclude_corners`) ?? false;
    const gradient: Gradient = { style, colors: [], exclude_corners: excludeCorners };
    const angle = g['angle'];
    if (!isAbsent(angle)) {
      if (typeof angle === 'number' && Number.isFinite(angle)) gradient.angle = angle;
      else this.problem(`${field}.angle`, `${field}.angle must be a number of degrees`);
    }
    const colors = g['colors'];
    if (!isAbsent(colors)) {
      if (!Array.isArray(colors) || colors.length > MAX_GRADIENT_STOPS) {
        this.problem(
          `${field}.colors`,
          `${field}.colors must be an array of at most ${MAX_GRADIENT_STOPS} {color, offset}`,
        );
      } else {
        colors.forEach((stop, i) => {
          const at = `${field}.colors.${i}`;
          if (!isObject(stop)) return this.problem(at, `${at} must be {color, offset}`);
          const s = stop;
          const color = isAbsent(s['color'])
            ? this.problem(`${at}.color`, `${at}.color is required`)
            : this.color(s['color'], `${at}.color`);
          const offset = s['offset'];
          if (!Number.isInteger(offset) || (offset as number) < 0 || (offset as number) > 100) {
            this.problem(`${at}.offset`, `${at}.offset must be an integer from 0 to 100`);
          } else if (color) {
            gradient.colors.push({ color, offset: offset as number });
          }
        });
      }
    }
    if (style !== 'no_gradient' && (!Array.isArray(colors) || colors.length < 2)) {
      this.problem(`${field}.colors`, `a ${style} ${field} needs at least two colors`);
    }
    return gradient;
  }

  corner(value: unknown, field: string): Corner | undefined {
    const c = this.object(value, field);
    if (!c) return undefined;
    const corner: Corner = { shape: this.oneOf(c['shape'], `${field}.shape`, CORNER_SHAPES) ?? 'standard' };
    const inner = this.color(c['inner_color'], `${field}.inner_color`);
    const outer = this.color(c['outer_color'], `${field}.outer_color`);
    if (inner) corner.inner_color = inner;
    if (outer) corner.outer_color = outer;
    return corner;
  }

  frame(value: unknown, field: string): Frame | undefined {
    const f = this.object(value, field);
    if (!f) return undefined;
    const frame: Frame = { id: this.oneOf(f['id'], `${field}.id`, FRAME_IDS) ?? 'none' };
    const colors = this.object(f['colors'], `${field}.colors`);
    if (colors) {
      frame.colors = {};
      for (const key of ['primary', 'secondary', 'background'] as const) {
        const color = this.color(colors[key], `${field}.colors.${key}`);
        if (color) frame.colors[key] = color;
      }
    }
    const text = this.object(f['text'], `${field}.text`);
    if (text) {
      frame.text = {};
      for (const key of ['primary', 'secondary'] as const) {
        const item = this.text(text[key], `${field}.text.${key}`);
        if (item) frame.text[key] = item;
      }
    }
    return frame;
  }

  errorCorrection(value: unknown, field: string): ErrorCorrection | undefined {
    if (isAbsent(value)) return undefined;
    const level = typeof value === 'number' ? ERROR_CORRECTION_INPUTS[value] : undefined;
    return (
      level ?? this.problem(field, `${field} must be 0, 1, 2 or 3 (L, M, Q, H), or the percentages 7, 15, 25 or 30`)
    );
  }
}

/**
 * Reads a QR code's `render_customizations` from a request body: every member checked, unknown members
 * ignored, `null` taken as absent, defaults filled in inside the objects that are present. A code that would not
 * scan (too little contrast, or light dots on a dark background) is refused here, before anything is rendered.
 */
export function readRenderCustomizations(raw: unknown, options: ReadOptions = {}): ReadResult {
  const r = new Reader();
  if (isAbsent(raw)) return { ok: true, value: {} };
  if (!isObject(raw)) return { ok: false, problems: [{ field: ROOT, message: `${ROOT} must be an object` }] };
  const value: RenderCustomizations = {};

  const background = r.color(raw['background_color'], `${ROOT}.background_color`);
  if (background) value.background_color = background;
  const dots = r.color(raw['dot_pattern_color'], `${ROOT}.dot_pattern_color`);
  if (dots) value.dot_pattern_color = dots;
  const dotType = r.oneOf(raw['dot_pattern_type'], `${ROOT}.dot_pattern_type`, DOT_PATTERN_TYPES);
  if (dotType) value.dot_pattern_type = dotType;

  const corners = r.object(raw['corners'], `${ROOT}.corners`);
  if (corners) {
    value.corners = {};
    for (const key of CORNER_KEYS) {
      const corner = r.corner(corners[key], `${ROOT}.corners.${key}`);
      if (corner) value.corners[key] = corner;
    }
  }

  const gradient = r.gradient(raw['gradient'], `${ROOT}.gradient`);
  if (gradient) value.gradient = gradient;
  const backgroundGradient = r.gradient(raw['background_gradient'], `${ROOT}.background_gradient`);
  if (backgroundGradient) value.background_gradient = backgroundGradient;

  const logo = r.object(raw['logo'], `${ROOT}.logo`);
  if (logo) {
    const guid = logo['image_guid'];
    if (typeof guid === 'string' && guid.length > 0 && guid.length <= 64) value.logo = { image_guid: guid };
    else r.problem(`${ROOT}.logo.image_guid`, `${ROOT}.logo.image_guid must be the id of an uploaded image`);
  }

  const frame = r.frame(raw['frame'], `${ROOT}.frame`);
  if (frame) value.frame = frame;

  const text = r.object(raw['text'], `${ROOT}.text`);
  if (text) {
    value.text = {};
    for (const key of ['center', 'top', 'bottom'] as const) {
      const item = r.text(text[key], `${ROOT}.text.${key}`);
      if (item) value.text[key] = item;
    }
  }

  const branding = r.object(raw['branding'], `${ROOT}.branding`);
  if (branding)
    value.branding = { service_brand: r.boolean(branding['service_brand'], `${ROOT}.branding.service_brand`) ?? false };

  const spec = r.object(raw['spec_settings'], `${ROOT}.spec_settings`);
  if (spec) {
    const level = r.errorCorrection(spec['error_correction'], `${ROOT}.spec_settings.error_correction`);
    if (level !== undefined) value.spec_settings = { error_correction: level };
  }

  if (options.allowed === 'static') {
    for (const member of STATIC_REFUSED) {
      if (!isAbsent(raw[member])) r.problem(`${ROOT}.${member}`, `${member} is not available on a static QR code`);
    }
  }
  if (r.problems.length === 0) {
    const contrast = contrastProblem(value);
    if (contrast) r.problem(ROOT, contrast);
  }
  return r.problems.length ? { ok: false, problems: r.problems } : { ok: true, value };
}
