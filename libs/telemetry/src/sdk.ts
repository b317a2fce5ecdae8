import { getNodeAutoInstrumentations } from '@opentelemetry/auto-instrumentations-node';
import diagnostics from 'node:diagnostics_channel';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ROOT_CONTEXT, context, type ContextManager } from '@opentelemetry/api';
import { RPCType, getRPCMetadata } from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK, metrics } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { createMongoDBInstrumentation } from './mongodb-instrumentation.js';
import { memoizeRepeatedRequires } from './require-memo.js';

export interface TelemetryOptions {
  serviceName: string;
  /** OTLP/HTTP endpoint; without it spans are created (trace ids in logs and headers) but not exported. */
  otlpEndpoint?: string | undefined;
  /** Tests pass an in-memory exporter. */
  exporter?: SpanExporter;
  /** Auto-instrumentation patches modules on load; tests that wire spans by hand turn it off. */
  autoInstrument?: boolean;
  /**
   * A span and a duration sample for every incoming HTTP request (the default). A process whose requests are
   * too many and too cheap for that (the redirector) turns it off and traces a sample of them itself.
   */
  traceIncomingHttp?: boolean;
  /**
   * The active span follows every callback and promise (an AsyncLocalStorage: the default). Its price is an
   * init hook on every async resource the process makes, several per HTTP request. A process that parents its
   * spans explicitly (the redirector, whose sampled redirect spans start and end in one synchronous call) turns
   * it off: spans started in a callback then have no implicit parent, and logs written there no trace id.
   */
  asyncContext?: boolean;
  /**
   * The share of new traces that are recorded; a request or message that arrives with a trace follows its
   * sender's decision, so a trace is recorded whole or not at all. Unrecorded spans still carry trace ids into
   * logs, reply headers and Kafka headers. Default DEFAULT_TRACE_SAMPLE_RATIO (TRACE_SAMPLE_RATIO in an app's
   * configuration).
   */
  traceSampleRatio?: number | undefined;
}

/**
 * Recording every span of every request costs the command path a measurable share of its CPU (issue 41); one
 * trace in twenty still shows every path under load, and an error's trace id is in its log line either way.
 */
export const DEFAULT_TRACE_SAMPLE_RATIO = 0.05;

function samplerFor(options: TelemetryOptions) {
  const ratio = Math.min(1, Math.max(0, options.traceSampleRatio ?? DEFAULT_TRACE_SAMPLE_RATIO));
  return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
}

/** Keeps no context across callbacks: `with` runs its function, and the active context is always the root. */
const explicitContextOnly: ContextManager = {
  active: () => ROOT_CONTEXT,
  with: (_context, fn, thisArg, ...args) => fn.call(thisArg, ...args),
  bind: (_context, target) => target,
  enable() {
    return this;
  },
  disable() {
    return this;
  },
};

const discardingExporter: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => undefined,
};

/**
 * Seconds histograms get buckets from 5 ms to 2 minutes. Without a view the SDK's default boundaries (0, 5, 10,
 * 25 ... 10 000) are meant for milliseconds: every handler faster than 5 s would share one bucket. The HTTP
 * server histogram's own advice stops at 10 s, below the images gateway's 90 s command timeout.
 */
const SECONDS_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 15, 30, 60, 90, 120,
];
const secondsHistogram = (instrumentName: string): metrics.ViewOptions => ({
  instrumentName,
  instrumentType: metrics.InstrumentType.HISTOGRAM,
  instrumentUnit: 's',
  aggregation: { type: metrics.AggregationType.EXPLICIT_BUCKET_HISTOGRAM, options: { boundaries: SECONDS_BUCKETS } },
});

/** Where @platform/http publishes each request's matched route pattern (its `route-label.ts`). */
const HTTP_ROUTE_CHANNEL = 'platform.http.route';

/**
 * The HTTP instrumentation reads `http.route` for the span name and the duration metric from the RPC metadata
 * of the request's context when the response finishes, as Express's instrumentation sets it.
 */
function labelHttpRoute(message: unknown): void {
  const rpc = getRPCMetadata(context.active());
  const route = (message as { route?: unknown }).route;
  if (rpc?.type === RPCType.HTTP && typeof route === 'string') rpc.route = route;
}

export type MetricsHandler = (request: IncomingMessage, response: ServerResponse) => void;

export interface Telemetry {
  /** Prometheus text exposition of every metric of the process (served at `/metrics`). */
  metricsHandler: MetricsHandler;
  shutdown(): Promise<void>;
}

/** Must run before the instrumented libraries are imported: `main.ts` imports it first. */
export function startTelemetry(options: TelemetryOptions): Telemetry {
  const processors = [];
  if (options.exporter) processors.push(new SimpleSpanProcessor(options.exporter));
  if (options.otlpEndpoint) {
    const url = `${options.otlpEndpoint.replace(/\/$/, '')}/v1/traces`;
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url, timeoutMillis: 5000 })));
  }
  if (processors.length === 0) {
    // Without a collector, spans are still recorded (and dropped) so that trace ids exist for logs and
    // travel in Kafka headers; explicit processors also keep NodeSDK from defaulting to an OTLP endpoint.
    processors.push(new SimpleSpanProcessor(discardingExporter));
  }
  // Metrics are pulled by Prometheus from the process's own HTTP server, not from a second port.
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const sdk = new NodeSDK({
    sampler: samplerFor(options),
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: processors,
    ...(options.asyncContext === false ? { contextManager: explicitContextOnly } : {}),
    metricReaders: [prometheus],
    views: [secondsHistogram('platform.*'), secondsHistogram('http.server.request.duration')],
    instrumentations:
      options.autoInstrument === false
        ? []
        : [
            getNodeAutoInstrumentations({
              // Noisy or redundant: file and DNS spans, and kafkajs spans (libs/kafka makes its own,
              // carrying the W3C context through message headers).
              '@opentelemetry/instrumentation-fs': { enabled: false },
              '@opentelemetry/instrumentation-dns': { enabled: false },
              '@opentelemetry/instrumentation-net': { enabled: false },
              '@opentelemetry/instrumentation-kafkajs': { enabled: false },
              // Replaced below by one that starts a span only under a recording parent.
              '@opentelemetry/instrumentation-mongodb': { enabled: false },
              ...(options.traceIncomingHttp === false
                ? { '@opentelemetry/instrumentation-http': { disableIncomingRequestInstrumentation: true } }
                : {}),
            }),
            createMongoDBInstrumentation(),
          ],
  });
  sdk.start();
  const unmemoize = options.autoInstrument === false ? undefined : memoizeRepeatedRequires();
  const labelsRoutes = options.autoInstrument !== false && options.traceIncomingHttp !== false;
  if (labelsRoutes) diagnostics.subscribe(HTTP_ROUTE_CHANNEL, labelHttpRoute);
  return {
    metricsHandler: (request, response) => prometheus.getMetricsRequestHandler(request, response),
    async shutdown() {
      if (labelsRoutes) diagnostics.unsubscribe(HTTP_ROUTE_CHANNEL, labelHttpRoute);
      unmemoize?.();
      await sdk.shutdown();
    },
  };
}
