/** A query longer than this is not passed on (the destination and the Location header stay bounded). */
export const MAX_PASSED_QUERY = 2048;

/**
 * The destination of a redirect with the short URL's query passed on, as Bitly does: appended to the long URL's
 * own query (both kept, the long URL's first), before its fragment. `marker` (`qr=<id>`, what our QR codes add)
 * is left out. Characters a header cannot carry are percent-encoded; the rest is passed as sent.
 */
export function passQuery(longUrl: string, query: string, marker: string | null): { location: string; passed: string } {
  let pairs = query.split('&').filter((pair) => pair !== '' && pair !== marker);
  const passed = pairs.join('&').replace(/[^\x21-\x7e]|#/g, (c) => encodeURIComponent(c));
  if (passed.length > MAX_PASSED_QUERY) pairs = [];
  if (pairs.length === 0) return { location: longUrl, passed: '' };
  const hash = longUrl.indexOf('#');
  const [base, fragment] = hash === -1 ? [longUrl, ''] : [longUrl.slice(0, hash), longUrl.slice(hash)];
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return { location: `${base}${joiner}${passed}${fragment}`, passed };
}
