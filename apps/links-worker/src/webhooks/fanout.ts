import { createHash } from 'node:crypto';
import { createFacetReader, openGeoDatabase, type FacetReader } from '@platform/analytics';
import type { IncomingMessage, Publisher } from '@platform/kafka';
import { bitlyTime, type LinksStore, type WebhookDoc, type WebhookEvent } from '@platform/links';
import { deliveryRequest, references } from './delivery.js';

type Clicked = IncomingMessage<'platform.links.clicks.ShortlinkClicked'>;
type Created = IncomingMessage<'platform.links.events.ShortlinkCreated'>;
type Changed = IncomingMessage<'platform.links.events.ShortlinkChanged'>;

export interface WebhookFanOutOptions {
  store: LinksStore;
  publisher: Publisher;
  apiBase: string;
  /** How long an organization's list of active webhooks is reused (every click looks it up). */
  cacheMs?: number;
  /** The click facets (country, device); the GeoLite2 reader by default, opened on the first click that needs it. */
  facets?: () => Promise<FacetReader>;
}

/** A UUID for an event from a stable key (a click id), so that a redelivered click is the same event. */
function eventUuid(key: string): string {
  const h = createHash('sha256').update(key).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/**
 * Link events to the organization's active webhooks for them: clicks (`decodes`, Bitly's payload), new links
 * (`shortlink_created`) and changed ones (`shortlink_changed`). A group webhook hears only its group's links, and
 * no webhook hears what happened before it was created (a consumer replaying history sends nothing old).
 */
export function createWebhookFanOut(options: WebhookFanOutOptions) {
  const cacheMs = options.cacheMs ?? 1000;
  /** `known`: the lookup's answer once it has come (a click checks it without awaiting). */
  type CacheEntry = { at: number; hooks: Promise<WebhookDoc[]>; known?: WebhookDoc[] };
  const cache = new Map<string, CacheEntry>();
  let facets: Promise<FacetReader> | undefined;
  const facetReader = () =>
    (facets ??= options.facets ? options.facets() : openGeoDatabase().then((geo) => createFacetReader(geo)));

  function activeWebhooks(organizationId: string, event: WebhookEvent): Promise<WebhookDoc[]> {
    const key = `${organizationId}\n${event}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < cacheMs) return hit.hooks;
    const hooks = options.store.activeWebhooks(organizationId, event);
    const entry: CacheEntry = { at: Date.now(), hooks };
    cache.set(key, entry);
    hooks.then(
      (found) => (entry.known = found),
      () => cache.delete(key),
    );
    if (cache.size > 10_000) cache.delete(cache.keys().next().value as string);
    return hooks;
  }

  /** True when the organization is known, from a fresh lookup, to have no active webhook for the event. */
  function surelyNone(organizationId: string, event: WebhookEvent): boolean {
    const hit = cache.get(`${organizationId}\n${event}`);
    return hit?.known !== undefined && hit.known.length === 0 && Date.now() - hit.at < cacheMs;
  }

  async function listening(
    event: WebhookEvent,
    organizationId: string,
    groupGuid: string,
    at: number,
  ): Promise<WebhookDoc[]> {
    const hooks = await activeWebhooks(organizationId, event);
    return hooks.filter((w) => (w.group_guid === null || w.group_guid === groupGuid) && w.created_at.getTime() <= at);
  }

  async function tagsOf(hooks: WebhookDoc[], organizationId: string, id: string): Promise<string[] | null> {
    if (!hooks.some((w) => w.fetch_tags)) return null;
    return (await options.store.getLink(organizationId, id))?.tags ?? [];
  }

  /** `linkId`: the link the event is about, the order key of ordered webhooks. */
  async function send(
    hooks: WebhookDoc[],
    eventId: string,
    type: WebhookEvent,
    linkId: string,
    body: (w: WebhookDoc) => Record<string, unknown>,
  ) {
    if (hooks.length === 0) return;
    await options.publisher.publishMany(
      hooks.map((w) => deliveryRequest(w, { id: eventId, type, aggregate: linkId, payload: body(w) })),
    );
  }

  /** A new or changed link to the webhooks for its event: the link as it is, and `extra` for the event. */
  async function linkEvent(
    eventId: string,
    type: 'shortlink_created' | 'shortlink_changed',
    link: Created['value'] | Changed['value'],
    extra: Record<string, unknown>,
  ) {
    const hooks = await listening(type, link.organization_id, link.group_guid, link.occurred_at);
    await send(hooks, eventId, type, link.id, (w) => ({
      event_id: eventId,
      event: type,
      datetime: bitlyTime(link.occurred_at),
      shortlink: link.id,
      url: link.long_url,
      title: link.title ?? '',
      tags: link.tags,
      ...extra,
      webhook_guid: w._id,
      organization_guid: link.organization_id,
      group_guid: link.group_guid,
      references: references(options.apiBase, w, link.group_guid, link.id),
    }));
  }

  async function sendClick(message: Clicked): Promise<void> {
    const click = message.value;
    const hooks = await listening('decodes', click.organization_id, click.group_guid, click.clicked_at);
    if (hooks.length === 0) return;
    const seen = (await facetReader())({
      clientIp: click.client_ip,
      userAgent: click.user_agent,
      referrer: click.referrer,
    });
    const tags = await tagsOf(hooks, click.organization_id, click.id);
    const eventId = eventUuid(click.click_id);
    await send(hooks, eventId, 'decodes', click.id, (w) => ({
      event_id: eventId,
      event: 'decodes',
      datetime: bitlyTime(click.clicked_at),
      url: click.long_url,
      shortlink: click.id,
      passed_params: click.passed_params,
      country: seen.place.country ?? '',
      referrer: seen.referrer.url,
      device_type: seen.device,
      bot: click.bot,
      qr: click.qr,
      // The code scanned, on a scan (empty on a plain click), as QR code metrics name it.
      qrcode_id: click.qrcode_id ?? '',
      webhook_guid: w._id,
      organization_guid: click.organization_id,
      group_guid: click.group_guid,
      ...(w.fetch_tags ? { tags: tags ?? [] } : {}),
      references: references(options.apiBase, w, click.group_guid, click.id),
    }));
  }

  return {
    /** Undefined when there is nothing to send (the common case: no webhook hears clicks), without a promise. */
    clicked(message: Clicked): Promise<void> | undefined {
      return surelyNone(message.value.organization_id, 'decodes') ? undefined : sendClick(message);
    },

    async created(message: Created): Promise<void> {
      const link = message.value;
      await linkEvent(message.meta.id, 'shortlink_created', link, { custom: link.custom, created_by: link.created_by });
    },

    async changed(message: Changed): Promise<void> {
      const link = message.value;
      await linkEvent(message.meta.id, 'shortlink_changed', link, {
        archived: link.archived,
        deleted: link.deleted,
        ...(link.expiration_at !== null ? { expiration_at: bitlyTime(link.expiration_at) } : {}),
      });
    },
  };
}
