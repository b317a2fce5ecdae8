import { MessageTypeNames, type UserCreated, type UserDeleted, type UserUpdated } from '@platform/contracts';
import type { IncomingMessage, Publisher } from '@platform/kafka';
import {
  orderingKeyOf,
  userEvent,
  webhookEventId,
  type UserEventType,
  type UsermgmtStore,
  type UsermgmtWriter,
} from '@platform/usermgmt';
import { WEBHOOK_TOPICS, deliveryIdFor } from '@platform/webhooks';

type UserEventRecord = UserCreated | UserUpdated | UserDeleted;

/**
 * A user event, recorded in the log the Events API serves, then one delivery request per enabled endpoint
 * subscribed to it. The event id and delivery ids are derived from the Kafka event (and the endpoint), so a
 * redelivered event finds itself in the log and re-publishes the same requests, which the dispatcher ignores.
 * Each request carries its endpoint's rate limit, and for an ordered endpoint the aggregate the event is about
 * (for user.* the user: see orderingKeyOf for every event family) as its ordering key.
 */
export async function publishUserEvent(
  deps: { store: UsermgmtStore; writer: UsermgmtWriter; publisher: Publisher },
  type: UserEventType,
  message: IncomingMessage<
    typeof MessageTypeNames.UserCreated | typeof MessageTypeNames.UserUpdated | typeof MessageTypeNames.UserDeleted
  >,
): Promise<void> {
  const record: UserEventRecord = message.value;
  const event = userEvent(webhookEventId(message.meta.id), type, record);
  await deps.writer.events.record({
    id: event.id,
    environmentId: record.environment_id,
    event: type,
    data: { ...event.data },
    createdAt: new Date(event.created_at),
  });
  const endpoints = await deps.store.webhookEndpoints.subscribedTo(record.environment_id, type);
  if (endpoints.length === 0) return;
  const payload = JSON.stringify(event);
  const orderingKey = orderingKeyOf(type, { ...event.data });
  await deps.publisher.publishMany(
    endpoints.map((endpoint) => {
      const deliveryId = deliveryIdFor('usermgmt', event.id, endpoint._id);
      return {
        topic: WEBHOOK_TOPICS.deliveries,
        key: endpoint._id,
        id: deliveryId,
        type: MessageTypeNames.RequestDelivery,
        value: {
          delivery_id: deliveryId,
          producer: 'usermgmt',
          tenant_id: record.environment_id,
          target: {
            id: endpoint._id,
            url: endpoint.endpoint_url,
            sealed_secret: endpoint.sealed_secret,
            signature_scheme: 'workos' as const,
            previous_sealed_secret: endpoint.previous_sealed_secret ?? null,
            previous_secret_expires_at: endpoint.previous_secret_expires_at?.getTime() ?? null,
            oauth: null,
            rate_limit: endpoint.rate_limit ?? null,
          },
          event_id: event.id,
          event_type: type,
          payload,
          requested_at: Date.now(),
          ordering_key: endpoint.ordered ? orderingKey : null,
        },
      };
    }),
  );
}
