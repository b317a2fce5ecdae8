import { MessageTypeNames } from '@platform/contracts';
import type { IncomingMessage, Publisher } from '@platform/kafka';
import { userCreatedPayload, webhookEventId, type UsermgmtStore } from '@platform/usermgmt';
import { WEBHOOK_TOPICS, deliveryIdFor } from '@platform/webhooks';

/**
 * user.created -> one delivery request per enabled endpoint subscribed to it. Delivery ids are derived from
 * (event, endpoint), so a redelivered event re-publishes the same requests and the dispatcher ignores them.
 */
export async function fanOutUserCreated(
  deps: { store: UsermgmtStore; publisher: Publisher },
  message: IncomingMessage<'platform.usermgmt.events.UserCreated'>,
): Promise<void> {
  const event = message.value;
  const endpoints = await deps.store.webhookEndpoints.subscribedTo(event.environment_id, 'user.created');
  if (endpoints.length === 0) return;
  const eventId = webhookEventId(message.meta.id);
  const payload = JSON.stringify(userCreatedPayload(eventId, event));
  await deps.publisher.publishMany(
    endpoints.map((endpoint) => {
      const deliveryId = deliveryIdFor('usermgmt', eventId, endpoint._id);
      return {
        topic: WEBHOOK_TOPICS.deliveries,
        key: endpoint._id,
        id: deliveryId,
        type: MessageTypeNames.RequestDelivery,
        value: {
          delivery_id: deliveryId,
          producer: 'usermgmt',
          tenant_id: event.environment_id,
          target: {
            id: endpoint._id,
            url: endpoint.endpoint_url,
            sealed_secret: endpoint.sealed_secret,
            signature_scheme: 'workos' as const,
            previous_sealed_secret: endpoint.previous_sealed_secret ?? null,
            previous_secret_expires_at: endpoint.previous_secret_expires_at?.getTime() ?? null,
            oauth: null,
          },
          event_id: eventId,
          event_type: 'user.created',
          payload,
          requested_at: Date.now(),
        },
      };
    }),
  );
}
