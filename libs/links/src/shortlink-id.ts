/**
 * A short link's id is its domain and back-half, `bit.ly/abc1234` style: in paths it is two segments
 * (`/v4/shortlinks/{domain}/{hash}`), or one URL-encoded segment as some clients send it.
 */
export interface ShortlinkId {
  domain: string;
  hash: string;
}

const DOMAIN =
  /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z][a-z0-9-]{0,62}$|^localhost(?::\d{1,5})?$/;
const HASH = /^[A-Za-z0-9_-]{1,100}$/;

export function parseShortlinkId(raw: string): ShortlinkId | null {
  let text = raw.trim();
  try {
    text = decodeURIComponent(text);
  } catch {
    return null;
  }
  text = text.replace(/^https?:\/\//i, '');
  const slash = text.indexOf('/');
  if (slash < 1) return null;
  const domain = text.slice(0, slash).toLowerCase();
  const hash = text.slice(slash + 1);
  if (!DOMAIN.test(domain) || !HASH.test(hash)) return null;
  return { domain, hash };
}

export const formatShortlinkId = (id: ShortlinkId) => `${id.domain}/${id.hash}`;

/** Branded short domains: host names of at most 32 characters (the spec's limit). */
export function isBrandedDomain(domain: string): boolean {
  return domain.length <= 32 && DOMAIN.test(domain);
}
