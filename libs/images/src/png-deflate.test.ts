import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { recompressPng } from './png-deflate.js';

async function pixels(png: Buffer) {
  return sharp(png).ensureAlpha().raw().toBuffer();
}

describe('recompressPng', { timeout: 90_000 }, () => {
  it('makes a palette PNG smaller with the same pixels and chunks', async () => {
    const source = await sharp({
      create: { width: 200, height: 120, channels: 4, background: { r: 240, g: 90, b: 20, alpha: 0.6 } },
    })
      .composite([
        {
          input: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120"><text x="10" y="70" font-size="48" fill="#123">Acme</text></svg>',
          ),
        },
      ])
      .png({ palette: true, compressionLevel: 9 })
      .withMetadata({ density: 144 })
      .toBuffer();
    // A generous timeout: on a loaded CI machine the thread may wait for a core.
    const recompressed = await recompressPng(source, 60_000);
    expect(recompressed.length).toBeLessThan(source.length);
    expect(await pixels(recompressed)).toEqual(await pixels(source));
    const [before, after] = await Promise.all([sharp(source).metadata(), sharp(recompressed).metadata()]);
    expect({ ...after, size: undefined }).toEqual({ ...before, size: undefined });
  });

  it('returns anything that is not a well-formed PNG as it is', async () => {
    const notPng = Buffer.from('not a png at all');
    expect(await recompressPng(notPng)).toBe(notPng);
    const truncated = (
      await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
        .png()
        .toBuffer()
    ).subarray(0, 40);
    expect(await recompressPng(truncated)).toBe(truncated);
  });
});
