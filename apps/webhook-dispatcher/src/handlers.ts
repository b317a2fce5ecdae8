import { MessageTypeNames, type RedeliverDeliveries, type RequestDelivery } from '@platform/contracts';
import { startBatchMessageSpan, type IncomingBatch } from '@platform/kafka';
import type { LeaseQueue, QueuedItem } from '@platform/redis';
import type { Logger, Span } from '@platform/telemetry';
import type { DeliveryStore } from '@platform/webhooks';

export type DeliveryCommand = typeof MessageTypeNames.RequestDelivery | typeof MessageTypeNames.RedeliverDeliveries;

export interface DeliveryHandlerDeps {
  store: Pick<DeliveryStore, 'enqueueMany' | 'redeliver'>;
  queue: Pick<LeaseQueue, 'schedule'>;
  scheduler: { wake(): void };
  logger: Logger;
}

/**
 * Accepting requests is a durable insert of the batch, then their places in the queue; attempts run off the
 * consumer's path, in the scheduler. A redelivered request whose scheduling was lost (a crash between the two,
 * Redis down) is scheduled then; one already queued or held is left as it is. The batch is committed once both
 * are done: a failure retries the whole batch, which changes nothing for the requests it had stored.
 */
export function deliveryBatchHandler(deps: DeliveryHandlerDeps) {
  return async (batch: IncomingBatch<DeliveryCommand>): Promise<void> => {
    const requests: Array<{ request: RequestDelivery; trace: Record<string, string> }> = [];
    const items: QueuedItem[] = [];
    // One span per request, in the trace that asked for it (sampled as its sender decided), for the batch's work.
    const spans: Span[] = [];
    for (const message of batch.messages) {
      if (message.type === MessageTypeNames.RequestDelivery) {
        const { traceparent, tracestate } = message.meta.raw;
        const trace = { ...(traceparent ? { traceparent } : {}), ...(tracestate ? { tracestate } : {}) };
        requests.push({ request: message.value as RequestDelivery, trace });
        spans.push(
          startBatchMessageSpan(
            { topic: batch.topic, size: batch.messages.length, component: 'webhook-dispatcher' },
            message,
          ),
        );
      }
    }
    try {
      if (requests.length > 0) {
        for (const item of await deps.store.enqueueMany(requests)) if (item) items.push(item);
      }
    } finally {
      for (const span of spans) span.end();
    }
    for (const message of batch.messages) {
      if (message.type !== MessageTypeNames.RedeliverDeliveries) continue;
      const command = message.value as RedeliverDeliveries;
      const again = await deps.store.redeliver(command);
      deps.logger.info({ target: command.target_id, count: again.length }, 'manual redelivery');
      items.push(...again);
    }
    if (items.length > 0 && (await deps.queue.schedule(items)) > 0) deps.scheduler.wake();
  };
}
