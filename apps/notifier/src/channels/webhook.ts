import { MessageTypeNames } from '@platform/contracts';
import type { Publisher } from '@platform/kafka';
import { markdownToPlaintext, type OutgoingDoc } from '@platform/notifications';
import { WEBHOOK_TOPICS, deliveryIdFor } from '@platform/webhooks';

export interface WebhookTarget {
  url: string;
  sealedSecret: string;
  /** Deliveries per second at most; null: the dispatcher's default. */
  rateLimit: number | null;
  /** Each user's notifications in order: the user id is the deliveries' ordering key. */
  ordered: boolean;
}

/** The target id deliveries of the webhook method are kept under by the dispatcher. */
export const NOTIFICATIONS_WEBHOOK_TARGET = 'notifications-webhook';

/** The JSON body POSTed for a notification (Coder's webhook payload, version 1.1). */
export function webhookPayload(doc: OutgoingDoc) {
  return {
    _version: '1.1',
    msg_id: doc.notification_id,
    payload: {
      _version: '1.2',
      notification_name: doc.template_id,
      notification_template_id: doc.template_id,
      user_id: doc.user_id,
      user_email: doc.email ?? '',
      user_name: doc.recipient.name,
      user_username: doc.recipient.username,
      actions: doc.actions,
      labels: doc.labels,
      data: {},
      targets: doc.targets,
    },
    title: markdownToPlaintext(doc.title),
    title_markdown: doc.title,
    body: markdownToPlaintext(doc.content),
    body_markdown: doc.content,
  };
}

/**
 * Hands the notification to the webhook dispatcher, which signs (Standard Webhooks), retries and records it.
 * The delivery id derives from the notification, so handing it over twice delivers it once.
 */
export function createWebhookMethod(target: WebhookTarget, publisher: () => Publisher) {
  return async (doc: OutgoingDoc): Promise<'sent'> => {
    const eventId = `notif_${doc.notification_id}`;
    const deliveryId = deliveryIdFor('notifications', eventId, NOTIFICATIONS_WEBHOOK_TARGET);
    await publisher().publish({
      topic: WEBHOOK_TOPICS.deliveries,
      key: NOTIFICATIONS_WEBHOOK_TARGET,
      id: deliveryId,
      type: MessageTypeNames.RequestDelivery,
      value: {
        delivery_id: deliveryId,
        producer: 'notifications',
        tenant_id: doc.deployment_id,
        target: {
          id: NOTIFICATIONS_WEBHOOK_TARGET,
          url: target.url,
          sealed_secret: target.sealedSecret,
          signature_scheme: 'standard',
          previous_sealed_secret: null,
          previous_secret_expires_at: null,
          oauth: null,
          rate_limit: target.rateLimit,
        },
        event_id: eventId,
        event_type: 'notification',
        payload: JSON.stringify(webhookPayload(doc)),
        requested_at: Date.now(),
        ordering_key: target.ordered ? doc.user_id : null,
      },
    });
    return 'sent';
  };
}
