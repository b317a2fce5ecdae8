import { MessageTypeNames, type MessageTypes } from '@platform/contracts';
import type { WebhookDoc } from '@platform/links';
import { deliveryIdFor } from '@platform/webhooks';

/** What the delivery layer calls this producer; TargetFailing/TargetDisabled with it are about links webhooks. */
export const WEBHOOK_PRODUCER = 'links';

/**
 * The RequestDelivery of one event to one webhook: signed with the webhook's Standard Webhooks secret, with
 * its client-credentials grant when it has one, and its rate limit. The delivery id comes from (event, webhook),
 * so a redelivered event asks for the same delivery and the dispatcher ignores the repeat.
 *
 * `aggregate` is what the event is about, the key an `ordered` webhook's deliveries are kept in order by: the
 * short link's id (`domain/hash`) for `decodes`, `shortlink_created` and `shortlink_changed`, so a link's clicks
 * and changes arrive as they happened while other links' events are not held up; null for a `ping`, which is
 * about no link and should not wait behind one.
 */
export function deliveryRequest(
  webhook: WebhookDoc,
  event: { id: string; type: string; aggregate: string | null; payload: Record<string, unknown> },
): {
  topic: 'webhooks.deliveries';
  key: string;
  id: string;
  type: typeof MessageTypeNames.RequestDelivery;
  value: MessageTypes['platform.webhooks.commands.RequestDelivery'];
} {
  const deliveryId = deliveryIdFor(WEBHOOK_PRODUCER, event.id, webhook._id);
  return {
    topic: 'webhooks.deliveries',
    key: webhook._id,
    id: deliveryId,
    type: MessageTypeNames.RequestDelivery,
    value: {
      delivery_id: deliveryId,
      producer: WEBHOOK_PRODUCER,
      tenant_id: webhook.organization_id,
      target: {
        id: webhook._id,
        url: webhook.url,
        sealed_secret: webhook.sealed_signing_secret,
        signature_scheme: 'standard',
        previous_sealed_secret: null,
        previous_secret_expires_at: null,
        oauth: webhook.oauth
          ? {
              token_url: webhook.oauth.url,
              client_id: webhook.oauth.client_id,
              sealed_client_secret: webhook.oauth.sealed_client_secret,
              scope: null,
            }
          : null,
        rate_limit: webhook.rate_limit ?? null,
      },
      event_id: event.id,
      event_type: event.type,
      payload: JSON.stringify(event.payload),
      requested_at: Date.now(),
      ordering_key: webhook.ordered ? event.aggregate : null,
    },
  };
}

/** The references every payload carries (Bitly's shape), to the API's resources. */
export function references(
  apiBase: string,
  webhook: WebhookDoc,
  groupGuid: string | null,
  shortlink?: string,
): Record<string, string> {
  return {
    ...(shortlink ? { shortlink: `${apiBase}/v4/shortlinks/${shortlink}` } : {}),
    ...(groupGuid ? { group: `${apiBase}/v4/groups/${groupGuid}` } : {}),
    organization: `${apiBase}/v4/organizations/${webhook.organization_id}`,
    webhook: `${apiBase}/v4/webhooks/${webhook._id}`,
  };
}
