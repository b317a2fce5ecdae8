import type { ErrorKind } from '@platform/errors';
import { defaultStatusFor, type ErrorRenderer } from '@platform/http';

const CATEGORY: Record<ErrorKind, string> = {
  input: 'BadRequest',
  unauthenticated: 'Unauthorized',
  not_allowed: 'Forbidden',
  not_found: 'NotFound',
  method_not_allowed: 'MethodNotAllowed',
  not_acceptable: 'NotAcceptable',
  conflict: 'Conflict',
  unprocessable: 'UnprocessableEntity',
  too_large: 'PayloadTooLarge',
  unsupported_media_type: 'UnsupportedMediaType',
  rate_limited: 'TooManyRequests',
  internal: 'InternalServerError',
  unavailable: 'InternalServerError',
  deadline: 'InternalServerError',
};

/** The image API's error body: `{ error, message }` (error is a short category). 5xx never carry internals. */
export const renderError: ErrorRenderer = (error) => {
  const statusCode = defaultStatusFor(error.kind);
  const headers: Record<string, string> = {};
  if (error.kind === 'unauthenticated') headers['www-authenticate'] = 'Basic realm="images"';
  if (error.kind === 'unavailable' || error.kind === 'deadline') headers['retry-after'] = '1';
  // The router's 414 (libs/http) is an input error by kind; Tinify names each status by its reason phrase.
  const category = error.code === 'uri_too_long' ? 'URITooLong' : CATEGORY[error.kind];
  const message =
    error.kind === 'internal'
      ? 'An internal error occurred. Please try again later.'
      : error.kind === 'deadline'
        ? 'The image took too long to process. Please try again later.'
        : error.message;
  return { statusCode, headers, body: { error: category, message } };
};
