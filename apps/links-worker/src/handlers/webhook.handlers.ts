import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { WEBHOOK_EVENTS, bitlyTime, type WebhookDoc, type WebhookEvent } from '@platform/links';
import { outboxEvent } from '@platform/mongo';
import { generateSecret } from '@platform/secrets';
import { deliveryRequest, references } from '../webhooks/delivery.js';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

const noWebhook = () => new NotFoundError('NOT_FOUND', 'No such webhook.');

async function webhookOf(deps: HandlerDeps, organizationId: string, guid: string): Promise<WebhookDoc> {
  const webhook = await deps.store.getWebhook(organizationId, guid);
  if (!webhook) throw noWebhook();
  return webhook;
}

/**
 * Creates (under the gateway's guid: a redelivered create finds its webhook and answers its secret again) or
 * edits a webhook. The gateway validated the shapes; the worker checks what depends on the data.
 */
export async function saveWebhook(
  deps: HandlerDeps,
  message: IncomingMessage<N['SaveWebhook']>,
): Promise<{ webhook_guid: string; signing_secret: string | null }> {
  const v = message.value;
  const at = new Date(v.requested_at);
  if (v.event !== null && !(WEBHOOK_EVENTS as readonly string[]).includes(v.event))
    throw new InputError('INVALID_ARG_EVENT', `event is one of ${WEBHOOK_EVENTS.join(', ')}`);
  if (v.group_guid) {
    if (!(await deps.store.getGroup(v.organization_id, v.group_guid)))
      throw new InputError('INVALID_ARG_GROUP_GUID', 'No such group in the organization.');
  }
  const user = await deps.members.get(v.organization_id, v.user_id);
  const modifiedBy = user?.username ?? v.user_id;
  const oauthFromCommand = v.oauth_url
    ? { url: v.oauth_url, client_id: v.client_id ?? '', sealed_client_secret: v.sealed_client_secret ?? '' }
    : null;

  if (v.create) {
    const existing = await deps.store.getWebhook(v.organization_id, v.webhook_guid);
    if (existing) {
      return { webhook_guid: existing._id, signing_secret: deps.sealer.open(existing.sealed_signing_secret) };
    }
    const secret = generateSecret('whsec_', 40);
    await deps.writer.insertWebhook({
      _id: v.webhook_guid,
      organization_id: v.organization_id,
      group_guid: v.group_guid || null,
      name: v.name ?? '',
      event: (v.event ?? 'decodes') as WebhookEvent,
      url: v.url ?? '',
      is_active: v.is_active ?? true,
      alerted_at: null,
      is_alert: false,
      deactivated_at: null,
      oauth: oauthFromCommand,
      fetch_tags: v.fetch_tags ?? false,
      rate_limit: v.rate_limit,
      ordered: v.ordered ?? false,
      sealed_signing_secret: deps.sealer.seal(secret),
      created_at: at,
      modified_at: at,
      modified_by: modifiedBy,
    });
    // A redelivery racing this one may have won the insert: answer the secret that was stored.
    const stored = await webhookOf(deps, v.organization_id, v.webhook_guid);
    return { webhook_guid: stored._id, signing_secret: deps.sealer.open(stored.sealed_signing_secret) };
  }

  const current = await webhookOf(deps, v.organization_id, v.webhook_guid);
  const changes: Partial<WebhookDoc> = { modified_at: at, modified_by: modifiedBy };
  if (v.name !== null) changes.name = v.name;
  if (v.event !== null) changes.event = v.event as WebhookEvent;
  if (v.url !== null) changes.url = v.url;
  if (v.group_guid !== null) changes.group_guid = v.group_guid || null;
  if (v.fetch_tags !== null) changes.fetch_tags = v.fetch_tags;
  if (v.rate_limit !== null) changes.rate_limit = v.rate_limit;
  else if (v.clear_rate_limit) changes.rate_limit = null;
  if (v.ordered !== null) changes.ordered = v.ordered;
  if (v.oauth_url === '') changes.oauth = null;
  else if (v.oauth_url !== null || v.client_id !== null || v.sealed_client_secret !== null) {
    const url = v.oauth_url ?? current.oauth?.url;
    const clientId = v.client_id ?? current.oauth?.client_id;
    const secret = v.sealed_client_secret ?? current.oauth?.sealed_client_secret;
    if (!url || !clientId || !secret)
      throw new InputError('INVALID_ARG_OAUTH_URL', 'oauth_url, client_id and client_secret go together.');
    changes.oauth = { url, client_id: clientId, sealed_client_secret: secret };
  }
  if (v.is_active !== null) {
    changes.is_active = v.is_active;
    // Turned back on, it is no longer deactivated; it stays alerted until a delivery gets through.
    if (v.is_active && !current.is_active) changes.deactivated_at = null;
  }
  await deps.writer.updateWebhook(v.organization_id, current._id, changes);
  return { webhook_guid: current._id, signing_secret: null };
}

export async function deleteWebhook(
  deps: HandlerDeps,
  message: IncomingMessage<N['DeleteWebhook']>,
): Promise<{ webhook_guid: string }> {
  const v = message.value;
  const webhook = await deps.store.getWebhook(v.organization_id, v.webhook_guid);
  // Deleting one that is gone is done: a redelivered delete answers as the first did.
  if (webhook) await deps.writer.deleteWebhook(v.organization_id, webhook._id);
  return { webhook_guid: v.webhook_guid };
}

/** Queues a `ping` delivery with the webhook (its outbox): sent whether or not the webhook is active. */
export async function verifyWebhook(
  deps: HandlerDeps,
  message: IncomingMessage<N['VerifyWebhook']>,
): Promise<{ webhook_guid: string }> {
  const v = message.value;
  const webhook = await webhookOf(deps, v.organization_id, v.webhook_guid);
  const at = new Date(v.requested_at);
  const request = deliveryRequest(webhook, {
    id: v.ping_id,
    type: 'ping',
    aggregate: null,
    payload: {
      event_id: v.ping_id,
      event: 'ping',
      datetime: bitlyTime(at),
      webhook_guid: webhook._id,
      organization_guid: webhook.organization_id,
      group_guid: webhook.group_guid ?? '',
      references: references(deps.apiBase, webhook, webhook.group_guid),
    },
  });
  await deps.writer.queueWebhookEvents(webhook.organization_id, webhook._id, [
    { ...outboxEvent(MessageTypeNames.RequestDelivery, request.key, request.value, at), id: request.id },
  ]);
  return { webhook_guid: webhook._id };
}
