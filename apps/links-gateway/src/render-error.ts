import type { FastifyRequest } from 'fastify';
import type { ErrorKind, PlatformError } from '@platform/errors';
import { defaultStatusFor, type ErrorRenderer } from '@platform/http';

/** Bitly's message for a status when the error has no UPPER_SNAKE code of its own. */
const GENERIC: Record<number, string> = {
  400: 'BAD_REQUEST',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  406: 'NOT_ACCEPTABLE',
  409: 'CONFLICT',
  410: 'GONE',
  413: 'BAD_REQUEST',
  415: 'BAD_REQUEST',
  422: 'UNPROCESSABLE_ENTITY',
  429: 'RATE_LIMIT_EXCEEDED',
  500: 'INTERNAL_ERROR',
  503: 'TEMPORARILY_UNAVAILABLE',
  504: 'TEMPORARILY_UNAVAILABLE',
};

/** Bitly answers a missing or bad token with 403 FORBIDDEN, never 401 (its clients expect that). */
const STATUS: Partial<Record<ErrorKind, number>> = { unauthenticated: 403, rate_limited: 429 };

const SCHEMA_CODES = new Set(['validation_failed', 'invalid_query', 'invalid_params']);

/** A route schema's refusal as Bitly names it: `INVALID_ARG_<FIELD>` after the first field at fault. */
function schemaCode(error: PlatformError): string | null {
  const field = error.issues[0]?.field;
  if (!SCHEMA_CODES.has(error.code) || !field) return null;
  return `INVALID_ARG_${field
    .split('.')[0]!
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_')}`;
}

/** Bitly's `error_code` of a field: `missing` when it was not sent, `invalid` otherwise. */
const errorCodeOf = (code: string) => (code === 'missing' || code.endsWith('_required') ? 'missing' : 'invalid');

/** The collection a path is about (`resource` in the error body). */
export function resourceOf(request: FastifyRequest): string {
  const segment = (request.routeOptions.url ?? request.url).split('?')[0]!.split('/').filter(Boolean)[1] ?? '';
  return segment === 'shorten' || segment === 'expand' || segment === 'bitlinks' ? 'shortlinks' : segment;
}

/**
 * Bitly's error body: `{message, description, resource, errors: [{field, error_code, message}]}` on every error,
 * `message` the UPPER_SNAKE code (clients key on it), `errors` empty when no field is at fault. 5xx never carry
 * internals.
 */
export const renderError: ErrorRenderer = (error, request) => {
  const statusCode = error.code === 'GONE' ? 410 : (STATUS[error.kind] ?? defaultStatusFor(error.kind));
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  const own = /^[A-Z][A-Z0-9_]+$/.test(error.code) ? error.code : schemaCode(error);
  const message =
    statusCode >= 500 ? (GENERIC[statusCode] ?? 'INTERNAL_ERROR') : (own ?? GENERIC[statusCode] ?? 'BAD_REQUEST');
  const description =
    statusCode >= 500
      ? 'An internal error occurred.'
      : error.kind === 'unauthenticated' || (error.kind === 'not_allowed' && !own)
        ? 'You are currently forbidden to access this resource.'
        : error.message;
  const errors =
    statusCode >= 500
      ? []
      : error.issues.map((i) => ({ field: i.field, error_code: errorCodeOf(i.code), message: i.message }));
  return { statusCode, headers, body: { message, resource: resourceOf(request), description, errors } };
};
