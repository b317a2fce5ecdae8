import { MessageTypeNames, type RequestDelivery } from '@platform/contracts';
import { runConsumer, type KafkaClient } from '@platform/kafka';
import { uniqueName } from '@platform/testing';
import { WEBHOOK_TOPICS } from '@platform/webhooks';

/** Every RequestDelivery producers publish on webhooks.deliveries, read from the start by a group of its own. */
export async function watchDeliveryRequests(
  client: KafkaClient,
): Promise<{ requests: RequestDelivery[]; stop(): Promise<void> }> {
  const requests: RequestDelivery[] = [];
  const consumer = await runConsumer({
    client,
    groupId: uniqueName('delivery-requests'),
    topics: [WEBHOOK_TOPICS.deliveries],
    fromBeginning: true,
    handlers: {
      [MessageTypeNames.RequestDelivery]: async (m) => void requests.push({ ...m.value }),
    },
  });
  await consumer.ready;
  return { requests, stop: async () => (consumer.isRunning() ? consumer.stop() : undefined) };
}
