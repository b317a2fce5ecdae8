import {
  InputError,
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  isPlatformError,
  toPlatformError,
  type PlatformError,
} from '@platform/errors';
import { defaultStatusFor, type ErrorRenderer, type FastifyReply, type FastifyRequest } from '@platform/http';
import { pageViewer, type Auth } from './auth.js';
import { csrfFailure } from './form-protection.js';
import { errorPage } from './pages/error.page.js';
import { sendPage } from './respond.js';

/** Fastify's own errors (body limits, unreadable bodies) and the CSRF plugin's as domain errors. */
function toPageError(error: unknown): PlatformError {
  if (isPlatformError(error)) return error;
  const refused = csrfFailure(error);
  if (refused) return refused;
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode;
  if (statusCode === 413) return new PayloadTooLargeError('payload_too_large', 'The form is too large.');
  if (statusCode === 415) return new UnsupportedMediaTypeError('unsupported_media_type', 'Unsupported form encoding.');
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    return new InputError('bad_request', 'The request could not be read.');
  }
  return toPlatformError(error);
}

function pageMessage(error: PlatformError): string {
  if (error.kind === 'internal') return 'An internal error occurred.';
  if (error.kind === 'unavailable' || error.kind === 'deadline')
    return 'The service is busy right now; please try again in a moment.';
  return error.message;
}

/** Errors of the web routes as HTML pages (the http lib renders JSON). */
export function htmlErrorHandler(auth: Auth) {
  return (raw: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const error = toPageError(raw);
    const status = defaultStatusFor(error.kind);
    if (status >= 500) request.log.error({ err: raw }, 'request failed');
    else request.log.info({ code: error.code, status }, 'request rejected');
    if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
    return sendPage(
      reply,
      status,
      errorPage({ status, message: pageMessage(error), viewer: pageViewer(auth.viewer(request)) }),
    );
  };
}

/**
 * For the http lib's own not-found handler: the same page, without a session (unknown routes load none), with
 * helmet's headers (its onRequest hooks run first). The 405 and malformed-URL answers that the http lib sends
 * before any hook, as JSON, use it too: they carry no page headers.
 */
export const renderNotFound: ErrorRenderer = (error) => {
  const status = defaultStatusFor(error.kind);
  const message = error.kind === 'not_found' ? 'There is no page at this address.' : pageMessage(error);
  return {
    statusCode: status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: errorPage({ status, message, viewer: null }).value,
  };
};
