import { InputError } from '@platform/errors';

function invalid(field: string, message: string): never {
  throw new InputError('invalid_request_parameters', message, {
    issues: [{ field, code: `invalid_${field}`, message }],
  });
}

function parse(value: string, field: string): URL {
  if (value.length > 2048) invalid(field, `${field} must be at most 2048 characters`);
  try {
    return new URL(value);
  } catch {
    invalid(field, `${field} must be a valid URL`);
  }
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** A CORS origin is scheme://host[:port] only; browsers compare it byte for byte, so it is stored normalised. */
export function normaliseOrigin(value: string): string {
  const url = parse(value.trim(), 'origin');
  if (url.protocol !== 'https:' && url.protocol !== 'http:') invalid('origin', 'origin must use http or https');
  if (url.username || url.password) invalid('origin', 'origin must not contain credentials');
  if ((url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) {
    invalid('origin', 'origin must not have a path, query or fragment');
  }
  return url.origin;
}

/**
 * Redirect URIs are matched exactly later, so they are stored as given. HTTPS is required except for
 * local development hosts, and custom schemes (native apps) are allowed; fragments never are (RFC 6749 3.1.2).
 */
export function validateRedirectUri(value: string): string {
  const url = parse(value, 'uri');
  if (url.hash) invalid('uri', 'uri must not contain a fragment');
  if (url.username || url.password) invalid('uri', 'uri must not contain credentials');
  if (url.protocol === 'http:' && !LOCAL_HOSTS.has(url.hostname)) {
    invalid('uri', 'uri must use https (http is allowed for localhost only)');
  }
  if (['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol))
    invalid('uri', 'uri scheme is not allowed');
  return value;
}
