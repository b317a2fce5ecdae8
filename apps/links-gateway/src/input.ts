import { InputError } from '@platform/errors';
import { readLongUrl, type Directory } from '@platform/links';
import type { RouteDeps } from './deps.js';

/** A 400 naming the member at fault for a rule the route schema cannot state (it needs data or the clock). */
export const invalid = (field: string, message: string, code = `INVALID_ARG_${field.toUpperCase()}`) =>
  new InputError(code, message, { issues: [{ field, code: 'invalid', message }] });

/** The same moment one calendar year on (29 February to 1 March: the spec's limit is a year, not 366 days). */
function aYearAfter(now: number): number {
  const at = new Date(now);
  at.setUTCFullYear(at.getUTCFullYear() + 1);
  return at.getTime();
}

/** `expiration_at` as sent (the schema checked its form): a time 5 minutes to a year ahead, or empty/null to clear. */
export function expirationOf(raw: string | null | undefined): { at: number | null; clear: boolean } {
  if (raw === undefined) return { at: null, clear: false };
  if (raw === null || raw === '') return { at: null, clear: true };
  const at = Date.parse(raw.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  const now = Date.now();
  if (!Number.isFinite(at) || at < now + 5 * 60_000 || at > aYearAfter(now))
    throw invalid('expiration_at', 'expiration_at must be at least 5 minutes and at most a year from now');
  return { at, clear: false };
}

/**
 * A long URL normalised, refusing one that leads to a domain the platform serves short links on: the default
 * one (with its port, where it has one) or any organization's branded domain. A short link to a short link is a
 * redirect loop waiting to happen, whoever owns the other.
 */
export async function longUrlOf(
  deps: RouteDeps,
  raw: string,
  field = 'long_url',
  directory: Directory = deps.store,
): Promise<string> {
  const read = readLongUrl(raw, new Set());
  if (!read.ok) throw invalid(field, read.detail, read.problem);
  const { host, hostname } = new URL(read.url);
  const served =
    host === deps.defaultDomain || hostname === deps.defaultDomain || (await directory.getDomain(hostname)) !== null;
  if (served) throw invalid(field, `${field} is already a short link`, 'ALREADY_A_SHORTLINK');
  return read.url;
}
