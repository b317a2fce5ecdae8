import { TraceFlags, context, trace } from '@opentelemetry/api';

/** Every value of a command replaced by '?', as the MongoDB instrumentation's default serializer writes it. */
function scrubbed(command: Record<string, unknown>): string {
  const seen = new WeakSet<object>();
  return JSON.stringify(command, (_key, value: unknown) => {
    if (typeof value !== 'object' || value === null) return '?';
    if (seen.has(value)) return '[Circular]';
    seen.add(value);
    return value;
  });
}

/**
 * `db.query.text` for the MongoDB instrumentation, made only for a span that will be recorded. The
 * instrumentation makes the text before it starts the span, on every operation, with a JSON.stringify whose
 * replacer walks the whole command (every document of an insert). The sampler is parent-based, so a command's
 * span is recorded only when its parent is sampled: for the unsampled majority of traces the text is skipped.
 */
export function mongoStatementIfSampled(command: Record<string, unknown>): string {
  const parent = trace.getSpan(context.active());
  if (!parent) return '';
  const sampled = parent.isRecording() || (parent.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;
  return sampled ? scrubbed(command) : '';
}
