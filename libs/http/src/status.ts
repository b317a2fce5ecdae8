import type { ErrorKind } from '@platform/errors';

const statuses: Record<ErrorKind, number> = {
  input: 400,
  unauthenticated: 401,
  not_allowed: 403,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  conflict: 409,
  unprocessable: 422,
  too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  deadline: 504,
};

export function defaultStatusFor(kind: ErrorKind): number {
  return statuses[kind];
}
