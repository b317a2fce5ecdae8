export const DEFAULT_LANDING = '/settings/developer/oauth';

/**
 * Only a path on this site: starts with one "/" (not "//" nor "/\", which browsers read as another host),
 * with no control characters or backslashes anywhere, which some browsers turn into "/".
 */
export function isSafeReturnTo(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 4096) return false;
  if (!value.startsWith('/') || value.startsWith('//')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return false;
  try {
    // A path resolved against a placeholder origin must stay on that origin.
    return new URL(value, 'http://return-to.invalid').origin === 'http://return-to.invalid';
  } catch {
    return false;
  }
}

export function safeReturnTo(value: unknown): string {
  return isSafeReturnTo(value) ? value : DEFAULT_LANDING;
}
