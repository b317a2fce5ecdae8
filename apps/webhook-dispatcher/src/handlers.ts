import { MessageTypeNames } from '@platform/contracts';
import type { HandlerMap } from '@platform/kafka';
import type { LeaseQueue } from '@platform/redis';
import type { Logger } from '@platform/telemetry';
import type { DeliveryStore } from '@platform/webhooks';

export type DeliveryCommand = typeof MessageTypeNames.RequestDelivery | typeof MessageTypeNames.RedeliverDeliveries;

export interface DeliveryHandlerDeps {
  store: Pick<DeliveryStore, 'enqueue' | 'redeliver'>;
  queue: Pick<LeaseQueue, 'schedule'>;
  scheduler: { wake(): void };
  logger: Logger;
}

/**
 * Accepting a request is a durable insert, then its place in the queue; attempts run off the consumer's path, in
 * the scheduler. A redelivered request whose scheduling was lost (a crash between the two, Redis down) is
 * scheduled then; one already queued or held is left as it is.
 */
export function deliveryHandlers(deps: DeliveryHandlerDeps): HandlerMap<DeliveryCommand> {
  return {
    [MessageTypeNames.RequestDelivery]: async (message) => {
      const { traceparent, tracestate } = message.meta.raw;
      const trace = { ...(traceparent ? { traceparent } : {}), ...(tracestate ? { tracestate } : {}) };
      const item = await deps.store.enqueue(message.value, trace);
      if (item && (await deps.queue.schedule([item])) > 0) deps.scheduler.wake();
    },
    [MessageTypeNames.RedeliverDeliveries]: async (message) => {
      const items = await deps.store.redeliver(message.value);
      deps.logger.info({ target: message.value.target_id, count: items.length }, 'manual redelivery');
      if (items.length > 0 && (await deps.queue.schedule(items)) > 0) deps.scheduler.wake();
    },
  };
}
