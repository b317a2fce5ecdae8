import { SpanKind, extractTraceContext, getTracer, metrics, withSpan, type Span } from '@platform/telemetry';
import type { MessageMeta } from './headers.js';

const meter = metrics.getMeter('@platform/kafka');

/** Messages handled, by group, type (where handled one by one) and outcome (ok, retried, dead_lettered, handed_over). */
export const processed = meter.createCounter('platform.messaging.processed', {
  description: 'Messages handled, by outcome',
});
export const handlerDuration = meter.createHistogram('platform.messaging.handler.duration', {
  unit: 's',
  description: 'Handler time per attempt',
});
export const batchDuration = meter.createHistogram('platform.messaging.batch.duration', {
  unit: 's',
  description: 'Handler time per batch attempt',
});

/**
 * Runs one message's handler in a consumer span, a child of the trace the message carries (so a command's work
 * shows under the request that sent it, and its log lines carry that trace id), and records its duration.
 */
export async function processMessage<T>(
  where: { topic: string; offset: string; groupId: string; component: string },
  meta: MessageMeta,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  try {
    return await withSpan(
      '@platform/kafka',
      `process ${meta.type}`,
      {
        kind: SpanKind.CONSUMER,
        parent: extractTraceContext(meta.raw),
        attributes: {
          'messaging.system': 'kafka',
          'messaging.destination.name': where.topic,
          'messaging.consumer.group.name': where.groupId,
          'messaging.message.id': meta.id,
          'messaging.kafka.offset': Number(where.offset),
          'platform.component': where.component,
        },
      },
      run,
    );
  } finally {
    handlerDuration.record((performance.now() - started) / 1000, { group: where.groupId, type: meta.type });
  }
}

/**
 * A consumer span for one message of a batch that a handler works on as a whole (one insert for all its
 * messages): a child of the trace the message carries, started when the batch's work starts; the handler ends it
 * once that work is done, and passes its context on with what the message leads to.
 */
export function startBatchMessageSpan(
  batch: { topic: string; size: number; component: string },
  message: { offset: string; meta: MessageMeta },
): Span {
  return getTracer('@platform/kafka').startSpan(
    `process ${message.meta.type}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'kafka',
        'messaging.destination.name': batch.topic,
        'messaging.message.id': message.meta.id,
        'messaging.kafka.offset': Number(message.offset),
        'messaging.batch.message_count': batch.size,
        'platform.component': batch.component,
      },
    },
    extractTraceContext(message.meta.raw),
  );
}
