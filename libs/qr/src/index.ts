/**
 * @platform/qr: QR codes of short links, drawn by the project's own SVG renderer over the module matrix of the
 * `qrcode` library, rasterized to PNG with sharp. Choices where the spec is open:
 *
 * - `spec_settings.error_correction`: 0, 1, 2, 3 are L, M, Q, H; the recovery percentages 7, 15, 25, 30 are
 *   accepted too and stored as 0..3. Default M. A logo or a centre text raises it to H, whatever was asked:
 *   they hide up to 20 % of the symbol in its centre (clear of the timing and format patterns), and those
 *   modules are not drawn. Content that would fit a symbol smaller than version 4 gets version 4 then, so
 *   that the logo has room.
 * - Contrast (checked when reading, and again before rendering): every colour a dark module is drawn in (the
 *   dot colour or each gradient stop; each finder's own colours where the gradient does not cover them) against
 *   every background colour (or background gradient stop), the background composited over white and the dots
 *   over the background. Refused under 3:1 (MIN_CONTRAST, WCAG's minimum for graphics), and refused whenever
 *   the dots are lighter than the background: many readers do not try inverted codes.
 * - `corners.corner_3` is the bottom-left finder pattern: the spec calls it bottom right, but a QR code has its
 *   third finder at the bottom left (the bottom-right corner has none).
 * - Finder shapes keep the 1:1:3:1:1 runs across the centre; a leaf rounds the top-right and bottom-left
 *   corners of every finder (readers check the other diagonal). Alignment patterns are drawn whole, in the
 *   first corner's outline, never as dots: round dots break the 1:1:1 runs readers look for.
 * - Gradients: linear `angle` in degrees, 0 left to right, 90 top to bottom; ignored by radial ones, which run
 *   from the centre out. One gradient spans the whole symbol (not each dot). `exclude_corners` keeps each
 *   finder in its own colours (the dot colour by default); otherwise the gradient paints the finders too.
 * - Texts default to white (the spec's default), so a text sits on a plate: of the dot colour and the
 *   background, the one that contrasts more with the text. Top and bottom texts add a band above or below the
 *   code; a centre text takes the logo's place (or shares it, under the logo).
 * - Frames wrap the code, its texts and the brand strip. Colours: `primary` the frame (default the dot colour),
 *   `secondary` its glyphs (arrow, link, camera; default the primary text's colour), `background` inside the
 *   frame (default the code's background). The primary text defaults to "SCAN ME", the `url` frame's to the
 *   encoded URL without scheme or query; `text_top_and_bottom` puts the primary text on top and the secondary
 *   at the bottom, the other frames put the secondary text under the primary one. Fonts: DejaVu first (the
 *   rasterizer's), then common browser fonts.
 * - `branding.service_brand` (default off) adds a strip under the code's quiet zone with a link glyph and the
 *   caller's `brandMark.text` at its right end; never over the modules.
 * - Logos: PNG, JPEG, WebP, GIF (by signature) or SVG without active content or outside references, at most
 *   1 MiB and 4096x4096, embedded as a data: URI. The renderer is handed the bytes; it never looks an id up.
 * - Output: 4 modules of quiet zone; ids in the SVG derive from a hash of the input, so one input gives one
 *   output byte for byte, SVG and PNG alike (PNG 1000 px wide by default, at most 4096). Readers need about
 *   5 pixels a module: long content wants a wider PNG.
 */
export {
  CORNER_SHAPES,
  DOT_PATTERN_TYPES,
  ERROR_CORRECTION_LEVELS,
  FRAME_IDS,
  GRADIENT_STYLES,
  MIN_CONTRAST,
} from './model.js';
export type {
  Corner,
  CornerShape,
  DotPatternType,
  ErrorCorrection,
  ErrorCorrectionLevel,
  Frame,
  FrameId,
  Gradient,
  GradientStop,
  GradientStyle,
  Problem,
  RenderCustomizations,
  TextItem,
} from './model.js';
export { readRenderCustomizations } from './read-customizations.js';
export type { ReadOptions, ReadResult } from './read-customizations.js';
export { isCustomized } from './is-customized.js';
export { worstContrast } from './contrast.js';
export { renderSvg } from './render-svg.js';
export type { RenderSvgOptions } from './render-svg.js';
export type { BrandMark } from './svg/brand.js';
export { DEFAULT_PNG_WIDTH, MAX_PNG_WIDTH, renderPng } from './render-png.js';
export type { RenderPngOptions } from './render-png.js';
export { LOGO_MEDIA_TYPES, MAX_LOGO_BYTES, MAX_LOGO_SIDE, validateLogo } from './logo.js';
export type { LogoCheck, LogoMediaType } from './logo.js';
export { qrCacheKey } from './cache-key.js';
export type { CacheKeyParts } from './cache-key.js';
