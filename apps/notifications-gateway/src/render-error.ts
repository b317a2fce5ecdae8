import type { FastifyRequest } from 'fastify';
import type { ErrorKind, PlatformError } from '@platform/errors';
import { INVALID_QUERY_MESSAGE } from '@platform/notifications';
import { defaultStatusFor, type ErrorRenderer } from '@platform/http';

/** Coder's messages where the client sees a framework error (they are what its SDK and UI show). */
const MESSAGES: Partial<Record<ErrorKind, string>> = {
  unauthenticated: 'You are signed out or your session has expired. Please sign in again to continue.',
  not_allowed: 'Forbidden.',
  not_found: 'Resource not found or you do not have access to this resource',
  internal: 'An internal error occurred.',
};

const FORBIDDEN_DETAIL =
  "You don't have permission to view this content. If you believe this is a mistake, please contact your administrator or try signing in with different credentials.";

/** Coder's messages for a request refused by its route schema, by the part at fault. */
const SCHEMA_MESSAGES: Record<string, (error: PlatformError, request: FastifyRequest) => string> = {
  validation_failed: () => 'Invalid request body',
  invalid_query: () => INVALID_QUERY_MESSAGE,
  // The only path parameter with a format is a notification id, and Coder names the value.
  invalid_params: (error, request) => {
    const field = error.issues[0]?.field ?? '';
    return `Invalid UUID "${String((request.params as Record<string, unknown>)[field] ?? '').slice(0, 64)}".`;
  },
  invalid_headers: (error) => `Invalid ${error.issues[0]?.field ?? ''} header.`,
};

/**
 * The standard response object: `{message, detail?, validations?: [{field, detail}]}`, empty members left out.
 * An error's own message goes into `detail` where Coder puts a fixed message first; 5xx never carry internals.
 */
export const renderError: ErrorRenderer = (error, request) => {
  const statusCode = defaultStatusFor(error.kind);
  const headers: Record<string, string> = {};
  if (error.kind === 'unavailable' || error.kind === 'deadline') headers['retry-after'] = '1';
  const body: { message: string; detail?: string; validations?: Array<{ field: string; detail: string }> } = {
    message: error.message,
  };
  const schemaMessage = SCHEMA_MESSAGES[error.code]?.(error, request);
  if (schemaMessage !== undefined) {
    body.message = schemaMessage;
  } else if (error.code === 'invalid_json') {
    body.message = 'Request body must be valid JSON.';
    body.detail = error.message;
  } else if (error.kind === 'unauthenticated' || error.kind === 'not_allowed') {
    body.message = MESSAGES[error.kind]!;
    body.detail = error.kind === 'not_allowed' && error.code === 'forbidden' ? FORBIDDEN_DETAIL : error.message;
  } else if (statusCode >= 500) {
    body.message = error.kind === 'internal' ? MESSAGES.internal! : error.message;
  }
  if (error.issues.length > 0 && error.code !== 'invalid_params')
    body.validations = error.issues.map((i) => ({ field: i.field, detail: i.message }));
  return { statusCode, headers, body };
};
