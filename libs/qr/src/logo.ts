import sharp from 'sharp';

export const LOGO_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml'] as const;
export type LogoMediaType = (typeof LOGO_MEDIA_TYPES)[number];

export const MAX_LOGO_BYTES = 1024 * 1024;
/** Largest width and height of a logo, in pixels (an SVG at its own size, 72 dpi). */
export const MAX_LOGO_SIDE = 4096;

export type LogoCheck =
  { ok: true; mediaType: LogoMediaType; width: number; height: number } | { ok: false; problem: string };

/** Raster types by their signature only; a declared Content-Type is never trusted. */
function rasterType(bytes: Buffer): LogoMediaType | undefined {
  if (bytes.length >= 8 && bytes.readUInt32BE(0) === 0x89504e47 && bytes.readUInt32BE(4) === 0x0d0a1a0a)
    return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.toString('latin1', 0, 6))) return 'image/gif';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}

/** Whatever could run script, reach outside the image, or expand entities is refused; nothing is rewritten. */
const SVG_REFUSED: Array<[RegExp, string]> = [
  [/<!DOCTYPE|<!ENTITY/i, 'a DOCTYPE or ENTITY declaration'],
  [/<script\b/i, 'a <script> element'],
  [/<foreignObject\b/i, 'a <foreignObject> element'],
  [/<(?:iframe|embed|object|audio|video|handler|listener)\b/i, 'embedded content'],
  [/[\s"'/]on[a-z]+\s*=/i, 'an event handler attribute'],
  [/(?:java|vb)script\s*:/i, 'a script URL'],
  [/\bdata:(?!image\/(?:png|jpeg|gif|webp)[;,])/i, 'a data: URL that is not a raster image'],
  [/attributeName\s*=\s*["']?(?:xlink:)?href/i, 'an animated link'],
  [/@import\b/i, 'a CSS @import'],
  [/<\?xml-stylesheet/i, 'an external stylesheet'],
];

/** The only references an SVG logo may hold: a fragment of itself, or an inline raster image. */
const INSIDE = /^(?:#|data:image\/(?:png|jpeg|gif|webp)[;,])/i;
const REFERENCES = [/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*))/gi, /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*))/gi];

function outsideReference(svg: string): boolean {
  return REFERENCES.some((pattern) =>
    [...svg.matchAll(pattern)].some((m) => !INSIDE.test((m[1] ?? m[2] ?? m[3] ?? '').trim())),
  );
}

function svgText(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8').replace(/^\ufeff/, '');
  const head = text.trimStart().slice(0, 1024);
  if (!/^<(?:\?xml|svg|!--)/i.test(head) || !/<svg[\s>]/i.test(text)) return undefined;
  return text;
}

/** The type of logo bytes, or why they cannot be one: raster by signature, or an SVG without active content. */
export function logoType(bytes: Buffer): { mediaType: LogoMediaType } | { problem: string } {
  if (bytes.length === 0) return { problem: 'The image is empty.' };
  if (bytes.length > MAX_LOGO_BYTES) return { problem: `The image is larger than ${MAX_LOGO_BYTES / 1024} KiB.` };
  const raster = rasterType(bytes);
  if (raster) return { mediaType: raster };
  const svg = svgText(bytes);
  if (svg === undefined) return { problem: 'The image is not PNG, JPEG, WebP, GIF or SVG.' };
  for (const [pattern, what] of SVG_REFUSED) if (pattern.test(svg)) return { problem: `The SVG image has ${what}.` };
  if (outsideReference(svg))
    return {
      problem:
        'The SVG image has a reference outside itself (only #fragments and inline PNG, JPEG, GIF or WebP data: are allowed).',
    };
  return { mediaType: 'image/svg+xml' };
}

/**
 * Checks an uploaded logo: at most MAX_LOGO_BYTES, a PNG, JPEG, WebP or GIF (by its bytes) that decodes within
 * MAX_LOGO_SIDE, or an SVG with no script, event handler, foreignObject, entity or outside reference. A
 * declared type that disagrees with the bytes is refused too.
 */
export async function validateLogo(bytes: Buffer, declaredType?: string): Promise<LogoCheck> {
  const type = logoType(bytes);
  if ('problem' in type) return { ok: false, problem: type.problem };
  const declared = declaredType?.split(';')[0]?.trim().toLowerCase();
  if (declared && declared !== type.mediaType && !(declared === 'image/jpg' && type.mediaType === 'image/jpeg')) {
    return { ok: false, problem: `The image was sent as ${declared} but is ${type.mediaType}.` };
  }
  try {
    const image = sharp(bytes, { limitInputPixels: MAX_LOGO_SIDE * MAX_LOGO_SIDE });
    const { width, height } = await image.metadata();
    if (!width || !height) return { ok: false, problem: 'The image has no size.' };
    if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE)
      return { ok: false, problem: `The image is larger than ${MAX_LOGO_SIDE}x${MAX_LOGO_SIDE} pixels.` };
    // Decoding a thumbnail proves the whole image decodes, not only its header.
    await image.resize(16, 16, { fit: 'inside' }).raw().toBuffer();
    return { ok: true, mediaType: type.mediaType, width, height };
  } catch {
    return { ok: false, problem: `The image is not a valid ${type.mediaType.slice('image/'.length).toUpperCase()}.` };
  }
}
