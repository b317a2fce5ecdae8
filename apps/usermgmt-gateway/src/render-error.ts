import type { ErrorRenderer } from '@platform/http';
import { defaultStatusFor } from '@platform/http';

/**
 * The real user-management API's error body: `{ code, message }`, plus `errors: [{ field, code, message }]`
 * for invalid fields (422). 5xx bodies never carry internals.
 */
export const renderError: ErrorRenderer = (error) => {
  const headers: Record<string, string> = {};
  let statusCode = defaultStatusFor(error.kind);
  if (error.kind === 'input' && error.issues.length > 0) statusCode = 422;
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  if (error.kind === 'unavailable' || error.kind === 'deadline') headers['retry-after'] ??= '1';
  const body: Record<string, unknown> = {
    code: statusCode >= 500 && error.kind === 'internal' ? 'internal_error' : error.code,
    message: statusCode >= 500 && error.kind === 'internal' ? 'An internal error occurred.' : error.message,
  };
  if (error.issues.length > 0) body['errors'] = error.issues;
  return { statusCode, body, headers };
};
