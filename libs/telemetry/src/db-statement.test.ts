import { ROOT_CONTEXT, TraceFlags, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { afterAll, describe, expect, it } from 'vitest';
import { mongoStatementIfSampled } from './db-statement.js';
import { startTelemetry } from './sdk.js';

// Every trace sampled, and the async context that `context.with` needs.
const telemetry = startTelemetry({
  serviceName: 'db-statement-test',
  exporter: new InMemorySpanExporter(),
  autoInstrument: false,
  traceSampleRatio: 1,
});
afterAll(() => telemetry.shutdown());
const recordedSpan = () => trace.getTracer('test').startSpan('parent');

const command = { insert: 'users', documents: [{ _id: 'u1', email: 'a@example.com', tags: ['x'], nested: { n: 1 } }] };
const scrubbedText = '{"insert":"?","documents":[{"_id":"?","email":"?","tags":["?"],"nested":{"n":"?"}}]}';

const under = (span: ReturnType<typeof trace.wrapSpanContext>) =>
  context.with(trace.setSpan(ROOT_CONTEXT, span), () => mongoStatementIfSampled(command));

const spanContext = (traceFlags: TraceFlags) => ({
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags,
  isRemote: true,
});

describe('mongoStatementIfSampled', () => {
  it('writes the command with its values hidden under a recorded span', () => {
    const recorded = recordedSpan();
    expect(recorded.isRecording()).toBe(true);
    expect(under(recorded)).toBe(scrubbedText);
  });

  it('writes it under a sampled remote parent, whose child is recorded too', () => {
    expect(under(trace.wrapSpanContext(spanContext(TraceFlags.SAMPLED)))).toBe(scrubbedText);
  });

  it('skips the work under an unsampled parent, whose child records nothing', () => {
    expect(under(trace.wrapSpanContext(spanContext(TraceFlags.NONE)))).toBe('');
  });

  it('marks a repeated object instead of walking it twice', () => {
    const shared = { a: 1 };
    const recorded = recordedSpan();
    const text = context.with(trace.setSpan(ROOT_CONTEXT, recorded), () =>
      mongoStatementIfSampled({ find: 'x', filter: shared, sort: shared }),
    );
    expect(text).toBe('{"find":"?","filter":{"a":"?"},"sort":"[Circular]"}');
  });
});
