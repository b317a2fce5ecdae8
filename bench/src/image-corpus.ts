import { execFile } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import sharp, { type Sharp } from 'sharp';

/**
 * The fixed image corpus of the image-quality benchmark, built from Debian packages into a cache directory
 * (nothing large is committed), and the comparison tools it needs: pngquant (Debian) and dssim (crates.io).
 * Idempotent: a second run finds the manifest and every file in place and does nothing.
 *
 *   node bench/dist/image-corpus.js      prints the corpus directory
 *
 * Sources: photos and PNG wallpapers from mate-backgrounds, WebP wallpapers from gnome-backgrounds, logos with
 * transparency from adwaita-icon-theme and desktop-base, small clip art, icons and logos with text from
 * openclipart-png, oxygen-icon-theme, tango-icon-theme, libreoffice-common and desktop-base (each .deb fetched
 * with `apt-get download` and unpacked here, never installed), screenshots of three local pages and three
 * wordmarks on transparent pages rendered by Debian's Chromium.
 */

const run = promisify(execFile);

/** Bump when the selection or a derivation changes: the corpus is rebuilt. */
const CORPUS_VERSION = 2;
const DSSIM_VERSION = '3.5.1';

export type CorpusKind =
  | 'photo'
  | 'photo-q95'
  | 'photo-6mp'
  | 'photo-12mp'
  | 'wallpaper-png'
  | 'screenshot'
  | 'logo'
  | 'clipart'
  | 'icon'
  | 'logo-text'
  | 'webp'
  | 'avif';

export interface CorpusEntry {
  id: string;
  kind: CorpusKind;
  /** Path relative to the corpus directory. */
  file: string;
  source: string;
}

export interface CorpusManifest {
  version: number;
  packages: Record<string, string>;
  entries: CorpusEntry[];
}

export interface CorpusTools {
  pngquant: string;
  dssim: string;
}

const cacheDir = process.env['PLATFORM_CACHE_DIR'] ?? path.join(homedir(), '.cache/platform');
export const corpusDir = process.env['BENCH_CORPUS_DIR'] ?? path.join(cacheDir, 'bench-corpus');
const dssimRoot = path.join(cacheDir, 'dssim');

/** Files taken as they are from the packages: [package, path in the package, id, kind]. */
const PACKAGED: Array<[string, string, string, CorpusKind]> = [
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/Dune.jpg', 'dune', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/LadyBird.jpg', 'ladybird', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/RainDrops.jpg', 'raindrops', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/Storm.jpg', 'storm', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/TwoWings.jpg', 'twowings', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/Wood.jpg', 'wood', 'photo'],
  [
    'mate-backgrounds',
    'usr/share/backgrounds/mate/abstract/Arc-Colors-Transparent-Wallpaper.png',
    'arc-colors-transparent',
    'wallpaper-png',
  ],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/desktop/Float-into-MATE.png', 'float-into-mate', 'wallpaper-png'],
  [
    'mate-backgrounds',
    'usr/share/backgrounds/mate/desktop/MATE-Stripes-Dark.png',
    'mate-stripes-dark',
    'wallpaper-png',
  ],
  [
    'mate-backgrounds',
    'usr/share/backgrounds/mate/desktop/Ubuntu-Mate-Cold-no-logo.png',
    'ubuntu-mate-cold',
    'wallpaper-png',
  ],
  ['adwaita-icon-theme', 'usr/share/icons/Adwaita/512x512/places/user-home.png', 'adwaita-user-home', 'logo'],
  ['adwaita-icon-theme', 'usr/share/icons/Adwaita/512x512/devices/computer.png', 'adwaita-computer', 'logo'],
  [
    'adwaita-icon-theme',
    'usr/share/icons/Adwaita/512x512/mimetypes/x-office-presentation.png',
    'adwaita-presentation',
    'logo',
  ],
  ['desktop-base', 'usr/share/icons/desktop-base/256x256/emblems/emblem-debian.png', 'debian-emblem', 'logo'],
  ['desktop-base', 'usr/share/desktop-base/debian-logos/logo-text-version-256.png', 'debian-logo-text', 'logo'],
  // Wallpaper-grade JPEGs as their source compressed them (quality 85-95, read from their quantisation tables).
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/Garden.jpg', 'garden', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/Aqua.jpg', 'aqua', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/YellowFlower.jpg', 'yellowflower', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/nature/GreenMeadow.jpg', 'greenmeadow', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/abstract/Elephants.jpg', 'elephants', 'photo'],
  ['mate-backgrounds', 'usr/share/backgrounds/mate/desktop/GreenTraditional.jpg', 'greentraditional', 'photo'],
  // Small flat-colour truecolour PNGs, 1-50 KB: clip art, icons at the sizes they ship in, logos with text.
  ...(
    [
      ['animals/mammals/cartoon_squirrel_mike_sm1.png', 'clipart-squirrel'],
      ['computer/hardware/laptop_01.png', 'clipart-laptop'],
      ['food/beverages/milk_ganson.png', 'clipart-milk'],
      ['food/fruit/orange_wedge.png', 'clipart-orange'],
      ['people/smilies/chav_01.png', 'clipart-smiley'],
      ['recreation/music/maracas_ganson.png', 'clipart-maracas'],
      ['tools/weapons/lightsabers.png', 'clipart-lightsabers'],
      ['unsorted/Pinguino3.png', 'clipart-penguin'],
    ] as const
  ).map(([file, id]): [string, string, string, CorpusKind] => [
    'openclipart-png',
    `usr/share/openclipart/png/${file}`,
    id,
    'clipart',
  ]),
  [
    'oxygen-icon-theme',
    'usr/share/icons/oxygen/base/16x16/actions/appointment-new.png',
    'icon-oxygen-appointment-16',
    'icon',
  ],
  ['oxygen-icon-theme', 'usr/share/icons/oxygen/base/48x48/actions/dialog-close.png', 'icon-oxygen-close-48', 'icon'],
  [
    'oxygen-icon-theme',
    'usr/share/icons/oxygen/base/64x64/mimetypes/text-x-pascal.png',
    'icon-oxygen-pascal-64',
    'icon',
  ],
  [
    'oxygen-icon-theme',
    'usr/share/icons/oxygen/base/128x128/devices/drive-removable-media-usb.png',
    'icon-oxygen-usb-128',
    'icon',
  ],
  [
    'oxygen-icon-theme',
    'usr/share/icons/oxygen/base/256x256/mimetypes/application-x-font-snf.png',
    'icon-oxygen-font-256',
    'icon',
  ],
  [
    'tango-icon-theme',
    'usr/share/icons/Tango/22x22/mimetypes/x-office-spreadsheet-template.png',
    'icon-tango-spreadsheet-22',
    'icon',
  ],
  ['tango-icon-theme', 'usr/share/icons/Tango/32x32/actions/process-stop.png', 'icon-tango-stop-32', 'icon'],
  [
    'libreoffice-common',
    'usr/share/icons/hicolor/128x128/apps/libreoffice-writer.png',
    'icon-libreoffice-writer-128',
    'icon',
  ],
  ['desktop-base', 'usr/share/plymouth/themes/spacefun/logo.png', 'logo-text-debian-spacefun', 'logo-text'],
  [
    'openclipart-png',
    'usr/share/openclipart/png/logos/velocette_frank_warttig_01.png',
    'logo-text-velocette',
    'logo-text',
  ],
];

/**
 * Derived files. Camera JPEGs are written at quality 92–98: the photos are also measured re-encoded at q95.
 * The GNOME WebP wallpapers are 16.7 MP; at 2048 px they keep their content and let sharp's default AVIF
 * baseline finish in the same run. No Debian package ships AVIF, so two photos are encoded as AVIF inputs.
 */
const DERIVED: Array<{ id: string; kind: CorpusKind; from: string; ext: string; make: (input: string) => Sharp }> = [
  ...['dune', 'ladybird', 'raindrops', 'storm', 'twowings', 'wood'].map((id) => ({
    id: `${id}-q95`,
    kind: 'photo-q95' as const,
    from: `jpeg/${id}.jpg`,
    ext: 'jpg',
    make: (input: string) => sharp(input).jpeg({ quality: 95 }),
  })),
  {
    id: 'elephants-6mp-q95',
    kind: 'photo-6mp',
    from: 'mate-backgrounds:usr/share/backgrounds/mate/abstract/Elephants_5640x3172.jpg',
    ext: 'jpg',
    make: (input) => sharp(input).resize(3264, 1836).jpeg({ quality: 95 }),
  },
  ...['wood-l', 'adwaita-l', 'pixels-l'].map((name) => ({
    id: `gnome-${name}`,
    kind: 'webp' as const,
    from: `gnome-backgrounds:usr/share/backgrounds/gnome/${name}.webp`,
    ext: 'webp',
    make: (input: string) => sharp(input).resize(2048, 2048).webp({ quality: 90 }),
  })),
  {
    id: 'elephants-12mp-q92',
    kind: 'photo-12mp',
    from: 'mate-backgrounds:usr/share/backgrounds/mate/abstract/Elephants_5640x3172.jpg',
    ext: 'jpg',
    make: (input) => sharp(input).resize(4608, 2592).jpeg({ quality: 92 }),
  },
  ...['raindrops', 'twowings'].map((id) => ({
    id: `${id}-avif`,
    kind: 'avif' as const,
    from: `jpeg/${id}.jpg`,
    ext: 'avif',
    make: (input: string) => sharp(input).avif({ quality: 75, effort: 4 }),
  })),
];

interface Rendered {
  id: string;
  kind: CorpusKind;
  width: number;
  height: number;
  scale: number;
  /** Rendered on a transparent page: a logo's anti-aliased edges over alpha, as designers export them. */
  transparent?: boolean;
  html: () => string;
}

const SCREENSHOTS: Rendered[] = [
  { id: 'screenshot-dashboard', kind: 'screenshot', width: 1280, height: 800, scale: 1, html: dashboardPage },
  { id: 'screenshot-docs-2x', kind: 'screenshot', width: 1280, height: 800, scale: 2, html: docsPage },
  { id: 'screenshot-settings', kind: 'screenshot', width: 1024, height: 768, scale: 1, html: settingsPage },
  // Wordmarks of the size websites put in a header (the official client's own test logo is 137x21).
  {
    id: 'logo-text-wordmark',
    kind: 'logo-text',
    width: 137,
    height: 21,
    scale: 1,
    transparent: true,
    html: () => wordmark(137, 21, 15),
  },
  {
    id: 'logo-text-wordmark-2x',
    kind: 'logo-text',
    width: 240,
    height: 48,
    scale: 2,
    transparent: true,
    html: () => wordmark(240, 48, 30),
  },
  { id: 'logo-text-badge', kind: 'logo-text', width: 360, height: 120, scale: 1, transparent: true, html: badgeLogo },
];

const SUBDIR: Record<string, string> = { jpg: 'jpeg', png: 'png', webp: 'webp', avif: 'avif' };

export async function ensureCorpus(): Promise<{ dir: string; manifest: CorpusManifest; tools: CorpusTools }> {
  const tools = await ensureTools();
  const manifestPath = path.join(corpusDir, 'manifest.json');
  if (existsSync(manifestPath)) {
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as CorpusManifest;
    if (
      manifest.version === CORPUS_VERSION &&
      manifest.entries.every((e) => existsSync(path.join(corpusDir, e.file)))
    ) {
      return { dir: corpusDir, manifest, tools };
    }
  }
  mkdirSync(corpusDir, { recursive: true });
  for (const sub of Object.values(SUBDIR)) mkdirSync(path.join(corpusDir, sub), { recursive: true });
  const packages = [...new Set([...PACKAGED.map(([p]) => p), 'gnome-backgrounds'])];
  const unpacked = await unpackPackages(packages);
  try {
    const entries: CorpusEntry[] = [];
    for (const [pkg, file, id, kind] of PACKAGED) {
      const ext = path.extname(file).slice(1);
      const target = `${SUBDIR[ext]}/${id}.${ext}`;
      copyFileSync(path.join(unpacked.dirs[pkg]!, file), path.join(corpusDir, target));
      entries.push({ id, kind, file: target, source: `${pkg} ${unpacked.versions[pkg]}: /${file}` });
    }
    for (const shot of SCREENSHOTS) {
      const target = `png/${shot.id}.png`;
      await screenshot(shot, path.join(corpusDir, target));
      entries.push({
        id: shot.id,
        kind: shot.kind,
        file: target,
        source: `Chromium headless, ${shot.width}x${shot.height} at ${shot.scale}x${shot.transparent ? ', transparent' : ''}`,
      });
    }
    for (const derived of DERIVED) {
      const [pkg, file] = derived.from.includes(':') ? derived.from.split(':') : [undefined, derived.from];
      const input = pkg ? path.join(unpacked.dirs[pkg]!, file!) : path.join(corpusDir, file!);
      const target = `${SUBDIR[derived.ext]}/${derived.id}.${derived.ext}`;
      await derived.make(input).toFile(path.join(corpusDir, target));
      entries.push({
        id: derived.id,
        kind: derived.kind,
        file: target,
        source: `derived from ${pkg ? `${pkg} ${unpacked.versions[pkg]}: /${file}` : file}`,
      });
    }
    const manifest: CorpusManifest = { version: CORPUS_VERSION, packages: unpacked.versions, entries };
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    return { dir: corpusDir, manifest, tools };
  } finally {
    rmSync(unpacked.root, { recursive: true, force: true });
  }
}

/** Fetches each package's .deb with `apt-get download` (updating the lists once if a name is unknown) and unpacks it. */
async function unpackPackages(packages: string[]) {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-corpus-'));
  const dirs: Record<string, string> = {};
  const versions: Record<string, string> = {};
  let updated = false;
  for (const pkg of packages) {
    const download = () => run('apt-get', ['download', pkg], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    try {
      await download();
    } catch (error) {
      if (updated) throw error;
      await aptUpdate();
      updated = true;
      await download();
    }
    const deb = readdirSync(root).find((f) => f.startsWith(`${pkg}_`) && f.endsWith('.deb'));
    if (!deb) throw new Error(`apt-get download ${pkg} left no .deb`);
    dirs[pkg] = path.join(root, pkg);
    await run('dpkg-deb', ['-x', path.join(root, deb), dirs[pkg]]);
    versions[pkg] = (await run('dpkg-deb', ['-f', path.join(root, deb), 'Version'])).stdout.trim();
    rmSync(path.join(root, deb));
  }
  return { root, dirs, versions };
}

async function ensureTools(): Promise<CorpusTools> {
  if (!(await onPath('pngquant'))) await aptInstall('pngquant');
  if (!(await onPath('chromium'))) await aptInstall('chromium');
  const dssim = path.join(dssimRoot, 'bin/dssim');
  if (!existsSync(dssim)) {
    console.error(`building dssim ${DSSIM_VERSION} into ${dssimRoot} (cargo install, a few minutes once)`);
    await run('cargo', ['install', 'dssim', '--version', DSSIM_VERSION, '--locked', '--root', dssimRoot], {
      maxBuffer: 64 * 1024 * 1024,
    });
  }
  return { pngquant: 'pngquant', dssim };
}

async function onPath(command: string): Promise<boolean> {
  return run('sh', ['-c', `command -v ${command}`]).then(
    () => true,
    () => false,
  );
}

async function aptUpdate(): Promise<void> {
  await run('apt-get', ['update'], { maxBuffer: 16 * 1024 * 1024 });
}

async function aptInstall(pkg: string): Promise<void> {
  if (process.getuid?.() !== 0)
    throw new Error(`${pkg} is missing: install the Debian package (apt-get install ${pkg})`);
  console.error(`installing ${pkg} (apt-get)`);
  await aptUpdate();
  await run('apt-get', ['install', '-y', '--no-install-recommends', pkg], {
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

async function screenshot(shot: (typeof SCREENSHOTS)[number], target: string): Promise<void> {
  const page = path.join(corpusDir, `${shot.id}.html`);
  writeFileSync(page, shot.html());
  await run(
    'chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--hide-scrollbars',
      '--no-first-run',
      `--force-device-scale-factor=${shot.scale}`,
      `--window-size=${shot.width},${shot.height}`,
      ...(shot.transparent ? ['--default-background-color=00000000'] : []),
      `--screenshot=${target}`,
      pathToFileURL(page).href,
    ],
    { timeout: 60_000 },
  );
  rmSync(page);
  if (!existsSync(target)) throw new Error(`chromium wrote no screenshot for ${shot.id}`);
}

const PAGE_STYLE = `
  body { margin: 0; font-family: 'DejaVu Sans', sans-serif; color: #1f2937; background: #f3f4f6; }
  header { background: #111827; color: #fff; padding: 14px 24px; display: flex; gap: 24px; align-items: center; }
  header b { font-size: 20px; } header span { opacity: .75; }
  main { padding: 24px; display: grid; gap: 18px; }
  .card { background: #fff; border-radius: 10px; box-shadow: 0 1px 3px rgba(0,0,0,.15); padding: 16px 20px; }
  table { border-collapse: collapse; width: 100%; font-size: 14px; } td, th { padding: 8px; border-bottom: 1px solid #e5e7eb; text-align: left; }
  .btn { background: #2563eb; color: #fff; border: 0; padding: 9px 16px; border-radius: 6px; font-size: 14px; }
  .ok { color: #047857; } .bad { color: #b91c1c; }
  code, pre { font-family: 'DejaVu Sans Mono', monospace; background: #111827; color: #e5e7eb; border-radius: 6px; }
  pre { padding: 14px; font-size: 13px; line-height: 1.5; }`;

function wordmark(width: number, height: number, fontPx: number): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  html, body { margin: 0; background: transparent; }
  div { width: ${width}px; height: ${height}px; display: flex; align-items: center; gap: ${Math.round(fontPx / 4)}px; font: 700 ${fontPx}px 'DejaVu Sans', sans-serif; }
  i { width: ${fontPx}px; height: ${fontPx}px; border-radius: 50%; background: #e4572e; display: inline-block; }
  span { color: #1b2a4a; letter-spacing: -0.5px; } b { color: #e4572e; font-weight: 400; }
</style></head><body><div><i></i><span>acme<b>media</b></span></div></body></html>`;
}

function badgeLogo(): string {
  return `<!doctype html><html><head><meta charset="utf-8"><style>
  html, body { margin: 0; background: transparent; }
  .badge { margin: 6px; width: 348px; height: 108px; border-radius: 18px; background: #0f766e; color: #fff; display: flex; align-items: center; gap: 16px; padding: 0 20px; box-sizing: border-box; font-family: 'DejaVu Sans', sans-serif; }
  .mark { width: 64px; height: 64px; border-radius: 14px; background: #fbbf24; color: #0f766e; font: 700 40px 'DejaVu Serif', serif; display: flex; align-items: center; justify-content: center; }
  h1 { margin: 0; font-size: 30px; } p { margin: 2px 0 0; font-size: 14px; opacity: .85; }
</style></head><body><div class="badge"><div class="mark">Q</div><div><h1>Quillhouse</h1><p>Books &amp; stationery since 1987</p></div></div></body></html>`;
}

function dashboardPage(): string {
  const bars = [42, 65, 31, 80, 57, 92, 48, 73, 66, 88, 35, 59]
    .map(
      (h, i) =>
        `<div style="height:${h * 2}px;width:34px;background:linear-gradient(#60a5fa,#1d4ed8);border-radius:4px 4px 0 0" title="m${i}"></div>`,
    )
    .join('');
  const rows = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger Dijkstra', 'Barbara Liskov', 'Donald Knuth']
    .map(
      (name, i) =>
        `<tr><td>#10${i + 40}</td><td>${name}</td><td>$${(120 + i * 37.5).toFixed(2)}</td><td class="${i % 3 ? 'ok' : 'bad'}">${i % 3 ? 'Paid' : 'Refunded'}</td></tr>`,
    )
    .join('');
  return `<!doctype html><html><head><meta charset="utf-8"><style>${PAGE_STYLE}</style></head><body>
<header><b>Acme Console</b><span>Overview</span><span>Orders</span><span>Customers</span><span>Settings</span></header>
<main style="grid-template-columns: 2fr 1fr">
<div class="card"><h2>Revenue, last 12 months</h2><div style="display:flex;gap:10px;align-items:flex-end;height:200px">${bars}</div></div>
<div class="card"><h2>Today</h2><p style="font-size:40px;margin:8px 0">$4,210</p><p class="ok">▲ 12.4% vs yesterday</p><button class="btn">Export CSV</button></div>
<div class="card" style="grid-column: span 2"><h2>Recent orders</h2><table><tr><th>Order</th><th>Customer</th><th>Total</th><th>Status</th></tr>${rows}</table></div>
</main></body></html>`;
}

function docsPage(): string {
  const para =
    'Every request is authenticated with HTTP Basic authentication: the user name is the literal api and the password is the key. Uploads are compressed as soon as they arrive; the output stays available for a day.';
  return `<!doctype html><html><head><meta charset="utf-8"><style>${PAGE_STYLE}</style></head><body>
<header><b>Developer docs</b><span>Guides</span><span>API reference</span><span>Changelog</span></header>
<main style="grid-template-columns: 220px 1fr">
<nav class="card"><p><b>Getting started</b></p><p>Authentication</p><p>Compressing images</p><p>Resizing</p><p>Converting</p><p>Storing to S3</p><p>Errors</p></nav>
<article class="card"><h1>Compressing images</h1><p>${para}</p><p>${para}</p>
<pre>curl https://api.example.com/shrink \\
  --user api:YOUR_API_KEY \\
  --data-binary @unoptimized.png \\
  --dump-header /dev/stdout</pre>
<p>The response carries a <code>Location</code> header; fetch it to download the result, or post options to it.</p>
<table><tr><th>Status</th><th>Meaning</th></tr><tr><td>201</td><td>Created</td></tr><tr><td>415</td><td>Unsupported media type</td></tr><tr><td>429</td><td>Monthly limit reached</td></tr></table>
</article></main></body></html>`;
}

function settingsPage(): string {
  const field = (label: string, value: string) =>
    `<label style="display:block;margin:12px 0 4px;font-size:14px">${label}</label><input value="${value}" style="width:100%;padding:8px;border:1px solid #d1d5db;border-radius:6px;font-size:14px">`;
  return `<!doctype html><html><head><meta charset="utf-8"><style>${PAGE_STYLE}</style></head><body>
<header><b>Settings</b><span>Profile</span><span>Billing</span><span>API keys</span></header>
<main style="grid-template-columns: 1fr 1fr">
<form class="card"><h2>Profile</h2>${field('Name', 'Ada Lovelace')}${field('E-mail', 'ada@example.com')}${field('Company', 'Analytical Engines Ltd')}
<p><label><input type="checkbox" checked> Send me the monthly usage report</label></p><button class="btn">Save changes</button></form>
<div class="card"><h2>API keys</h2><table><tr><th>Key</th><th>Created</th><th></th></tr>
<tr><td><code>sk_live_…8f2a</code></td><td>2024-05-06</td><td class="bad">Revoke</td></tr>
<tr><td><code>sk_test_…77c1</code></td><td>2024-06-01</td><td class="bad">Revoke</td></tr></table>
<p style="background:#fef3c7;padding:10px;border-radius:6px">Keys are shown once. Store them in a secret manager.</p></div>
</main></body></html>`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { dir, manifest } = await ensureCorpus();
  console.log(`${dir} (${manifest.entries.length} images)`);
}
