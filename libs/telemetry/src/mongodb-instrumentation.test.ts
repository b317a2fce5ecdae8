import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { createMongoDBInstrumentation, scrubbedStatement } from './mongodb-instrumentation.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({
  sampler: new AlwaysOnSampler(),
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  context.disable();
  contextManager.disable();
});

/** The driver's Connection.command (mongodb ≥ 6.4) as the instrumentation wraps it, over a fake command. */
function wrappedCommand() {
  const instrumentation = createMongoDBInstrumentation();
  instrumentation.disable();
  instrumentation.setTracerProvider(provider);
  const patch = (
    instrumentation as unknown as { _getV4PatchCommandPromise(): (original: unknown) => unknown }
  )._getV4PatchCommandPromise();
  const original = vi.fn(() => Promise.resolve({ ok: 1 }));
  const command = patch(original) as (this: unknown, ns: unknown, cmd: unknown) => Promise<unknown>;
  const connection = { address: '127.0.0.1:27017', id: 1 };
  const tracer = (instrumentation as unknown as { tracer: Tracer }).tracer;
  const startSpan = vi.spyOn(tracer, 'startSpan');
  const find = () => command.call(connection, { db: 'platform', collection: 'users' }, { find: 'users', filter: {} });
  return { find, original, startSpan };
}

describe('the MongoDB instrumentation', () => {
  it('records a command span under a recording parent', async () => {
    const { find, original, startSpan } = wrappedCommand();
    const parent = provider.getTracer('test').startSpan('parent');
    await context.with(trace.setSpan(context.active(), parent), find);
    parent.end();
    expect(original).toHaveBeenCalledTimes(1);
    expect(startSpan).toHaveBeenCalledTimes(1);
    const span = exporter.getFinishedSpans().find((s) => s.name !== 'parent');
    expect(span?.attributes['db.collection.name']).toBe('users');
    expect(span?.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
  });

  it('starts no span under a parent that records nothing, nor without a parent', async () => {
    const { find, original, startSpan } = wrappedCommand();
    const unsampled = trace.wrapSpanContext({
      traceId: '0af7651916cd43dd8448eb211c80319c',
      spanId: 'b7ad6b7169203331',
      traceFlags: 0,
    });
    await context.with(trace.setSpan(context.active(), unsampled), find);
    await find();
    expect(original).toHaveBeenCalledTimes(2);
    expect(startSpan).not.toHaveBeenCalled();
  });

  it('writes the statement with every value hidden, a repeated object marked rather than walked twice', () => {
    const command = {
      insert: 'users',
      documents: [{ _id: 'u1', email: 'a@example.com', tags: ['x'], nested: { n: 1 } }],
    };
    expect(scrubbedStatement(command)).toBe(
      '{"insert":"?","documents":[{"_id":"?","email":"?","tags":["?"],"nested":{"n":"?"}}]}',
    );
    const shared = { a: 1 };
    expect(scrubbedStatement({ find: 'x', filter: shared, sort: shared })).toBe(
      '{"find":"?","filter":{"a":"?"},"sort":"[Circular]"}',
    );
  });
});
