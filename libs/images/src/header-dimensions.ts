import type { ImageType } from './media-types.js';

export interface Dimensions {
  width: number;
  height: number;
}

/**
 * The width and height a file declares in its header, read from the bytes without a decoder, so that absurd
 * dimensions (a 2³¹−1 × 1 PNG of a few bytes) are refused as too large before libvips sees them. Undefined when
 * the header cannot be read here; the decoder's own header read then decides.
 */
export function declaredDimensions(buf: Buffer, type: ImageType): Dimensions | undefined {
  switch (type) {
    case 'image/png':
      return png(buf);
    case 'image/jpeg':
      return jpeg(buf);
    case 'image/webp':
      return webp(buf);
    case 'image/avif':
      return avif(buf);
  }
}

function png(buf: Buffer): Dimensions | undefined {
  // Signature (8), IHDR length (4) and type (4), then width and height as unsigned 32-bit big-endian.
  if (buf.length < 24 || buf.toString('latin1', 12, 16) !== 'IHDR') return undefined;
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

/** SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame's height and width. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(buf: Buffer): Dimensions | undefined {
  let offset = 2;
  while (offset + 9 <= buf.length) {
    if (buf[offset] !== 0xff) return undefined;
    const marker = buf[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (isStartOfFrame(marker)) return { height: buf.readUInt16BE(offset + 5), width: buf.readUInt16BE(offset + 7) };
    if (marker === 0xda || marker === 0xd9) return undefined;
    offset += 2 + buf.readUInt16BE(offset + 2);
  }
  return undefined;
}

function webp(buf: Buffer): Dimensions | undefined {
  if (buf.length < 30) return undefined;
  const chunk = buf.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + buf.readUIntLE(24, 3), height: 1 + buf.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const bits = buf.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: buf.readUInt16LE(26) & 0x3fff, height: buf.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/** The largest `ispe` (image spatial extents) property of the first few KiB: the primary image's size. */
function avif(buf: Buffer): Dimensions | undefined {
  let found: Dimensions | undefined;
  const end = Math.min(buf.length, 64 * 1024);
  for (
    let at = buf.indexOf('ispe', 4, 'latin1');
    at >= 4 && at + 16 <= end;
    at = buf.indexOf('ispe', at + 4, 'latin1')
  ) {
    // size (4) 'ispe' (4) version and flags (4) width (4) height (4)
    const width = buf.readUInt32BE(at + 8);
    const height = buf.readUInt32BE(at + 12);
    if (!found || width * height > found.width * found.height) found = { width, height };
  }
  return found;
}
