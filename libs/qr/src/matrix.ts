import QRCode from 'qrcode';
import { ERROR_CORRECTION_LEVELS, type ErrorCorrection, type ErrorCorrectionLevel } from './model.js';

export interface QrMatrix {
  size: number;
  version: number;
  level: ErrorCorrectionLevel;
  isDark(row: number, col: number): boolean;
}

/**
 * The module matrix of `content` from the `qrcode` library (segments, version and mask chosen by it), at
 * `minVersion` or the smallest version the content fits.
 */
export function encodeMatrix(content: string, errorCorrection: ErrorCorrection, minVersion = 1): QrMatrix {
  const level = ERROR_CORRECTION_LEVELS[errorCorrection];
  let code = QRCode.create(content, { errorCorrectionLevel: level });
  if (code.version < minVersion) code = QRCode.create(content, { errorCorrectionLevel: level, version: minVersion });
  const { modules, version } = code;
  const { size, data } = modules;
  return {
    size,
    version,
    level,
    isDark: (row, col) => row >= 0 && col >= 0 && row < size && col < size && data[row * size + col] === 1,
  };
}

/** Top-left corner (row, col) of each finder pattern: corner_1 top left, corner_2 top right, corner_3 bottom left. */
export function finderOrigins(size: number): {
  corner_1: [number, number];
  corner_2: [number, number];
  corner_3: [number, number];
} {
  return { corner_1: [0, 0], corner_2: [0, size - 7], corner_3: [size - 7, 0] };
}

export function inFinder(row: number, col: number, size: number): boolean {
  return (row < 7 && col < 7) || (row < 7 && col >= size - 7) || (row >= size - 7 && col < 7);
}

/**
 * Centres of the alignment patterns of a version (ISO/IEC 18004 annex E, computed as the `qrcode` library
 * does): every pair of the row/column coordinates but the three that fall on finder patterns.
 */
export function alignmentCentres(version: number): Array<[number, number]> {
  if (version === 1) return [];
  const size = version * 4 + 17;
  const count = Math.floor(version / 7) + 2;
  const interval = size === 145 ? 26 : Math.ceil((size - 13) / (2 * count - 2)) * 2;
  const coords = [size - 7];
  for (let i = 1; i < count - 1; i++) coords.push(coords[i - 1]! - interval);
  coords.push(6);
  coords.reverse();
  const last = coords.length - 1;
  const centres: Array<[number, number]> = [];
  coords.forEach((row, i) =>
    coords.forEach((col, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
      centres.push([row, col]);
    }),
  );
  return centres;
}
