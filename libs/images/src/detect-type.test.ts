import { describe, expect, it } from 'vitest';
import { detectImageType } from './detect-type.js';
import { buildTestImage } from './testing.js';

function ftyp(major: string, compatible: string[]): Buffer {
  const body = Buffer.concat([Buffer.from(major), Buffer.alloc(4), ...compatible.map((b) => Buffer.from(b))]);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Buffer.concat([size, Buffer.from('ftyp'), body, Buffer.alloc(16)]);
}

describe('detectImageType', () => {
  it.each(['image/png', 'image/jpeg', 'image/webp', 'image/avif'] as const)(
    'recognises %s from its bytes',
    async (type) => {
      expect(detectImageType(await buildTestImage({ type, width: 16, height: 16 }))).toBe(type);
    },
  );

  it('accepts AVIF named only among the compatible brands, and refuses HEIC', () => {
    expect(detectImageType(ftyp('mif1', ['mif1', 'avif']))).toBe('image/avif');
    expect(detectImageType(ftyp('heic', ['mif1', 'heic']))).toBeUndefined();
  });

  it('refuses GIF, SVG, text and empty input', () => {
    expect(detectImageType(Buffer.from('GIF89a\x01\x00\x01\x00'))).toBeUndefined();
    expect(detectImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(detectImageType(Buffer.from('hello'))).toBeUndefined();
    expect(detectImageType(Buffer.alloc(0))).toBeUndefined();
  });
});
