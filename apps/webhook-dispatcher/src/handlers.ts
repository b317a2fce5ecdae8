import { MessageTypeNames } from '@platform/contracts';
import type { HandlerMap } from '@platform/kafka';
import type { Logger } from '@platform/telemetry';
import type { DeliveryStore } from '@platform/webhooks';

export type DeliveryCommand = typeof MessageTypeNames.RequestDelivery | typeof MessageTypeNames.RedeliverDeliveries;

export interface DeliveryHandlerDeps {
  store: Pick<DeliveryStore, 'enqueue' | 'redeliver'>;
  scheduler: { wake(): void };
  logger: Logger;
}

/** Accepting a request is only a durable insert; attempts run off the consumer's path, in the scheduler. */
export function deliveryHandlers(deps: DeliveryHandlerDeps): HandlerMap<DeliveryCommand> {
  return {
    [MessageTypeNames.RequestDelivery]: async (message) => {
      const { traceparent, tracestate } = message.meta.raw;
      const trace = { ...(traceparent ? { traceparent } : {}), ...(tracestate ? { tracestate } : {}) };
      if (await deps.store.enqueue(message.value, trace)) deps.scheduler.wake();
    },
    [MessageTypeNames.RedeliverDeliveries]: async (message) => {
      const count = await deps.store.redeliver(message.value);
      deps.logger.info({ target: message.value.target_id, count }, 'manual redelivery');
      if (count > 0) deps.scheduler.wake();
    },
  };
}
