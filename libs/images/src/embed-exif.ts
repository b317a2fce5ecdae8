import { crc32 } from 'node:zlib';

const PNG_SIGNATURE_LENGTH = 8;

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Puts a TIFF structure into a PNG as one eXIf chunk (PNG 1.5 / third edition) right after IHDR, replacing any
 * eXIf already there. 12 bytes of chunk around the TIFF: far smaller than an XMP packet, whose namespaces alone
 * take some 200 bytes.
 */
export function withPngExif(png: Buffer, tiff: Buffer): Buffer {
  const parts: Buffer[] = [png.subarray(0, PNG_SIGNATURE_LENGTH)];
  let offset = PNG_SIGNATURE_LENGTH;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (type !== 'eXIf') parts.push(png.subarray(offset, end));
    if (type === 'IHDR') parts.push(pngChunk('eXIf', tiff));
    offset = end;
  }
  return Buffer.concat(parts);
}

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

/**
 * Puts a TIFF structure into a JPEG as an APP1 `Exif` segment: after SOI and the JFIF APP0 when there is one
 * (the order JFIF readers expect), replacing any APP1 Exif already there.
 */
export function withJpegExif(jpeg: Buffer, tiff: Buffer): Buffer {
  const length = 2 + EXIF_HEADER.length + tiff.length;
  if (length > 0xffff) return jpeg;
  const segment = Buffer.concat([Buffer.from([0xff, 0xe1, length >> 8, length & 0xff]), EXIF_HEADER, tiff]);
  const parts: Buffer[] = [jpeg.subarray(0, 2)];
  let offset = 2;
  let inserted = false;
  // Walk the marker segments before the first scan; everything from SOS on is copied as it is.
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1]!;
    if (marker === 0xda) break;
    const end = offset + 2 + jpeg.readUInt16BE(offset + 2);
    const isExif =
      marker === 0xe1 && jpeg.toString('latin1', offset + 4, offset + 10) === EXIF_HEADER.toString('latin1');
    if (!inserted && marker !== 0xe0) {
      parts.push(segment);
      inserted = true;
    }
    if (!isExif) parts.push(jpeg.subarray(offset, end));
    offset = end;
  }
  if (!inserted) parts.push(segment);
  parts.push(jpeg.subarray(offset));
  return Buffer.concat(parts);
}
