import { afterAll, describe, expect, it, vi } from 'vitest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTelemetry } from './sdk.js';
import { extractTraceContext, injectTraceContext, withSpan } from './trace-context.js';

const exporter = new InMemorySpanExporter();
const telemetry = startTelemetry({
  serviceName: 'explicit-context-test',
  exporter,
  autoInstrument: false,
  asyncContext: false,
  traceSampleRatio: 1,
});

afterAll(() => telemetry.shutdown());

describe('telemetry without async context', () => {
  it('parents spans only explicitly: nothing follows a callback', async () => {
    const parent = extractTraceContext({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    let insideOuter: Record<string, string> = {};
    await withSpan('test', 'outer', { parent }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      insideOuter = injectTraceContext({});
      await withSpan('test', 'inner', {}, async () => undefined);
    });
    // The processor exports once the resource's detected attributes have settled.
    const spans = await vi.waitFor(() => {
      const finished = exporter.getFinishedSpans();
      if (finished.length < 2) throw new Error(`${finished.length} of 2 spans exported`);
      return finished;
    });
    const outer = spans.find((s) => s.name === 'outer')!;
    const inner = spans.find((s) => s.name === 'inner')!;
    expect(outer.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(outer.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    // No active span inside the callback: no trace context to inject, and a span started there is a root.
    expect(insideOuter).toEqual({});
    expect(inner.parentSpanContext).toBeUndefined();
    expect(inner.spanContext().traceId).not.toBe(outer.spanContext().traceId);
  });
});
