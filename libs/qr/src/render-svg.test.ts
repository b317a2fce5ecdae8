import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readRenderCustomizations, renderPng, renderSvg, type RenderCustomizations } from './index.js';

const URL_CONTENT = 'https://sho.rt/abc1234?qr=Qx1y2z3w4v';

const customized = (raw: unknown): RenderCustomizations => {
  const read = readRenderCustomizations(raw, {});
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.value;
};

const everything = customized({
  dot_pattern_type: 'star',
  corners: { corner_1: { shape: 'leaf' }, corner_2: { shape: 'target' }, corner_3: { shape: 'concave' } },
  gradient: {
    style: 'linear',
    angle: 60,
    colors: [
      { color: '#1a237e', offset: 0 },
      { color: '#4a148c', offset: 100 },
    ],
  },
  background_gradient: {
    style: 'radial',
    colors: [
      { color: '#ffffff', offset: 0 },
      { color: '#fff3e0', offset: 100 },
    ],
  },
  frame: { id: 'arrow', text: { primary: { content: 'Scan me' } } },
  text: { top: { content: 'Top' }, bottom: { content: 'Bottom' } },
  branding: { service_brand: true },
});

describe('renderSvg', () => {
  it('gives the same bytes for the same input, SVG and PNG', async () => {
    const first = renderSvg(URL_CONTENT, everything);
    expect(renderSvg(URL_CONTENT, structuredClone(everything))).toBe(first);
    const [a, b] = await Promise.all([renderPng(first, { size: 300 }), renderPng(first, { size: 300 })]);
    expect(a.equals(b)).toBe(true);
  });

  it('derives its ids from the input, so two codes inlined in one page do not clash', () => {
    const ids = (svg: string) => [...svg.matchAll(/id="([^"]+)"/g)].map((m) => m[1]);
    const one = ids(renderSvg(URL_CONTENT, everything));
    const other = ids(renderSvg('https://sho.rt/other', everything));
    expect(one).toHaveLength(2);
    expect(one.some((id) => other.includes(id))).toBe(false);
    expect(renderSvg(URL_CONTENT, everything)).not.toMatch(/Math\.random|undefined|NaN/);
  });

  it('escapes every text', () => {
    const hostile = '<script>alert("x")</script> & \'q\' \u0001';
    const svg = renderSvg(
      'https://sho.rt/a?b=<c>&d="e"',
      customized({
        text: { top: { content: hostile.slice(0, -2) } },
        frame: {
          id: 'text_top_and_bottom',
          text: { primary: { content: hostile.slice(0, -2) }, secondary: { content: '</text><svg>' } },
        },
      }),
    );
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('</text><svg>');
    expect(svg).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;q&#39;');
    expect(svg).toContain('<title>QR code: https://sho.rt/a?b=&lt;c&gt;&amp;d=&quot;e&quot;</title>');
    // Characters XML cannot hold are dropped, even from customizations that skipped validation.
    expect(renderSvg(URL_CONTENT, { text: { top: { content: 'a\u0001b\ud800c', color: '#ffffff' } } })).toContain(
      '>abc</text>',
    );
  });

  it('keeps a quiet zone of four modules on every side', async () => {
    const svg = renderSvg(URL_CONTENT, {});
    const units = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
    const png = await renderPng(svg, { size: units * 10 });
    const { data, info } = await sharp(png)
      .flatten({ background: '#ffffff' })
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const light = (x: number, y: number) => data[y * info.width + x]! > 250;
    for (let i = 0; i < info.width; i++) {
      for (let d = 0; d < 39; d++) {
        expect(light(i, d) && light(d, i) && light(i, info.height - 1 - d) && light(info.width - 1 - d, i)).toBe(true);
      }
    }
    expect(light(45, 45)).toBe(false); // the top-left finder starts right after
  });

  it('draws a data: URI image for the logo and leaves the centre modules out', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#e53935' } })
      .png()
      .toBuffer();
    const svg = renderSvg(URL_CONTENT, customized({ logo: { image_guid: 'I1' } }), {
      logo: { bytes: png, mediaType: 'image/png' },
    });
    expect(svg).toContain(`xlink:href="data:image/png;base64,${png.toString('base64')}"`);
    const moves = (s: string) => s.split('M').length;
    expect(moves(svg)).toBeLessThan(
      moves(renderSvg(URL_CONTENT, customized({ spec_settings: { error_correction: 3 } }))) - 20,
    );
  });

  it('refuses a logo that is not an image, and a code that would not scan', () => {
    expect(() =>
      renderSvg(
        URL_CONTENT,
        {},
        { logo: { bytes: Buffer.from('<html><script>1</script></html>'), mediaType: 'image/png' } },
      ),
    ).toThrow('The image is not PNG, JPEG, WebP, GIF or SVG.');
    expect(() => renderSvg(URL_CONTENT, { dot_pattern_color: '#eeeeee' })).toThrow(
      'a QR code needs at least 3:1 to scan',
    );
    expect(() => renderSvg('', {})).toThrow('A QR code needs content to encode.');
  });

  it('grows the image for texts, the brand strip and frames, never the code', () => {
    const size = (c: RenderCustomizations) =>
      /viewBox="0 0 ([\d.]+) ([\d.]+)"/.exec(renderSvg(URL_CONTENT, c))!.slice(1).map(Number);
    const [w, h] = size({});
    expect(w).toBe(h);
    const [, withText] = size(customized({ text: { top: { content: 'a' }, bottom: { content: 'b' } } }));
    const [, withBrand] = size(customized({ branding: { service_brand: true } }));
    const [framedWidth] = size(customized({ frame: { id: 'border_only' } }));
    expect(withText).toBeGreaterThan(h!);
    expect(withBrand).toBeGreaterThan(h!);
    expect(framedWidth).toBeGreaterThan(w!);
  });
});

describe('renderPng', () => {
  it('is 1000 pixels wide by default and as wide as asked otherwise', async () => {
    const svg = renderSvg(URL_CONTENT, customized({ frame: { id: 'text_bottom' } }));
    const plain = await sharp(await renderPng(svg)).metadata();
    expect(plain.width).toBe(1000);
    expect(plain.height).toBeGreaterThan(1000);
    expect((await sharp(await renderPng(svg, { size: 321 })).metadata()).width).toBe(321);
  });

  it('refuses sizes out of range', async () => {
    const svg = renderSvg(URL_CONTENT, {});
    for (const size of [0, 10, 4097, 12.5]) await expect(renderPng(svg, { size })).rejects.toThrow(RangeError);
  });
});
