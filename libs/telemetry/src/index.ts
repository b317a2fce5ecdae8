export { createLogger } from './logger.js';
export { onShutdown } from './lifecycle.js';
export type { Logger } from './logger.js';
export { startTelemetry } from './sdk.js';
export type { MetricsHandler, Telemetry, TelemetryOptions } from './sdk.js';
export { injectTraceContext, extractTraceContext, getTracer, withSpan, currentTraceId } from './trace-context.js';
export { SpanKind, SpanStatusCode, context, metrics, trace } from '@opentelemetry/api';
export type { BatchObservableResult, Context, Span } from '@opentelemetry/api';
