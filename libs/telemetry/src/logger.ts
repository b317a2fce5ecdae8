import { trace } from '@opentelemetry/api';
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** Paths that may carry credentials; pino replaces them before anything is written. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.secret',
  '*.client_secret',
  '*.password',
  '*.api_key',
  '*.token',
];

/** A logger writing JSON lines to standard output, or appending to the file `destination` names. */
export function createLogger(options: { name: string; level?: string; destination?: string }): Logger {
  const stream = options.destination
    ? pino.destination({ dest: options.destination, sync: true, mkdir: true })
    : undefined;
  return pino(
    {
      name: options.name,
      level: options.level ?? 'info',
      redact: { paths: REDACT, censor: '[redacted]' },
      base: { service: options.name },
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        if (/^0+$/.test(traceId)) return {};
        return { trace_id: traceId, span_id: spanId };
      },
    },
    stream,
  );
}
