import { createHash } from 'node:crypto';
import { contrastProblem } from './contrast.js';
import { logoType } from './logo.js';
import { alignmentCentres, encodeMatrix, finderOrigins, inFinder } from './matrix.js';
import {
  CORNER_KEYS,
  DEFAULT_ERROR_CORRECTION,
  type ErrorCorrection,
  type RenderCustomizations,
  type TextItem,
} from './model.js';
import { plateColor, resolvePaints, type Paint, type Paints } from './paints.js';
import { brandMark, type BrandMark } from './svg/brand.js';
import { centreContent, centreRegion, inRegion } from './svg/centre.js';
import { alignmentPath, finderPaths } from './svg/corners.js';
import { dotsPath } from './svg/dots.js';
import { frameAround } from './svg/frames.js';
import { gradientDef, type Box } from './svg/gradients.js';
import { fillOf, num, roundedRect } from './svg/path.js';
import { textElement, xmlText } from './svg/text.js';

export interface RenderSvgOptions {
  /** The bytes of the logo named by `logo.image_guid`, resolved by the caller. */
  logo?: { bytes: Buffer | Uint8Array; mediaType: string };
  /** The service brand drawn when `branding.service_brand` is on: a link glyph, and this text beside it. */
  brandMark?: BrandMark;
}

const QUIET_ZONE = 4;
/** A logo on a smaller symbol would have a few modules of room: short content is encoded in a larger version. */
const MIN_VERSION_WITH_LOGO = 4;
/** Side of the SVG's own width and height attributes, per module. */
const PX_PER_MODULE = 16;

const hasText = (t: TextItem | undefined): t is TextItem => Boolean(t && t.content.trim());

/**
 * The project's own SVG of a QR code: the module matrix comes from the `qrcode` library, every shape is drawn
 * here. Coordinates are in modules. The output is a pure function of the input (ids derive from it).
 */
export function renderSvg(
  content: string,
  customizations: RenderCustomizations = {},
  options: RenderSvgOptions = {},
): string {
  if (!content) throw new Error('A QR code needs content to encode.');
  const contrast = contrastProblem(customizations);
  if (contrast) throw new Error(contrast);
  const c = customizations;
  const paints = resolvePaints(c);

  let logo: string | undefined;
  if (options.logo) {
    const bytes = Buffer.from(options.logo.bytes.buffer, options.logo.bytes.byteOffset, options.logo.bytes.byteLength);
    const type = logoType(bytes);
    if ('problem' in type) throw new Error(type.problem);
    logo = `data:${type.mediaType};base64,${bytes.toString('base64')}`;
  }
  const centreText = hasText(c.text?.center) ? c.text.center : undefined;
  const level: ErrorCorrection =
    logo || centreText ? 3 : (c.spec_settings?.error_correction ?? DEFAULT_ERROR_CORRECTION);
  const matrix = encodeMatrix(content, level, logo || centreText ? MIN_VERSION_WITH_LOGO : 1);
  const n = matrix.size;
  const region = centreRegion(n, Boolean(logo), Boolean(centreText));

  const id = `q${createHash('sha256')
    .update(JSON.stringify([content, c, options.brandMark ?? null]))
    .update(logo ?? '')
    .digest('hex')
    .slice(0, 12)}`;
  const defs: string[] = [];
  const gradientPaint = (suffix: string, g: NonNullable<Paints['dotsGradient']>, box: Box) => {
    defs.push(gradientDef(`${id}-${suffix}`, g, box));
    return `fill="url(#${id}-${suffix})"`;
  };

  // The panel: the code with its quiet zone, the top and bottom texts, the brand strip; a frame goes around it.
  const side = n + 2 * QUIET_ZONE;
  const textSize = side * 0.065;
  const band = textSize * 2;
  const top = hasText(c.text?.top) ? c.text.top : undefined;
  const bottom = hasText(c.text?.bottom) ? c.text.bottom : undefined;
  const brand = c.branding?.service_brand === true;
  const codeY = top ? band : 0;
  const bottomY = codeY + side;
  const brandY = bottomY + (bottom ? band : 0);
  const brandHeight = Math.max(2, side * 0.06);
  const panel = { w: side, h: brandY + (brand ? brandHeight : 0) };

  const body: string[] = [];
  const background = paints.backgroundGradient
    ? gradientPaint('bg', paints.backgroundGradient, { x: 0, y: 0, ...panel })
    : fillOf(paints.background);
  body.push(`<rect width="${num(panel.w)}" height="${num(panel.h)}" ${background}/>`);

  const bandText = (item: TextItem, y: number) => {
    const plateHeight = textSize * 1.55;
    const plateTop = y + (band - plateHeight) / 2;
    const r = plateHeight / 2;
    body.push(
      `<path d="${roundedRect(1, plateTop, side - 2, plateHeight, [r, r, r, r])}" ${fillOf(plateColor(item.color, paints))}/>`,
    );
    body.push(
      textElement(item.content, item.color, {
        cx: side / 2,
        cy: y + band / 2,
        width: side - 2 - plateHeight,
        size: textSize,
      }),
    );
  };
  if (top) bandText(top, 0);
  if (bottom) bandText(bottom, bottomY);

  const ox = QUIET_ZONE;
  const oy = codeY + QUIET_ZONE;
  const dotsFill = paints.dotsGradient
    ? gradientPaint('dots', paints.dotsGradient, { x: ox, y: oy, w: n, h: n })
    : fillOf(paints.dots);
  const alignments = alignmentCentres(matrix.version).filter(([row, col]) => !inRegion(region, row, col));
  const inAlignment = (row: number, col: number) =>
    alignments.some(([r, c]) => Math.abs(row - r) <= 2 && Math.abs(col - c) <= 2);
  const drawn = (row: number, col: number) =>
    matrix.isDark(row, col) && !inFinder(row, col, n) && !inRegion(region, row, col) && !inAlignment(row, col);
  for (const [row, col] of alignments) {
    body.push(
      `<path d="${alignmentPath(c.corners?.corner_1?.shape ?? 'standard', ox + col, oy + row)}" fill-rule="evenodd" ${dotsFill}/>`,
    );
  }
  body.push(`<path d="${dotsPath(n, drawn, c.dot_pattern_type ?? 'standard', ox, oy)}" ${dotsFill}/>`);

  const paintFill = (p: Paint) => ('color' in p ? fillOf(p.color) : dotsFill);
  const origins = finderOrigins(n);
  for (const key of CORNER_KEYS) {
    const [row, col] = origins[key];
    const { ring, centre } = finderPaths(c.corners?.[key]?.shape ?? 'standard', ox + col, oy + row);
    body.push(`<path d="${ring}" fill-rule="evenodd" ${paintFill(paints.corners[key].outer)}/>`);
    body.push(`<path d="${centre}" ${paintFill(paints.corners[key].inner)}/>`);
  }

  if (region)
    body.push(
      centreContent(region, ox, oy, {
        ...(logo ? { logo } : {}),
        ...(centreText ? { text: centreText } : {}),
        paints,
        textSize,
      }),
    );

  if (brand) body.push(brandMark(side, brandY, brandHeight, options.brandMark, paints.dots));

  let width = panel.w;
  let height = panel.h;
  let svgBody = body.join('');
  const framed = frameAround(c.frame, content, paints, panel, side);
  if (framed) {
    width = framed.width;
    height = framed.height;
    svgBody = `${framed.under}<g transform="translate(${num(framed.panelX)} ${num(framed.panelY)})">${svgBody}</g>${framed.over}`;
  }

  const attrs = [
    'xmlns="http://www.w3.org/2000/svg"',
    logo ? 'xmlns:xlink="http://www.w3.org/1999/xlink"' : '',
    `width="${Math.round(width * PX_PER_MODULE)}"`,
    `height="${Math.round(height * PX_PER_MODULE)}"`,
    `viewBox="0 0 ${num(width)} ${num(height)}"`,
  ].filter(Boolean);
  const defsElement = defs.length ? `<defs>${defs.join('')}</defs>` : '';
  return `<svg ${attrs.join(' ')}><title>${xmlText(`QR code: ${content}`)}</title>${defsElement}${svgBody}</svg>`;
}
