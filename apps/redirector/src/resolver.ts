import type { LinkDoc, LinksStore } from '@platform/links';

export interface Target {
  id: string;
  organization_id: string;
  group_guid: string;
  long_url: string;
  status: 301 | 302;
  /** ms; null: never */
  expires_at: number | null;
}

/**
 * Short links by `domain/hash`, from memory, the store on a miss (unknown ones remembered briefly too). Every
 * change is evicted by the links.events consumer, so an edit or an archive takes effect within the event's
 * latency; `ttlMs` bounds what a missed event could leave behind.
 */
export function createResolver(store: LinksStore, options: { maxEntries: number; ttlMs: number; missTtlMs: number }) {
  const cache = new Map<string, { target: Target | null; until: number }>();
  const inFlight = new Map<string, Promise<Target | null>>();

  const toTarget = (doc: LinkDoc | null): Target | null =>
    doc && !doc.archived && doc.deleted_at === null
      ? {
          id: doc._id,
          organization_id: doc.organization_id,
          group_guid: doc.group_guid,
          long_url: doc.long_url,
          status: doc.redirect_status === 302 ? 302 : 301,
          expires_at: doc.expiration_at ? doc.expiration_at.getTime() : null,
        }
      : null;

  function remember(id: string, target: Target | null) {
    if (cache.size >= options.maxEntries) cache.delete(cache.keys().next().value!);
    cache.set(id, { target, until: Date.now() + (target ? options.ttlMs : options.missTtlMs) });
  }

  return {
    /** The live target of a link, or null (unknown, archived, deleted or expired). */
    async resolve(id: string, now = Date.now()): Promise<Target | null> {
      const hit = cache.get(id);
      let target: Target | null;
      if (hit && hit.until > now) {
        // Refresh its place: the map's order is the eviction order.
        cache.delete(id);
        cache.set(id, hit);
        target = hit.target;
      } else {
        let pending = inFlight.get(id);
        if (!pending) {
          pending = store.getLink(id).then(toTarget);
          inFlight.set(id, pending);
          void pending.finally(() => inFlight.delete(id));
        }
        target = await pending;
        remember(id, target);
      }
      return target && (target.expires_at === null || target.expires_at > now) ? target : null;
    },
    evict(id: string): void {
      cache.delete(id);
    },
    get size() {
      return cache.size;
    },
  };
}

export type Resolver = ReturnType<typeof createResolver>;
