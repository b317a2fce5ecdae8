import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import jsQRModule from 'jsqr';
import QRCode from 'qrcode';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import {
  CORNER_SHAPES,
  DOT_PATTERN_TYPES,
  FRAME_IDS,
  readRenderCustomizations,
  renderPng,
  renderSvg,
  type RenderSvgOptions,
} from './index.js';

/**
 * Every customization is rendered to PNG and read back by two unrelated QR readers (jsQR, and ZXing-C++ as
 * WebAssembly): both must return exactly the encoded URL. A code that does not scan fails here.
 * QR_RENDER_OUT=<dir> keeps the PNGs for a look.
 */
const URL_CONTENT = 'https://sho.rt/abc1234?qr=Qx1y2z3w4v';
const SIZE = 600;
const out = process.env['QR_RENDER_OUT'];

const require = createRequire(import.meta.url);
// jsqr is CommonJS with ES module typings: its function is both the module and its `default`.
const jsQR = jsQRModule.default;
let logos: { png: Buffer; svg: Buffer };

beforeAll(async () => {
  prepareZXingModule({
    overrides: {
      wasmBinary: new Uint8Array(readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'))).buffer,
    },
  });
  const png = await sharp({
    create: { width: 96, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="96" height="64"><rect x="4" y="4" width="88" height="56" rx="14" fill="#e53935"/><circle cx="48" cy="32" r="16" fill="#ffeb3b"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer();
  const svg = Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#1e88e5"/><path d="M3 5l1.5 1.5L7 3.5" stroke="#fff" fill="none"/></svg>',
  );
  logos = { png, svg };
  if (out) mkdirSync(out, { recursive: true });
});

async function decode(
  png: Buffer,
): Promise<{ jsqr: string | undefined; zxing: string | undefined; level: string | undefined }> {
  const flat = sharp(png).flatten({ background: '#ffffff' });
  const { data, info } = await flat.clone().ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const js = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height, {
    inversionAttempts: 'dontInvert',
  });
  const [zx] = await readBarcodes(new Uint8Array(await flat.png().toBuffer()), {
    formats: ['QRCode'],
    tryHarder: false,
    maxNumberOfSymbols: 1,
  });
  return { jsqr: js?.data, zxing: zx?.isValid ? zx.text : undefined, level: zx?.ecLevel };
}

/** Renders, decodes with both readers, and returns the error correction level ZXing read from the symbol. */
async function scans(
  name: string,
  raw: unknown,
  options: () => RenderSvgOptions = () => ({}),
  content = URL_CONTENT,
): Promise<string | undefined> {
  const read = readRenderCustomizations(raw, { allowed: 'full' });
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  const png = await renderPng(renderSvg(content, read.value, options()), { size: SIZE });
  if (out) writeFileSync(path.join(out, `${name}.png`), png);
  const { level, ...decoded } = await decode(png);
  expect(decoded).toEqual({ jsqr: content, zxing: content });
  return level;
}

async function expectScans(
  name: string,
  raw: unknown,
  options?: () => RenderSvgOptions,
  content?: string,
): Promise<void> {
  await scans(name, raw, options, content);
}

const stops = (...colors: string[]) =>
  colors.map((color, i) => ({ color, offset: Math.round((i * 100) / (colors.length - 1)) }));
const everyCorner = (corner: Record<string, unknown>) => ({ corner_1: corner, corner_2: corner, corner_3: corner });
const texts = { primary: { content: 'Scan me!' }, secondary: { content: 'sho.rt menu', color: '#ffeb3b' } };

describe('every rendering scans back to the encoded URL', () => {
  it.each(DOT_PATTERN_TYPES)('dot pattern %s', (type) => expectScans(`dots-${type}`, { dot_pattern_type: type }));

  it.each(CORNER_SHAPES.map((shape, i) => [shape, DOT_PATTERN_TYPES[i % DOT_PATTERN_TYPES.length]!] as const))(
    'corner shape %s on all three corners (with %s dots)',
    (shape, dots) =>
      expectScans(`corners-${shape}`, {
        dot_pattern_type: dots,
        corners: everyCorner({ shape, outer_color: '#0d47a1', inner_color: '#b71c1c' }),
      }),
  );

  it.each([
    ['no_gradient', { style: 'no_gradient' }],
    ['linear', { style: 'linear', angle: 45, colors: stops('#1a237e', '#880e4f') }],
    [
      'linear, three stops, 120 degrees',
      { style: 'linear', angle: 120, colors: stops('#004d40', '#1a237e', '#3e2723') },
    ],
    [
      'linear, corners excluded',
      { style: 'linear', angle: 0, colors: stops('#4a148c', '#bf360c'), exclude_corners: true },
    ],
    ['radial', { style: 'radial', colors: stops('#000000', '#283593') }],
    ['radial, corners excluded', { style: 'radial', colors: stops('#1b5e20', '#0d47a1'), exclude_corners: true }],
  ])('gradient %s', (name, gradient) =>
    expectScans(`gradient-${name.replace(/\W+/g, '-')}`, {
      gradient,
      dot_pattern_type: 'rounded',
      corners: everyCorner({ shape: 'rounded', outer_color: '#e65100' }),
    }),
  );

  it.each([
    ['linear', { style: 'linear', angle: 90, colors: stops('#ffffff', '#e3f2fd') }],
    ['radial', { style: 'radial', colors: stops('#fffde7', '#ffe0b2') }],
  ])('background gradient %s', (name, background_gradient) =>
    expectScans(`background-gradient-${name}`, { background_gradient, dot_pattern_color: '#263238' }),
  );

  it.each(FRAME_IDS)('frame %s with its texts', (id) =>
    expectScans(`frame-${id}`, {
      frame: { id, text: texts, colors: { primary: '#311b92', secondary: '#ffd54f', background: '#ede7f6' } },
      dot_pattern_color: '#311b92',
    }),
  );

  it.each([
    ['center', { center: { content: 'MENU' } }],
    ['top', { top: { content: 'Our menu' } }],
    ['bottom', { bottom: { content: 'Scan to order', color: '#000000' } }],
    [
      'all three',
      {
        center: { content: 'OPEN ME', color: '#fff59d' },
        top: { content: 'Welcome' },
        bottom: { content: 'A very long bottom line of text that has to shrink to fit the code' },
      },
    ],
  ])('text %s', (name, text) => expectScans(`text-${name.replace(/\W+/g, '-')}`, { text }));

  it('a centre text raises error correction to H', async () => {
    expect(await scans('text-center-level', { text: { center: { content: 'MENU' } } })).toBe('H');
  });

  it('service branding, plain and in a frame', async () => {
    await expectScans('branding', { branding: { service_brand: true } }, () => ({ brandMark: { text: 'sho.rt' } }));
    await expectScans('branding-frame', { branding: { service_brand: true }, frame: { id: 'text_bottom_in_frame' } });
  });

  it.each([
    [0, 'L'],
    [1, 'M'],
    [2, 'Q'],
    [3, 'H'],
    [7, 'L'],
    [15, 'M'],
    [25, 'Q'],
    [30, 'H'],
  ])('error correction %i is level %s', async (error_correction, level) => {
    expect(await scans(`error-correction-${error_correction}`, { spec_settings: { error_correction } })).toBe(level);
  });

  it('error correction is M by default', async () => {
    expect(await scans('error-correction-default', {})).toBe('M');
  });

  it.each(['png', 'svg'] as const)('%s logo, error correction raised to H', async (kind) => {
    const level = await scans(
      `logo-${kind}`,
      { logo: { image_guid: 'Ilogo' }, spec_settings: { error_correction: 0 } },
      () => ({
        logo: { bytes: logos[kind], mediaType: kind === 'png' ? 'image/png' : 'image/svg+xml' },
      }),
    );
    expect(level).toBe('H');
  });

  // Content that fits a small symbol is drawn as version 4 under a logo; from there on the logo's room grows.
  it.each([
    [1, 'sho.rt'],
    [2, 'sho.rt/ab12'],
    [3, 'https://sho.rt/x'],
    [5, `https://sho.rt/${'x'.repeat(20)}`],
    [7, `https://sho.rt/${'x'.repeat(45)}`],
    [12, `https://sho.rt/${'x'.repeat(130)}`],
  ])('a logo and a centre text on content that fits version %i', (version, content) => {
    expect(QRCode.create(content, { errorCorrectionLevel: 'H' }).version).toBe(version);
    return expectScans(
      `logo-version-${version}`,
      { logo: { image_guid: 'Ilogo' }, text: { center: { content: 'MENU' } } },
      () => ({ logo: { bytes: logos.png, mediaType: 'image/png' } }),
      content,
    );
  });

  it('a logo with a centre text, a frame and every other member', () =>
    expectScans(
      'everything',
      {
        background_color: '#fffdf7',
        dot_pattern_color: '#1a237e',
        dot_pattern_type: 'blob',
        corners: {
          corner_1: { shape: 'leaf', outer_color: '#c62828' },
          corner_2: { shape: 'target', inner_color: '#2e7d32' },
          corner_3: { shape: 'concave' },
        },
        gradient: { style: 'linear', angle: 30, colors: stops('#1a237e', '#4a148c'), exclude_corners: true },
        background_gradient: { style: 'radial', colors: stops('#ffffff', '#fff3e0') },
        logo: { image_guid: 'Ilogo' },
        frame: { id: 'tooltip_bottom', text: texts, colors: { primary: '#1a237e' } },
        text: { center: { content: 'CAFE' }, top: { content: 'Table 12' }, bottom: { content: 'Pay here' } },
        branding: { service_brand: true },
        spec_settings: { error_correction: 3 },
      },
      () => ({ logo: { bytes: logos.png, mediaType: 'image/png' }, brandMark: { text: 'sho.rt' } }),
    ));

  it('colours with an alpha channel over a transparent background', () =>
    expectScans('alpha', {
      background_color: '#ffffff00',
      dot_pattern_color: '#000000cc',
      dot_pattern_type: 'diamond',
    }));
});
