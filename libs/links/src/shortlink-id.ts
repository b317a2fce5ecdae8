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

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';

/**
 * The ids parseShortlinkId takes, as a JSON Schema `pattern`, for bodies that name a short link: `domain/hash`,
 * an `http(s)://` prefix allowed. (The parser also decodes percent-escapes and trims; a body has no need to.)
 * With `SHORTLINK_ID_MAX_LENGTH` it also keeps the domain within 253 characters.
 */
export const SHORTLINK_ID_PATTERN = `^(?:[Hh][Tt][Tt][Pp][Ss]?://)?(?:(?:${LABEL}\\.)+[A-Za-z][A-Za-z0-9-]{0,62}|[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt](?::[0-9]{1,5})?)/[A-Za-z0-9_-]{1,100}$`;
export const SHORTLINK_ID_MAX_LENGTH = 254;

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
