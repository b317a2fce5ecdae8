import type { ImageType } from './media-types.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/**
 * The type is read from the bytes only (never from Content-Type or a file name): PNG and JPEG signatures,
 * the RIFF/WEBP container, and an ISO-BMFF `ftyp` box naming an AVIF brand (major or compatible).
 * HEIC and other HEIF brands are not AVIF and stay unsupported.
 */
export function detectImageType(bytes: Uint8Array): ImageType | undefined {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length >= 8 && buf.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'image/jpeg';
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  if (isAvif(buf)) return 'image/avif';
  return undefined;
}

function isAvif(buf: Buffer): boolean {
  if (buf.length < 16 || buf.toString('latin1', 4, 8) !== 'ftyp') return false;
  const boxSize = buf.readUInt32BE(0);
  if (boxSize < 16 || boxSize > buf.length || boxSize > 4096) return false;
  if (AVIF_BRANDS.has(buf.toString('latin1', 8, 12))) return true;
  // Compatible brands follow the major brand and its 4-byte minor version.
  for (let offset = 16; offset + 4 <= boxSize; offset += 4) {
    if (AVIF_BRANDS.has(buf.toString('latin1', offset, offset + 4))) return true;
  }
  return false;
}
