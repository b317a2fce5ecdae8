import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { liftDecoderRestriction, restrictDecoders } from './decode.js';

const svg = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
);

describe('the decoders the image worker allows', () => {
  afterEach(() => liftDecoderRestriction());

  it('refuses SVG while the worker runs, and gives every loader back when it stops (a process may host more)', async () => {
    restrictDecoders();
    await expect(sharp(svg).png().toBuffer()).rejects.toThrow(/unsupported image format/);
    liftDecoderRestriction();
    expect((await sharp(svg).metadata()).width).toBe(8);
  });
});
