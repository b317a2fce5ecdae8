import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { qrCacheKey, readRenderCustomizations, renderPng, renderSvg, type RenderCustomizations } from '@platform/qr';
import QRCode from 'qrcode';
import sharp from 'sharp';

/**
 * QR code rendering per code: our SVG renderer and its PNG (sharp, 1000 px), plain and fully customized, next
 * to the `qrcode` library's own SVG (`QRCode.toString(text, {type: 'svg'})`) and PNG (`QRCode.toBuffer`) in the
 * same run, as ratios. Then an in-process image cache keyed by content (qrCacheKey: sha256 of content,
 * customizations and logo hash): a hit next to a miss. Every code encodes a different URL; median of rounds.
 */
const root = path.resolve(import.meta.dirname, '../..');
const rounds = 5;
const svgIterations = Number(process.env['BENCH_QR_SVG_ITERATIONS'] ?? 200);
const pngIterations = Number(process.env['BENCH_QR_PNG_ITERATIONS'] ?? 20);
const cacheHits = 20_000;
const PNG_WIDTH = 1000;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;
let serial = 0;
const nextUrl = () => `https://sho.rt/b${(serial++).toString(36).padStart(6, '0')}?qr=Qx1y2z3w4v`;

async function msPerCode(iterations: number, render: (url: string) => unknown): Promise<number> {
  await render(nextUrl()); // warm-up
  const samples: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const started = performance.now();
    for (let i = 0; i < iterations; i++) await render(nextUrl());
    samples.push((performance.now() - started) / iterations);
  }
  return median(samples);
}

const logo = {
  bytes: await sharp({
    create: { width: 256, height: 256, channels: 4, background: { r: 229, g: 57, b: 53, alpha: 1 } },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><circle cx="128" cy="128" r="70" fill="#ffeb3b"/></svg>',
        ),
      },
    ])
    .png()
    .toBuffer(),
  mediaType: 'image/png',
};
const read = readRenderCustomizations(
  {
    background_color: '#fffdf7',
    dot_pattern_type: 'blob',
    corners: {
      corner_1: { shape: 'leaf', outer_color: '#c62828' },
      corner_2: { shape: 'target' },
      corner_3: { shape: 'concave' },
    },
    gradient: {
      style: 'linear',
      angle: 30,
      colors: [
        { color: '#1a237e', offset: 0 },
        { color: '#4a148c', offset: 100 },
      ],
      exclude_corners: true,
    },
    background_gradient: {
      style: 'radial',
      colors: [
        { color: '#ffffff', offset: 0 },
        { color: '#fff3e0', offset: 100 },
      ],
    },
    logo: { image_guid: 'Ibench' },
    frame: { id: 'tooltip_bottom', text: { primary: { content: 'Scan me!' }, secondary: { content: 'sho.rt menu' } } },
    text: { center: { content: 'CAFE' }, top: { content: 'Table 12' }, bottom: { content: 'Pay here' } },
    branding: { service_brand: true },
  },
  { allowed: 'full' },
);
if (!read.ok) throw new Error(JSON.stringify(read.problems));
const customized: RenderCustomizations = read.value;
const plain: RenderCustomizations = {};

const baselineSvg = await msPerCode(svgIterations, (url) =>
  QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M' }),
);
const oursSvgPlain = await msPerCode(svgIterations, (url) => renderSvg(url, plain));
const oursSvgCustomized = await msPerCode(svgIterations, (url) => renderSvg(url, customized, { logo }));
const baselinePng = await msPerCode(pngIterations, (url) =>
  QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', width: PNG_WIDTH }),
);
const oursPngPlain = await msPerCode(pngIterations, (url) => renderPng(renderSvg(url, plain), { size: PNG_WIDTH }));
const oursPngCustomized = await msPerCode(pngIterations, (url) =>
  renderPng(renderSvg(url, customized, { logo }), { size: PNG_WIDTH }),
);

// The cache as the gateway keeps it: key -> PNG bytes. A miss renders and stores; a hit computes the key and reads.
const cache = new Map<string, Buffer>();
const logoHash = createHash('sha256').update(logo.bytes).digest('hex');
const keyOf = (url: string) => qrCacheKey(url, customized, { logo: logoHash, format: 'png' });
async function throughCache(url: string): Promise<Buffer> {
  const key = keyOf(url);
  const hit = cache.get(key);
  if (hit) return hit;
  const image = await renderPng(renderSvg(url, customized, { logo }), { size: PNG_WIDTH });
  cache.set(key, image);
  return image;
}
const cacheMissMs = await msPerCode(pngIterations, throughCache);
const hot = nextUrl();
await throughCache(hot);
const hitSamples: number[] = [];
for (let r = 0; r < rounds; r++) {
  const started = performance.now();
  for (let i = 0; i < cacheHits; i++) await throughCache(hot);
  hitSamples.push(((performance.now() - started) / cacheHits) * 1000);
}
const cacheHitUs = median(hitSamples);

const sample = 'https://sho.rt/abc1234?qr=Qx1y2z3w4v';
const bytes = {
  qrcode_svg: (await QRCode.toString(sample, { type: 'svg' })).length,
  ours_svg_plain: renderSvg(sample, plain).length,
  ours_svg_customized: renderSvg(sample, customized, { logo }).length,
  logo_png: logo.bytes.length,
  qrcode_png: (await QRCode.toBuffer(sample, { type: 'png', width: PNG_WIDTH })).length,
  ours_png_plain: (await renderPng(renderSvg(sample, plain), { size: PNG_WIDTH })).length,
  ours_png_customized: (await renderPng(renderSvg(sample, customized, { logo }), { size: PNG_WIDTH })).length,
};

const result = {
  benchmark: 'qr-render',
  description:
    'Render time per QR code (a different 37-character URL each time): our SVG renderer (libs/qr renderSvg) and its PNG (renderPng, sharp/librsvg, 1000 px wide), plain and fully customized (blob dots, three corner shapes, gradient, background gradient, 256 px PNG logo, tooltip frame, three texts, branding), next to the qrcode library in the same run: QRCode.toString(type svg) and QRCode.toBuffer(png, 1000 px). Then an in-process cache keyed by qrCacheKey: a miss (key, render, store) next to a hit (key, lookup). Median of rounds.',
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model,
    node: process.version,
    sharp: sharp.versions.sharp,
    libvips_threads: sharp.concurrency(),
  },
  settings: {
    rounds,
    svg_iterations_per_round: svgIterations,
    png_iterations_per_round: pngIterations,
    png_width: PNG_WIDTH,
    cache_hits_per_round: cacheHits,
  },
  baseline_qrcode: { svg_ms: round(baselineSvg), png_ms: round(baselinePng) },
  svg: {
    plain_ms: round(oursSvgPlain),
    customized_ms: round(oursSvgCustomized),
    ratio_plain_to_qrcode_svg: round(oursSvgPlain / baselineSvg, 2),
    ratio_customized_to_qrcode_svg: round(oursSvgCustomized / baselineSvg, 2),
  },
  png: {
    plain_ms: round(oursPngPlain),
    customized_ms: round(oursPngCustomized),
    ratio_plain_to_qrcode_svg: round(oursPngPlain / baselineSvg, 1),
    ratio_customized_to_qrcode_svg: round(oursPngCustomized / baselineSvg, 1),
    ratio_plain_to_qrcode_png: round(oursPngPlain / baselinePng, 2),
    ratio_customized_to_qrcode_png: round(oursPngCustomized / baselinePng, 2),
  },
  cache: {
    miss_ms: round(cacheMissMs),
    hit_us: round(cacheHitUs),
    miss_to_hit: Math.round((cacheMissMs * 1000) / cacheHitUs),
    entries: cache.size,
  },
  bytes,
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/qr-render.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
