import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { validateLogo } from './index.js';

const image = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 4, background: { r: 200, g: 30, b: 30, alpha: 1 } } });
const svg = (body: string, attrs = '') =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20" ${attrs}>${body}</svg>`,
  );

describe('validateLogo', () => {
  it('accepts PNG, JPEG, WebP and GIF by their bytes, with their size', async () => {
    for (const [type, encode] of [
      ['image/png', (s: Sharp) => s.png()],
      ['image/jpeg', (s: Sharp) => s.jpeg()],
      ['image/webp', (s: Sharp) => s.webp()],
      ['image/gif', (s: Sharp) => s.gif()],
    ] as const) {
      const bytes = await encode(image(120, 80)).toBuffer();
      expect(await validateLogo(bytes, type)).toEqual({ ok: true, mediaType: type, width: 120, height: 80 });
      expect(await validateLogo(bytes)).toEqual({ ok: true, mediaType: type, width: 120, height: 80 });
    }
  });

  it('accepts a plain SVG, with inline raster images and fragment links', async () => {
    const png = (await image(2, 2).png().toBuffer()).toString('base64');
    const body = `<defs><linearGradient id="g"><stop offset="0" stop-color="#000"/></linearGradient></defs><rect width="40" height="20" fill="url(#g)"/><use href="#g"/><image xlink:href="data:image/png;base64,${png}" width="2" height="2"/>`;
    expect(
      await validateLogo(Buffer.concat([Buffer.from('\ufeff<?xml version="1.0"?>\n'), svg(body)]), 'image/svg+xml'),
    ).toEqual({ ok: true, mediaType: 'image/svg+xml', width: 40, height: 20 });
  });

  it.each([
    ['a script', svg('<script>alert(1)</script>')],
    ['an event handler', svg('<rect width="1" height="1"/>', 'onload="alert(1)"')],
    ['an event handler on a child', svg('<rect width="1" height="1" onclick = "x()"/>')],
    ['a javascript: link', svg('<a href="javascript:alert(1)"><rect width="1" height="1"/></a>')],
    [
      'a data:text/html link',
      svg('<a xlink:href="data:text/html;base64,PHNjcmlwdD4="><rect width="1" height="1"/></a>'),
    ],
    [
      'an animated link',
      svg('<a><set attributeName="href" to="https://example.com"/><rect width="1" height="1"/></a>'),
    ],
    ['a foreignObject', svg('<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>')],
    ['an outside image', svg('<image href="https://example.com/track.png" width="1" height="1"/>')],
    ['an outside use', svg('<use xlink:href="http://example.com/sprite.svg#a"/>')],
    ['a relative file', svg("<image href='/etc/passwd' width='1' height='1'/>")],
    [
      'an entity',
      Buffer.concat([
        Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'),
        svg('<text>&x;</text>'),
      ]),
    ],
    ['a CSS import', svg('<style>@import "https://example.com/a.css";</style>')],
    ['a CSS url', svg('<rect width="1" height="1" style="fill:url(https://example.com/p.svg#p)"/>')],
  ])('refuses an SVG with %s', async (_name, bytes) => {
    const checked = await validateLogo(bytes, 'image/svg+xml');
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.problem).toMatch(/^The SVG image has /);
  });

  it('refuses what is not an image it takes', async () => {
    const problem = async (bytes: Buffer, type?: string) => {
      const checked = await validateLogo(bytes, type);
      return checked.ok ? undefined : checked.problem;
    };
    expect(await problem(Buffer.alloc(0))).toBe('The image is empty.');
    expect(await problem(Buffer.from('%PDF-1.7 not an image'))).toBe('The image is not PNG, JPEG, WebP, GIF or SVG.');
    expect(await problem(Buffer.from('<html><body>hi</body></html>'))).toBe(
      'The image is not PNG, JPEG, WebP, GIF or SVG.',
    );
    expect(await problem(await image(10, 10).tiff().toBuffer())).toBe('The image is not PNG, JPEG, WebP, GIF or SVG.');
    const png = await image(10, 10).png().toBuffer();
    expect(await problem(png, 'image/jpeg')).toBe('The image was sent as image/jpeg but is image/png.');
    expect(await problem(png.subarray(0, 40))).toBe('The image is not a valid PNG.');
    expect(await problem(Buffer.concat([png, Buffer.alloc(1024 * 1024)]))).toBe('The image is larger than 1024 KiB.');
    expect(await problem(await image(4097, 4).png().toBuffer())).toBe('The image is larger than 4096x4096 pixels.');
    expect(await problem(svg('<rect/>', 'onmouseover="x"'))).toBe('The SVG image has an event handler attribute.');
  });
});
