import { createHash } from 'node:crypto';
import { InputError, NotAcceptableError } from '@platform/errors';
import type { LinksStore } from '@platform/links';
import { renderPng, renderSvg, type RenderCustomizations } from '@platform/qr';
import { metrics } from '@platform/telemetry';

export type QrFormat = 'svg' | 'png';
export const MEDIA_TYPES: Record<QrFormat, string> = { svg: 'image/svg+xml', png: 'image/png' };

const meter = metrics.getMeter('@platform/links-gateway');
const lookups = meter.createCounter('platform.qr.image_cache.lookups', {
  description: 'QR image cache lookups, by result (hit, miss)',
});

/** What a request wants: the raw image, or JSON carrying it. */
export type Wanted = { as: 'raw' | 'json'; format: QrFormat };

/**
 * The spec's negotiation: an image type in Accept wins; `application/json` wants JSON with the image inside in
 * the `format` asked; with no Accept (or only wildcards) `fallback` decides. The first type the client lists
 * that we can answer is taken (q-values are ordered first); an Accept that takes none of them is 406.
 */
export function negotiate(accept: string | undefined, format: QrFormat, fallback: 'raw' | 'json'): Wanted {
  const types = (accept ?? '')
    .split(',')
    .map((part, index) => {
      const [type, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { type: type!.trim(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((t) => t.type && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  if (types.length === 0) return { as: fallback, format };
  for (const { type } of types) {
    if (type === 'image/svg+xml') return { as: 'raw', format: 'svg' };
    if (type === 'image/png') return { as: 'raw', format: 'png' };
    if (type === 'application/json') return { as: 'json', format };
    if (type === 'image/*') return { as: 'raw', format };
    if (type === 'application/*') return { as: 'json', format };
    if (type === '*/*') return { as: fallback, format };
  }
  throw new NotAcceptableError(
    'NOT_ACCEPTABLE',
    'Accept takes none of image/svg+xml, image/png or application/json (or a wildcard).',
  );
}

export function formatParam(raw: unknown): QrFormat {
  if (raw === undefined || raw === '') return 'svg';
  if (raw === 'svg' || raw === 'png') return raw;
  throw new InputError('INVALID_ARG_FORMAT', 'format is svg or png', {
    issues: [{ field: 'format', code: 'invalid', message: 'format is svg or png' }],
  });
}

/**
 * Renders QR images (the SVG renderer, PNG rasterized from its SVG) behind a cache keyed by content: the
 * encoded text, the customizations, the logo (an uploaded logo never changes under its guid) and the format.
 * Bounded by bytes, least recently used first out.
 */
export function createQrImages(store: Pick<LinksStore, 'getQrLogo'>, options: { maxBytes?: number } = {}) {
  const maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
  const cache = new Map<string, Buffer>();
  let bytes = 0;

  function remember(key: string, image: Buffer) {
    if (image.length > maxBytes / 4) return;
    cache.set(key, image);
    bytes += image.length;
    while (bytes > maxBytes) {
      const [oldest, value] = cache.entries().next().value as [string, Buffer];
      cache.delete(oldest);
      bytes -= value.length;
    }
  }

  return {
    async render(
      content: string,
      customizations: RenderCustomizations,
      format: QrFormat,
      organizationId: string,
    ): Promise<Buffer> {
      const logoGuid = customizations.logo?.image_guid ?? null;
      const key = createHash('sha256')
        .update(JSON.stringify([content, customizations, logoGuid, format]))
        .digest('base64url');
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        lookups.add(1, { result: 'hit' });
        return hit;
      }
      lookups.add(1, { result: 'miss' });
      const logo = logoGuid ? await store.getQrLogo(organizationId, logoGuid) : null;
      if (logoGuid && !logo) {
        throw new InputError('INVALID_ARG_LOGO', 'The logo image does not exist.', {
          issues: [{ field: 'render_customizations.logo.image_guid', code: 'invalid', message: 'no such image' }],
        });
      }
      let svg: string;
      try {
        svg = renderSvg(
          content,
          customizations,
          logo ? { logo: { bytes: logo.bytes, mediaType: logo.media_type } } : {},
        );
      } catch (error) {
        // The one input a QR code cannot hold: more content than its version and error-correction level fit.
        if (error instanceof Error && /too big|amount of data/i.test(error.message)) {
          const message = 'content is too long for a QR code with these settings (a lower error_correction fits more)';
          throw new InputError('INVALID_ARG_CONTENT', message, {
            issues: [{ field: 'content', code: 'invalid', message }],
          });
        }
        throw error;
      }
      const image = format === 'svg' ? Buffer.from(svg) : await renderPng(svg);
      remember(key, image);
      return image;
    },
  };
}

export type QrImages = ReturnType<typeof createQrImages>;
