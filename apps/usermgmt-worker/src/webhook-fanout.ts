import { MessageTypeNames, type UserCreated, type UserDeleted, type UserUpdated } from '@platform/contracts';
import { startBatchMessageSpan, type IncomingBatch, type Publisher } from '@platform/kafka';
import { context, injectTraceContext, trace, type Span } from '@platform/telemetry';
import {
  orderingKeyOf,
  userEvent,
  webhookEventId,
  type UserEventType,
  type UsermgmtStore,
  type UsermgmtWriter,
} from '@platform/usermgmt';
import { WEBHOOK_TOPICS, deliveryIdFor } from '@platform/webhooks';

type UserEventMessage =
  typeof MessageTypeNames.UserCreated | typeof MessageTypeNames.UserUpdated | typeof MessageTypeNames.UserDeleted;

/** The user events the fan-out consumes, and the webhook event type each one is. */
export const USER_EVENT_TYPES: Record<UserEventMessage, UserEventType> = {
  [MessageTypeNames.UserCreated]: 'user.created',
  [MessageTypeNames.UserUpdated]: 'user.updated',
  [MessageTypeNames.UserDeleted]: 'user.deleted',
};

/**
 * A batch of one partition's user events, recorded in the log the Events API serves, in their order, then one
 * delivery request per enabled endpoint subscribed to each. The batch costs one insert, one read of the enabled
 * endpoints per environment in it and one produce, whatever its size. The event id and delivery ids are derived
 * from the Kafka event (and the endpoint), so a redelivered batch finds its events in the log and re-publishes
 * the same requests, which the dispatcher ignores. Each request carries its endpoint's rate limit, and for an
 * ordered endpoint the aggregate the event is about (for user.* the user: see orderingKeyOf for every event
 * family) as its ordering key.
 */
export async function publishUserEvents(
  deps: { store: UsermgmtStore; writer: UsermgmtWriter; publisher: Publisher },
  batch: Pick<IncomingBatch<UserEventMessage>, 'topic' | 'messages'>,
): Promise<void> {
  // One span per event, in the trace of the command that caused it, ended once the batch's work is done; the
  // delivery requests carry it on to the dispatcher.
  const spans: Span[] = [];
  const events = batch.messages.map((message) => {
    const record: UserCreated | UserUpdated | UserDeleted = message.value;
    const span = startBatchMessageSpan(
      { topic: batch.topic, size: batch.messages.length, component: 'usermgmt-worker' },
      message,
    );
    spans.push(span);
    const event = userEvent(webhookEventId(message.meta.id), USER_EVENT_TYPES[message.type], record);
    return { record, event, traceHeaders: injectTraceContext({}, trace.setSpan(context.active(), span)) };
  });
  try {
    const environments = [...new Set(events.map(({ record }) => record.environment_id))];
    const [, enabled] = await Promise.all([
      deps.writer.events.recordMany(
        events.map(({ record, event }) => ({
          id: event.id,
          environmentId: record.environment_id,
          event: event.event,
          data: { ...event.data },
          createdAt: new Date(event.created_at),
        })),
      ),
      Promise.all(environments.map((environmentId) => deps.store.webhookEndpoints.enabledIn(environmentId))),
    ]);
    const endpointsIn = new Map(environments.map((environmentId, i) => [environmentId, enabled[i]!]));
    const requests = events.flatMap(({ record, event, traceHeaders }) => {
      const endpoints = endpointsIn.get(record.environment_id)!.filter((e) => e.events.includes(event.event));
      if (endpoints.length === 0) return [];
      const payload = JSON.stringify(event);
      const orderingKey = orderingKeyOf(event.event, { ...event.data });
      return endpoints.map((endpoint) => {
        const deliveryId = deliveryIdFor('usermgmt', event.id, endpoint._id);
        return {
          topic: WEBHOOK_TOPICS.deliveries,
          key: endpoint._id,
          id: deliveryId,
          type: MessageTypeNames.RequestDelivery,
          headers: traceHeaders,
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
            event_type: event.event,
            payload,
            requested_at: Date.now(),
            ordering_key: endpoint.ordered ? orderingKey : null,
          },
        };
      });
    });
    if (requests.length > 0) await deps.publisher.publishMany(requests);
  } finally {
    for (const span of spans) span.end();
  }
}
