/**
 * A long URL as the shortener takes it: absolute http(s), at most 2 048 characters (what browsers and Bitly
 * accept in practice; longer ones are refused rather than stored), not a link of one of our own short domains
 * (a short link to a short link is a redirect loop waiting to happen), no credentials in it.
 */
export const MAX_LONG_URL_LENGTH = 2048;

export type LongUrlProblem = 'INVALID_ARG_LONG_URL' | 'ALREADY_A_SHORTLINK';

export type LongUrlResult = { ok: true; url: string } | { ok: false; problem: LongUrlProblem; detail: string };

export function readLongUrl(raw: unknown, ownDomains: ReadonlySet<string>): LongUrlResult {
  const invalid = (detail: string): LongUrlResult => ({ ok: false, problem: 'INVALID_ARG_LONG_URL', detail });
  if (typeof raw !== 'string' || raw.trim() === '') return invalid('long_url is required');
  const text = raw.trim();
  if (text.length > MAX_LONG_URL_LENGTH) return invalid(`long_url is longer than ${MAX_LONG_URL_LENGTH} characters`);
  // Bitly takes "example.com/x" as http://example.com/x: a scheme-less URL with a dotted host is completed.
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return invalid('long_url is not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return invalid('long_url must be an http or https URL');
  if (!url.hostname || (!url.hostname.includes('.') && url.hostname !== 'localhost' && !url.hostname.startsWith('['))) {
    return invalid('long_url has no valid host');
  }
  if (url.username || url.password) return invalid('long_url must not carry credentials');
  if (ownDomains.has(url.hostname.toLowerCase()))
    return { ok: false, problem: 'ALREADY_A_SHORTLINK', detail: 'long_url is already a short link' };
  return { ok: true, url: url.toString() };
}
