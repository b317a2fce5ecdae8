import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runNodeScript } from '../support/node-script.js';

const TESTS = join(dirname(fileURLToPath(import.meta.url)), '..');

interface ExportedSpan {
  name: string;
  traceId: string;
  attributes: Record<string, unknown>;
}

/**
 * A process started as every app's runtime starts @platform/telemetry (the instrumentations patch the driver
 * as it loads, which an in-process test cannot see), reading the store under a sampled trace, an unsampled
 * one and none, with every recorded span exported to its stdout.
 */
async function spansOfProbe(): Promise<ExportedSpan[]> {
  const script = `
    import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
    import { startTelemetry, withSpan, extractTraceContext } from '@platform/telemetry';
    const exporter = new InMemorySpanExporter();
    const telemetry = startTelemetry({ serviceName: 'mongodb-spans-test', exporter, traceSampleRatio: 0 });
    const { default: mongoose } = await import('mongoose');
    const connection = await mongoose.createConnection(process.env.MONGO_URL, { dbName: 'mongodb_spans_test' }).asPromise();
    const probes = connection.db.collection('probes');
    const sampled = extractTraceContext({ traceparent: '00-aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa-b7ad6b7169203331-01' });
    const unsampled = extractTraceContext({ traceparent: '00-bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb-b7ad6b7169203331-00' });
    await withSpan('probe', 'sampled', { parent: sampled }, () => probes.findOne({ _id: 'sampled-probe' }));
    await withSpan('probe', 'unsampled', { parent: unsampled }, () => probes.findOne({ _id: 'unsampled-probe' }));
    await probes.findOne({ _id: 'no-trace-probe' });
    await connection.close();
    await new Promise((done) => setTimeout(done, 200));
    const spans = exporter.getFinishedSpans().map((s) => ({
      name: s.name,
      traceId: s.spanContext().traceId,
      attributes: s.attributes,
    }));
    process.stdout.write(JSON.stringify(spans));
    await telemetry.shutdown();
  `;
  const stdout = await runNodeScript(script, { cwd: TESTS, what: 'the probe process' });
  return JSON.parse(stdout) as ExportedSpan[];
}

describe('MongoDB spans', () => {
  it('are recorded, with the scrubbed statement, in a sampled trace only', async () => {
    const spans = await spansOfProbe();
    const find = spans.filter((s) => s.attributes['db.operation.name'] === 'find');
    expect(find).toHaveLength(1);
    expect(find[0]!.traceId).toBe('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    expect(find[0]!.attributes['db.collection.name']).toBe('probes');
    expect(find[0]!.attributes['db.query.text']).toContain('"_id":"?"');
    expect(spans.some((s) => s.traceId === 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')).toBe(false);
  }, 60_000);
});
