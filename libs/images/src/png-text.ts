import { crc32 } from 'node:zlib';

const SIGNATURE_LENGTH = 8;
const XMP_KEYWORD = 'XML:com.adobe.xmp';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * Puts an XMP packet into a PNG the way the XMP specification (part 3) and readers expect it: one
 * uncompressed iTXt chunk with the keyword `XML:com.adobe.xmp`, right after IHDR. libvips writes XMP
 * as a compressed zTXt chunk, which common readers skip; any existing XMP text chunk is replaced.
 */
export function withPngXmp(png: Buffer, xmp: string): Buffer {
  const parts: Buffer[] = [png.subarray(0, SIGNATURE_LENGTH)];
  let offset = SIGNATURE_LENGTH;
  while (offset + 12 <= png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    const keyword = png.toString('latin1', offset + 8, offset + 8 + Math.min(length, XMP_KEYWORD.length + 1));
    const isXmpText = (type === 'iTXt' || type === 'zTXt' || type === 'tEXt') && keyword === `${XMP_KEYWORD}\0`;
    if (!isXmpText) parts.push(png.subarray(offset, end));
    if (type === 'IHDR') {
      // keyword, NUL, compression flag 0, method 0, empty language tag, NUL, empty translated keyword, NUL
      parts.push(
        chunk('iTXt', Buffer.concat([Buffer.from(`${XMP_KEYWORD}\0\0\0\0\0`, 'latin1'), Buffer.from(xmp, 'utf8')])),
      );
    }
    offset = end;
  }
  return Buffer.concat(parts);
}
