import { afterAll, describe, expect, it } from 'vitest';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { startTelemetry } from './sdk.js';
import { currentTraceId, extractTraceContext, injectTraceContext, withSpan } from './trace-context.js';

const exporter = new InMemorySpanExporter();
const telemetry = startTelemetry({
  serviceName: 'sampling-test',
  exporter,
  autoInstrument: false,
  traceSampleRatio: 0,
});

afterAll(() => telemetry.shutdown());

describe('trace sampling', () => {
  it('records no new trace at ratio 0, yet gives it a trace id for logs and the next hop', async () => {
    let traceId: string | undefined;
    let headers: Record<string, string> = {};
    await withSpan('test', 'unsampled', {}, async () => {
      traceId = currentTraceId();
      headers = injectTraceContext({});
    });
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(headers['traceparent']).toBe(`00-${traceId}-${headers['traceparent']!.split('-')[2]}-00`);
    expect(exporter.getFinishedSpans().map((s) => s.name)).not.toContain('unsampled');
  });

  it("follows a sender's decision to record, whatever its own ratio", async () => {
    const sampled = extractTraceContext({ traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
    let recording = false;
    await withSpan('test', 'child of a sampled trace', { parent: sampled }, async (span) => {
      recording = span.isRecording();
    });
    expect(recording).toBe(true);
    const unsampled = extractTraceContext({ traceparent: '00-0af7651916cd43dd8448eb211c80319d-b7ad6b7169203331-00' });
    await withSpan('test', 'child of an unsampled trace', { parent: unsampled }, async (span) => {
      recording = span.isRecording();
    });
    expect(recording).toBe(false);
  });
});
