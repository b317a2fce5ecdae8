import type { FastifyRequest } from '@platform/http';
import { SpanKind, SpanStatusCode, extractTraceContext, getTracer } from '@platform/telemetry';

export interface RedirectSpan {
  end(status: number): void;
  fail(error: unknown): void;
}

export interface RedirectTracing {
  /** A span for this request when it is sampled: a random `ratio` of redirects, and every request that arrives with trace context. */
  start(request: FastifyRequest): RedirectSpan | undefined;
}

/**
 * The redirector's own server spans. The process does not trace every incoming request (a span, its context
 * and its attributes cost more than the redirect itself); it traces a sample, and continues any trace a caller
 * started (the SDK's sampler then decides on the parent's flag).
 */
export function createRedirectTracing(options: { ratio: number }): RedirectTracing {
  const tracer = getTracer('@platform/redirector');
  return {
    start(request) {
      const traceparent = request.headers.traceparent;
      if (traceparent === undefined && (options.ratio <= 0 || Math.random() >= options.ratio)) return undefined;
      const carrier: Record<string, string> = {};
      if (traceparent !== undefined) carrier['traceparent'] = String(traceparent);
      if (request.headers.tracestate !== undefined) carrier['tracestate'] = String(request.headers.tracestate);
      const parent = extractTraceContext(carrier);
      const span = tracer.startSpan(
        'GET /{hash}',
        {
          kind: SpanKind.SERVER,
          attributes: {
            'http.request.method': request.method,
            'http.route': '/{hash}',
            'server.address': request.host,
            'url.path': request.url.split('?')[0],
          },
        },
        parent,
      );
      return {
        end(status) {
          span.setAttribute('http.response.status_code', status);
          span.end();
        },
        fail(error) {
          span.recordException(error as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.setAttribute('http.response.status_code', 500);
          span.end();
        },
      };
    },
  };
}
