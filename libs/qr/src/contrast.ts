import { WHITE, compositeOver, contrastRatio, parseHex, relativeLuminance } from './color.js';
import { MIN_CONTRAST, type RenderCustomizations } from './model.js';
import { darkColors, lightColors, resolvePaints } from './paints.js';

export interface ContrastPair {
  dark: string;
  light: string;
  ratio: number;
  inverted: boolean;
}

/**
 * The worst pair of a dark module colour and a background colour. The background is composited over white
 * (a transparent code is shown on a white page) and each dark colour over that background.
 */
export function worstContrast(c: RenderCustomizations): ContrastPair {
  const paints = resolvePaints(c);
  let worst: ContrastPair | undefined;
  for (const light of lightColors(paints)) {
    const under = compositeOver(parseHex(light), WHITE);
    for (const dark of darkColors(paints)) {
      const over = compositeOver(parseHex(dark), under);
      const pair = {
        dark,
        light,
        ratio: contrastRatio(over, under),
        inverted: relativeLuminance(over) > relativeLuminance(under),
      };
      if (
        !worst ||
        Number(pair.inverted) > Number(worst.inverted) ||
        (pair.inverted === worst.inverted && pair.ratio < worst.ratio)
      )
        worst = pair;
    }
  }
  return worst!;
}

/**
 * A code that would not scan is refused: dots lighter than their background (inverted codes, which many
 * readers do not try), or a contrast ratio under MIN_CONTRAST, WCAG's minimum for graphics (SC 1.4.11).
 */
export function contrastProblem(c: RenderCustomizations): string | undefined {
  const { dark, light, ratio, inverted } = worstContrast(c);
  const shown = `${Math.floor(ratio * 100) / 100}:1`;
  if (inverted) {
    return `The dots (${dark}) are lighter than the background (${light}): inverted QR codes do not scan in many readers; use dots darker than the background.`;
  }
  if (ratio < MIN_CONTRAST) {
    return `The contrast between the dots (${dark}) and the background (${light}) is ${shown}; a QR code needs at least ${MIN_CONTRAST}:1 to scan.`;
  }
  return undefined;
}
