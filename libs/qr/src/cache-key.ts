import { createHash } from 'node:crypto';
import type { RenderCustomizations } from './model.js';

export interface CacheKeyParts {
  /** The logo's bytes, or a hash of them: a logo replaced under the same id changes the key. */
  logo?: Buffer | string;
  format?: 'svg' | 'png';
  size?: number;
}

/** JSON with object keys sorted, so two equal customizations written in another order give one key. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The key of a rendered image: sha256 (base64url) of the content, the customizations, the logo and the output. */
export function qrCacheKey(content: string, customizations: RenderCustomizations, parts: CacheKeyParts = {}): string {
  const logo =
    parts.logo === undefined
      ? null
      : typeof parts.logo === 'string'
        ? parts.logo
        : createHash('sha256').update(parts.logo).digest('hex');
  return createHash('sha256')
    .update(canonical({ content, customizations, logo, format: parts.format ?? null, size: parts.size ?? null }))
    .digest('base64url');
}
