import { safeEqual } from '@platform/secrets';

export const CSRF_FIELD = '_csrf';

/** Constant-time check of the token a form carried against the expected one; absent or empty never matches. */
export function csrfTokenMatches(expected: string | null | undefined, presented: unknown): boolean {
  if (typeof expected !== 'string' || expected.length === 0) return false;
  if (typeof presented !== 'string' || presented.length === 0 || presented.length > 256) return false;
  return safeEqual(expected, presented);
}

/**
 * Defence in depth on top of the token: a POST whose Origin names another site is refused. `Origin: null` is
 * what browsers send on every POST from a page with `Referrer-Policy: no-referrer` (Fetch standard), so it
 * carries no information and is left to the token check.
 */
export function originAllowed(origin: string | undefined, publicOrigin: string): boolean {
  if (origin === undefined || origin === 'null') return true;
  return origin === publicOrigin;
}
