import { isIP } from 'node:net';
import { InputError } from '@platform/errors';

/**
 * Syntax checks for a user-given URL at the API edge. Where it resolves to is checked again at
 * connect time by the guard (DNS can change between now and then).
 */
export function parsePublicUrl(value: string, field: string, options: { maxLength?: number } = {}): URL {
  const issue = (message: string) =>
    new InputError('invalid_url', message, { issues: [{ field, code: 'invalid_url', message }] });
  if (value.length > (options.maxLength ?? 2048))
    throw issue(`${field} must be at most ${options.maxLength ?? 2048} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw issue(`${field} must be a valid URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw issue(`${field} must use http or https`);
  if (url.username || url.password) throw issue(`${field} must not contain credentials`);
  if (!url.hostname) throw issue(`${field} must have a host`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0 && !/^[a-z0-9.-]+$/i.test(host)) throw issue(`${field} has an invalid host`);
  return url;
}
