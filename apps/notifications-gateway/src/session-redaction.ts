import { trace } from '@opentelemetry/api';
import type { FastifyRequest } from 'fastify';
import type { Logger } from '@platform/telemetry';
import { SESSION_PARAMETER } from './auth.js';

const REDACTED = 'REDACTED';
const PARAMETER = new RegExp(`([?&]${SESSION_PARAMETER}=)[^&#]*`, 'gi');

/** The URL with the value of every `platform_session_token` query parameter replaced (a browser's session key). */
export function redactSessionParameter(url: string): string {
  return url.includes('?') ? url.replace(PARAMETER, `$1${REDACTED}`) : url;
}

/**
 * The app's logger, whose request lines carry the URL without the session key: Fastify's own `req` serializer
 * with the URL redacted (a logger's serializers take precedence over Fastify's defaults).
 */
export function loggerWithoutSessionKeys(logger: Logger): Logger {
  return logger.child(
    {},
    {
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: redactSessionParameter(request.url),
          host: request.host,
          remoteAddress: request.ip,
          remotePort: request.socket?.remotePort,
        }),
      },
    },
  );
}

/**
 * The HTTP server span's `url.query` without the session key: the instrumentation redacts only its own list of
 * parameters, so the request's span gets the redacted query before it is ended and exported.
 */
export function redactSpanQuery(request: FastifyRequest, _reply: unknown, done: () => void): void {
  const at = request.url.indexOf('?');
  if (at >= 0 && request.url.toLowerCase().includes(SESSION_PARAMETER)) {
    trace.getActiveSpan()?.setAttribute('url.query', redactSessionParameter(request.url).slice(at + 1));
  }
  done();
}
