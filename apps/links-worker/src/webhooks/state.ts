import type { IncomingMessage } from '@platform/kafka';
import type { LinksStore, LinksWriter, WebhookDoc } from '@platform/links';
import type { Logger } from '@platform/telemetry';
import { WEBHOOK_PRODUCER } from './delivery.js';

interface Deps {
  store: LinksStore;
  writer: LinksWriter;
  logger: Logger;
}

async function activeWebhook(deps: Deps, tenantId: string, targetId: string) {
  const webhook = await deps.store.getWebhook(tenantId, targetId);
  return webhook?.is_active ? webhook : null;
}

/**
 * What the delivery layer reports becomes the webhook's state, as Bitly does: the first failed attempt alerts
 * (`is_alert`, `alerted`), a delivery that gets through clears the alert, and an event that failed every
 * attempt (or a receiver that answered 410 Gone, or one failing for days) deactivates the webhook
 * (`is_active` false, `deactivated`). Each step is idempotent: a redelivered report changes nothing more.
 */
export function createWebhookState(deps: Deps) {
  /** Turned off by the platform: alerted too, if it was not yet. */
  const deactivate = (webhook: WebhookDoc, at: number) =>
    deps.writer.updateWebhook(webhook.organization_id, webhook._id, {
      is_active: false,
      is_alert: true,
      deactivated_at: new Date(at),
      ...(webhook.alerted_at ? {} : { alerted_at: new Date(at) }),
    });

  return {
    async failing(message: IncomingMessage<'platform.webhooks.events.TargetFailing'>): Promise<void> {
      const v = message.value;
      if (v.producer !== WEBHOOK_PRODUCER) return;
      const webhook = await activeWebhook(deps, v.tenant_id, v.target_id);
      if (!webhook || webhook.is_alert) return;
      await deps.writer.updateWebhook(webhook.organization_id, webhook._id, {
        is_alert: true,
        alerted_at: new Date(v.occurred_at),
      });
      deps.logger.warn(
        { webhook: webhook._id, status: v.last_status, error: v.error },
        'links webhook failing; alerted',
      );
    },

    async outcome(message: IncomingMessage<'platform.webhooks.events.DeliveryOutcome'>): Promise<void> {
      const v = message.value;
      if (v.producer !== WEBHOOK_PRODUCER) return;
      const webhook = await activeWebhook(deps, v.tenant_id, v.target_id);
      if (!webhook) return;
      if (v.outcome === 'delivered') {
        if (webhook.is_alert)
          await deps.writer.updateWebhook(webhook.organization_id, webhook._id, { is_alert: false });
        return;
      }
      await deactivate(webhook, v.occurred_at);
      deps.logger.warn(
        { webhook: webhook._id, attempts: v.attempts, status: v.last_status },
        'links webhook deactivated: an event failed every attempt',
      );
    },

    async disabled(message: IncomingMessage<'platform.webhooks.events.TargetDisabled'>): Promise<void> {
      const v = message.value;
      if (v.producer !== WEBHOOK_PRODUCER) return;
      const webhook = await activeWebhook(deps, v.tenant_id, v.target_id);
      if (!webhook) return;
      await deactivate(webhook, v.occurred_at);
      deps.logger.warn({ webhook: webhook._id, reason: v.reason }, 'links webhook deactivated by the delivery layer');
    },
  };
}
