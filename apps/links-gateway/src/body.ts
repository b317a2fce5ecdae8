import type { FastifyRequest } from 'fastify';
import { InputError } from '@platform/errors';

/** A 400 naming the member: `INVALID_ARG_<FIELD>` unless a code of its own is given. */
export const invalid = (field: string, message: string, code = `INVALID_ARG_${field.toUpperCase()}`) =>
  new InputError(code, message, { issues: [{ field, code: 'invalid', message }] });

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Bitly's clients send explicit nulls for members they do not set: null is absent. */
export const present = (v: unknown) => v !== undefined && v !== null;

/** The JSON object body (none is an empty one); unknown members are ignored, as Bitly does. */
export function bodyOf(request: FastifyRequest): Record<string, unknown> {
  const body: unknown = request.body;
  if (body === undefined || body === null) return {};
  if (!isObject(body)) throw new InputError('INVALID_BODY', 'The body must be a JSON object.');
  return body;
}

export function stringField(body: Record<string, unknown>, field: string, max: number): string | null {
  const v = body[field];
  if (!present(v)) return null;
  if (typeof v !== 'string' || v.length > max)
    throw invalid(field, `${field} must be a string of at most ${max} characters`);
  return v;
}

/** A list of strings (each 1 to `maxLength` characters, at most `maxItems`), or null when absent. */
export function stringListField(
  body: Record<string, unknown>,
  field: string,
  maxItems: number,
  maxLength: number,
): string[] | null {
  const v = body[field];
  if (!present(v)) return null;
  if (
    !Array.isArray(v) ||
    v.length > maxItems ||
    v.some((t) => typeof t !== 'string' || t.length === 0 || t.length > maxLength)
  ) {
    throw invalid(field, `${field} is a list of at most ${maxItems} strings of 1 to ${maxLength} characters`);
  }
  return v as string[];
}

export function booleanField(body: Record<string, unknown>, field: string): boolean | null {
  const v = body[field];
  if (!present(v)) return null;
  if (typeof v !== 'boolean') throw invalid(field, `${field} is true or false`);
  return v;
}

export const MAX_TAGS = 100;
const YEAR_MS = 366 * 24 * 3600_000;

export function tagsField(body: Record<string, unknown>): string[] | null {
  const v = body['tags'];
  if (!present(v)) return null;
  if (
    !Array.isArray(v) ||
    v.length > MAX_TAGS ||
    v.some((t) => typeof t !== 'string' || t.length === 0 || t.length > 50)
  ) {
    throw invalid('tags', `tags is a list of at most ${MAX_TAGS} strings of 1 to 50 characters`, 'INVALID_TAGS');
  }
  return v as string[];
}

/** `2025-01-28T14:30:00+0000` (Bitly's form) or ISO 8601; at least 5 minutes ahead, at most a year. */
export function expirationField(body: Record<string, unknown>): { at: number | null; clear: boolean } {
  const v = body['expiration_at'];
  if (v === undefined) return { at: null, clear: false };
  if (v === null || v === '') return { at: null, clear: true };
  const at = typeof v === 'string' ? Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : NaN;
  const now = Date.now();
  if (!Number.isFinite(at) || at < now + 5 * 60_000 || at > now + YEAR_MS) {
    throw invalid(
      'expiration_at',
      'expiration_at is a time at least 5 minutes and at most a year from now, such as 2026-01-28T14:30:00+0000',
    );
  }
  return { at, clear: false };
}
