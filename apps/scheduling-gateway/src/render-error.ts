import type { ErrorRenderer } from '@platform/http';
import { defaultStatusFor } from '@platform/http';

const OAUTH_ENDPOINTS = /^\/v2\/auth\/oauth2\//;

/**
 * Faults of the request's own form, wherever they are found (the schema, a member's rule, the availability or
 * booking checks): one code for a client to branch on, as Cal.com answers them all as a bad request; the message
 * names what is wrong.
 */
const BAD_REQUEST_CODES = new Set([
  'validation_failed',
  'invalid_query',
  'invalid_params',
  'invalid_headers',
  'invalid_json',
  'bad_request',
  'bad_url',
  'invalid_availability',
  'invalid_booking',
]);

/**
 * Two error shapes: the OAuth endpoints answer RFC 6749 `{error, error_description}`; the `/v2` API answers
 * the scheduling API's `{status: "error", error: {code, message}}`. 401s from the bearer check carry
 * `WWW-Authenticate` (RFC 6750).
 */
export const renderError: ErrorRenderer = (error, request) => {
  const headers: Record<string, string> = {};
  let statusCode = defaultStatusFor(error.kind);
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.kind === 'unavailable' || error.kind === 'deadline') headers['retry-after'] ??= '1';
  const internal = statusCode >= 500 && error.kind === 'internal';
  const message = internal ? 'An internal error occurred.' : error.message;

  if (OAUTH_ENDPOINTS.test(request.url)) {
    headers['cache-control'] = 'no-store';
    let code = error.code;
    if (
      error.kind === 'input' &&
      ![
        'invalid_grant',
        'invalid_scope',
        'unauthorized_client',
        'unsupported_grant_type',
        'unsupported_token_type',
      ].includes(code)
    ) {
      code = 'invalid_request';
    }
    if (error.kind === 'too_large') {
      statusCode = 400;
      code = 'invalid_request';
    }
    if (statusCode >= 500) code = error.kind === 'internal' ? 'server_error' : 'temporarily_unavailable';
    if (error.kind === 'unauthenticated') {
      code = 'invalid_client';
      if (request.headers.authorization?.toLowerCase().startsWith('basic '))
        headers['www-authenticate'] = 'Basic realm="oauth"';
    }
    return { statusCode, headers, body: { error: code, error_description: message } };
  }

  if (error.kind === 'unauthenticated') {
    headers['www-authenticate'] =
      error.code === 'missing_token' ? 'Bearer realm="api"' : `Bearer realm="api", error="invalid_token"`;
  } else if (error.code === 'insufficient_scope') {
    headers['www-authenticate'] = `Bearer realm="api", error="insufficient_scope"`;
  }
  const code = internal
    ? 'INTERNAL_SERVER_ERROR'
    : error.kind === 'input' && BAD_REQUEST_CODES.has(error.code)
      ? 'BAD_REQUEST'
      : error.code.toUpperCase();
  return { statusCode, headers, body: { status: 'error', error: { code, message } } };
};
