import { DEFAULT_TEXT_COLOR, type Frame, type FrameId, type TextItem } from '../model.js';
import type { Paints } from '../paints.js';
import { circle, fillOf, num, polygon, roundedRect, strokeOf } from './path.js';
import { FONT_MONO, FONT_SCRIPT, textElement } from './text.js';

/** Where a frame's text goes: in a band of the frame itself, or on a shape outside it, below. */
type Placement = 'none' | 'band_top' | 'band_bottom' | 'band_both' | 'below';

const PLACEMENT: Record<FrameId, Placement> = {
  none: 'none',
  border_only: 'none',
  text_bottom: 'below',
  tooltip_bottom: 'below',
  arrow: 'below',
  script: 'below',
  text_top: 'band_top',
  text_bottom_in_frame: 'band_bottom',
  text_top_and_bottom: 'band_both',
  url: 'band_bottom',
  instagram: 'band_bottom',
};

export interface FrameColors {
  primary: string;
  secondary: string;
  background: string;
}

export interface FrameInput {
  id: Exclude<FrameId, 'none'>;
  colors: FrameColors;
  primary?: TextItem;
  secondary?: TextItem;
  /** The panel (code, its texts, the brand strip) the frame goes around, in modules. */
  panel: { w: number; h: number };
  /** The frame's scale: the code box with its quiet zone, in modules. */
  unit: number;
}

export interface FramedLayout {
  width: number;
  height: number;
  /** Where the panel goes inside the frame. */
  panelX: number;
  panelY: number;
  /** Drawn under the panel. */
  under: string;
  /** Drawn over everything (texts and glyphs outside the panel). */
  over: string;
}

const DEFAULT_FRAME_TEXT = 'SCAN ME';

/**
 * A frame with its defaults filled in: the primary text says SCAN ME (the `url` frame: the encoded URL without
 * scheme or query); colours are the dots' for the frame, the primary text's for the glyphs, the code's
 * background inside.
 */
export function frameAround(
  frame: Frame | undefined,
  content: string,
  paints: Paints,
  panel: FrameInput['panel'],
  unit: number,
): FramedLayout | undefined {
  if (!frame || frame.id === 'none') return undefined;
  const defaultContent =
    frame.id === 'url' ? content.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[?#].*$/, '') : DEFAULT_FRAME_TEXT;
  const primary =
    frame.id === 'border_only'
      ? undefined
      : (frame.text?.primary ?? { content: defaultContent, color: DEFAULT_TEXT_COLOR });
  const secondary = frame.id === 'border_only' ? undefined : frame.text?.secondary;
  return layoutFrame({
    id: frame.id,
    colors: {
      primary: frame.colors?.primary ?? paints.dots,
      secondary: frame.colors?.secondary ?? primary?.color ?? DEFAULT_TEXT_COLOR,
      background: frame.colors?.background ?? paints.background,
    },
    ...(primary ? { primary } : {}),
    ...(secondary ? { secondary } : {}),
    panel,
    unit,
  });
}

/**
 * The frame's geometry, in modules, scaled by the code box `unit` (its side with the quiet zone). Frames only
 * ever add space around the panel: nothing of a frame is drawn over the code or its quiet zone.
 */
export function layoutFrame(input: FrameInput): FramedLayout {
  const { id, colors, panel, unit } = input;
  const placement = PLACEMENT[id];
  const border = unit * 0.035;
  const gap = unit * 0.025;
  const radius = unit * (id === 'instagram' ? 0.14 : 0.06);
  const textSize = unit * 0.07;
  const twoLines = Boolean(input.secondary?.content.trim()) && placement !== 'band_both';
  const band = textSize * 2.2 + (twoLines ? textSize * 1.1 : 0);
  const topBand = placement === 'band_top' || placement === 'band_both' ? band : 0;
  const bottomBand = placement === 'band_bottom' || placement === 'band_both' ? band : 0;
  const width = panel.w + 2 * (border + gap);
  const frameHeight = panel.h + 2 * (border + gap) + topBand + bottomBand;
  const panelX = border + gap;
  const panelY = border + gap + topBand;
  const windowRadius = Math.max(0, radius - border);

  const under: string[] = [
    `<path d="${roundedRect(0, 0, width, frameHeight, [radius, radius, radius, radius])}" ${fillOf(colors.primary)}/>`,
    `<path d="${roundedRect(border, border + topBand, width - 2 * border, panel.h + 2 * gap, [windowRadius, windowRadius, windowRadius, windowRadius])}" ${fillOf(colors.background)}/>`,
  ];
  const over: string[] = [];
  const font = id === 'url' ? { font: FONT_MONO } : id === 'script' ? { font: FONT_SCRIPT, italic: true } : {};
  const primary = input.primary;
  const secondary = input.secondary;

  /** The primary line (and the secondary under it) centred in a box. */
  const lines = (cx: number, top: number, h: number, w: number) => {
    if (primary) {
      const cy = twoLines ? top + h / 2 - textSize * 0.55 : top + h / 2;
      over.push(textElement(primary.content, primary.color, { cx, cy, width: w, size: textSize }, font));
    }
    if (twoLines && secondary)
      over.push(
        textElement(
          secondary.content,
          secondary.color,
          { cx, cy: top + h / 2 + textSize * 0.75, width: w, size: textSize * 0.7 },
          font,
        ),
      );
  };

  if (placement === 'band_top' || placement === 'band_both')
    lines(width / 2, border * 0.5, topBand + border * 0.5, width - 4 * border);
  if (placement === 'band_bottom') {
    const top = frameHeight - border - bottomBand;
    const glyph = id === 'url' || id === 'instagram';
    const glyphSize = textSize * 1.5;
    const textWidth = width - 4 * border - (glyph ? glyphSize * 1.6 : 0);
    const cx = width / 2 + (glyph ? glyphSize * 0.8 : 0);
    if (glyph) {
      const gx = cx - Math.min(textWidth, estimateWidth(primary?.content ?? '', textSize)) / 2 - glyphSize * 1.3;
      over.push(
        id === 'url'
          ? linkGlyph(gx, top + bottomBand / 2, glyphSize, colors.secondary)
          : cameraGlyph(gx, top + bottomBand / 2, glyphSize, colors.secondary),
      );
    }
    lines(cx, top, bottomBand + border * 0.5, textWidth);
  }
  if (placement === 'band_both' && secondary) {
    const top = frameHeight - border - bottomBand;
    over.push(
      textElement(secondary.content, secondary.color, {
        cx: width / 2,
        cy: top + (bottomBand + border * 0.5) / 2,
        width: width - 4 * border,
        size: textSize,
      }),
    );
  }

  let height = frameHeight;
  if (placement === 'below') {
    const spacing = unit * 0.035;
    const notch = id === 'tooltip_bottom' ? textSize * 0.9 : 0;
    const top = frameHeight + spacing + notch;
    const w = width * 0.84;
    const x = (width - w) / 2;
    const r = id === 'tooltip_bottom' ? band * 0.22 : band / 2;
    if (id === 'script') {
      const tail = band * 0.45;
      under.push(
        `<path d="${polygon([
          [x, top],
          [x + w, top],
          [x + w - tail, top + band / 2],
          [x + w, top + band],
          [x, top + band],
          [x + tail, top + band / 2],
        ])}" ${fillOf(colors.primary)}/>`,
      );
    } else {
      under.push(`<path d="${roundedRect(x, top, w, band, [r, r, r, r])}" ${fillOf(colors.primary)}/>`);
    }
    if (notch) {
      under.push(
        `<path d="${polygon([
          [width / 2 - notch, top + 0.01],
          [width / 2, top - notch],
          [width / 2 + notch, top + 0.01],
        ])}" ${fillOf(colors.primary)}/>`,
      );
    }
    let textX = width / 2;
    let textWidth = w - band;
    if (id === 'arrow') {
      const size = textSize * 1.4;
      over.push(arrowGlyph(x + band * 0.55, top + band / 2, size, colors.secondary));
      textX += size * 0.6;
      textWidth -= size * 1.2;
    }
    lines(textX, top, band, textWidth);
    height = top + band + spacing;
  }
  return { width, height, panelX, panelY, under: under.join(''), over: over.join('') };
}

const estimateWidth = (text: string, size: number) => [...text].length * size * 0.7;

function arrowGlyph(cx: number, cy: number, size: number, color: string): string {
  const h = size / 2;
  return `<path d="${polygon([
    [cx, cy - h],
    [cx + h, cy],
    [cx + h * 0.35, cy],
    [cx + h * 0.35, cy + h],
    [cx - h * 0.35, cy + h],
    [cx - h * 0.35, cy],
    [cx - h, cy],
  ])}" ${fillOf(color)}/>`;
}

/** A camera outline: rounded square, lens, flash dot (drawn as strokes, so no solid block a reader could mistake). */
function cameraGlyph(cx: number, cy: number, size: number, color: string): string {
  const h = size / 2;
  const stroke = size * 0.1;
  return (
    `<g fill="none" ${strokeOf(color)} stroke-width="${num(stroke)}">` +
    `<path d="${roundedRect(cx - h, cy - h, size, size, [h * 0.5, h * 0.5, h * 0.5, h * 0.5])}"/>` +
    `<path d="${circle(cx, cy, h * 0.45)}"/></g>` +
    `<path d="${circle(cx + h * 0.55, cy - h * 0.55, stroke * 0.8)}" ${fillOf(color)}/>`
  );
}

/** Two chain links, a URL's usual sign. */
export function linkGlyph(cx: number, cy: number, size: number, color: string): string {
  const w = size * 0.62;
  const h = size * 0.34;
  const r = h / 2;
  const stroke = size * 0.1;
  return (
    `<g fill="none" ${strokeOf(color)} stroke-width="${num(stroke)}" transform="rotate(-45 ${num(cx)} ${num(cy)})">` +
    `<path d="${roundedRect(cx - w + w * 0.25, cy - r, w, h, [r, r, r, r])}"/>` +
    `<path d="${roundedRect(cx - w * 0.25, cy - r, w, h, [r, r, r, r])}"/></g>`
  );
}
