export const DOT_PATTERN_TYPES = [
  'standard',
  'circle',
  'block',
  'blob',
  'rounded',
  'vertical',
  'horizontal',
  'triangle',
  'heart',
  'star',
  'diamond',
] as const;
export const CORNER_SHAPES = [
  'standard',
  'slightly_round',
  'rounded',
  'extra_round',
  'leaf',
  'leaf_inner',
  'leaf_outer',
  'target',
  'concave',
] as const;
export const GRADIENT_STYLES = ['no_gradient', 'linear', 'radial'] as const;
export const FRAME_IDS = [
  'none',
  'border_only',
  'text_bottom',
  'tooltip_bottom',
  'arrow',
  'text_top',
  'text_bottom_in_frame',
  'script',
  'text_top_and_bottom',
  'url',
  'instagram',
] as const;
/** Index = the spec's `error_correction` integer. */
export const ERROR_CORRECTION_LEVELS = ['L', 'M', 'Q', 'H'] as const;

export type DotPatternType = (typeof DOT_PATTERN_TYPES)[number];
export type CornerShape = (typeof CORNER_SHAPES)[number];
export type GradientStyle = (typeof GRADIENT_STYLES)[number];
export type FrameId = (typeof FRAME_IDS)[number];
export type ErrorCorrectionLevel = (typeof ERROR_CORRECTION_LEVELS)[number];
/** 0 = L, 1 = M, 2 = Q, 3 = H. */
export type ErrorCorrection = 0 | 1 | 2 | 3;

export interface TextItem {
  content: string;
  color: string;
}

export interface Corner {
  inner_color?: string;
  outer_color?: string;
  shape: CornerShape;
}

export interface GradientStop {
  color: string;
  /** 0..100, percent along the gradient. */
  offset: number;
}

export interface Gradient {
  style: GradientStyle;
  /** Degrees, linear only: 0 runs left to right, 90 top to bottom (clockwise, as SVG's y axis points down). */
  angle?: number;
  colors: GradientStop[];
  exclude_corners: boolean;
}

export interface Frame {
  id: FrameId;
  colors?: { primary?: string; secondary?: string; background?: string };
  text?: { primary?: TextItem; secondary?: TextItem };
}

export interface RenderCustomizations {
  background_color?: string;
  dot_pattern_color?: string;
  dot_pattern_type?: DotPatternType;
  corners?: { corner_1?: Corner; corner_2?: Corner; corner_3?: Corner };
  gradient?: Gradient;
  background_gradient?: Gradient;
  logo?: { image_guid: string };
  frame?: Frame;
  text?: { center?: TextItem; top?: TextItem; bottom?: TextItem };
  branding?: { service_brand: boolean };
  spec_settings?: { error_correction: ErrorCorrection };
}

export type CornerKey = 'corner_1' | 'corner_2' | 'corner_3';
export const CORNER_KEYS: readonly CornerKey[] = ['corner_1', 'corner_2', 'corner_3'];

export const DEFAULT_BACKGROUND = '#ffffff';
export const DEFAULT_DOTS = '#000000';
export const DEFAULT_TEXT_COLOR = '#ffffff';
export const DEFAULT_ERROR_CORRECTION: ErrorCorrection = 1;
export const MAX_TEXT_LENGTH = 120;
export const MAX_GRADIENT_STOPS = 10;

/** Below this WCAG contrast ratio between every dark and every light colour a code is refused. */
export const MIN_CONTRAST = 3;

export interface Problem {
  field: string;
  message: string;
}
