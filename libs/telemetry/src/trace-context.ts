import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

// An explicit W3C propagator (not the global one) so trace context crosses Kafka the same way whether or
// not an SDK registered global propagators.
const propagator = new W3CTraceContextPropagator();

type Carrier = Record<string, string>;

const setter: TextMapSetter<Carrier> = {
  set(carrier, key, value) {
    carrier[key] = value;
  },
};
const getter: TextMapGetter<Carrier> = {
  get: (carrier, key) => carrier[key],
  keys: (carrier) => Object.keys(carrier),
};

export function injectTraceContext(carrier: Carrier, ctx: Context = context.active()): Carrier {
  propagator.inject(ctx, carrier, setter);
  return carrier;
}

export function extractTraceContext(carrier: Carrier): Context {
  return propagator.extract(ROOT_CONTEXT, carrier, getter);
}

export function getTracer(name: string) {
  return trace.getTracer(name);
}

export function currentTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}

/** Runs `fn` inside a new span (child of `parent`), recording failure and always ending the span. */
export async function withSpan<T>(
  tracerName: string,
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes; parent?: Context },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const tracer = trace.getTracer(tracerName);
  const parent = options.parent ?? context.active();
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes ?? {} },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (error) {
        span.recordException(error as Error);
        span.setStatus({ code: SpanStatusCode.ERROR });
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
