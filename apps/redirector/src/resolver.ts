import type { LinkDoc, LinksStore } from '@platform/links';

export interface Target {
  id: string;
  organization_id: string;
  group_guid: string;
  long_url: string;
  status: 301 | 302;
  /** ms; null: never */
  expires_at: number | null;
  /** The link's QR codes: a redirect with `?qr=<one of them>` is that code's scan. */
  qr_code_ids: readonly string[];
}

/**
 * Short links by `domain/hash`, from memory, the store on a miss (unknown ones remembered briefly too). Every
 * change is evicted by the links.events consumer, so an edit or an archive takes effect within the event's
 * latency; `ttlMs` bounds what a missed event could leave behind.
 */
export function createResolver(store: LinksStore, options: { maxEntries: number; ttlMs: number; missTtlMs: number }) {
  const cache = new Map<string, { target: Target | null; until: number; era: number }>();
  const inFlight = new Map<string, Promise<Target | null>>();
  let reads = 0;
  // The map's order is the eviction order. A hit moves its entry to the back once per era (an era ends after
  // half the cache's size in insertions), not on every hit: deleting and re-inserting a key per redirect costs
  // more than the rest of the lookup, and a link used within the era is still behind every older entry.
  let era = 0;
  let insertedThisEra = 0;

  const toTarget = (doc: LinkDoc | null): Target | null =>
    doc && !doc.archived && doc.deleted_at === null
      ? {
          id: doc._id,
          organization_id: doc.organization_id,
          group_guid: doc.group_guid,
          long_url: doc.long_url,
          status: doc.redirect_status === 302 ? 302 : 301,
          expires_at: doc.expiration_at ? doc.expiration_at.getTime() : null,
          qr_code_ids: doc.qr_code_ids ?? [],
        }
      : null;

  function remember(id: string, target: Target | null) {
    cache.delete(id);
    if (cache.size >= options.maxEntries) cache.delete(cache.keys().next().value!);
    if (++insertedThisEra >= options.maxEntries / 2) {
      era++;
      insertedThisEra = 0;
    }
    cache.set(id, { target, until: Date.now() + (target ? options.ttlMs : options.missTtlMs), era });
  }

  const live = (target: Target | null, now: number) => (target && (target.expires_at === null || target.expires_at > now) ? target : null);

  /** From memory only: the live target or null when the link is known here, undefined when it must be read. */
  function cached(id: string, now = Date.now()): Target | null | undefined {
    const hit = cache.get(id);
    if (!hit || hit.until <= now) return undefined;
    if (hit.era !== era) {
      hit.era = era;
      cache.delete(id);
      cache.set(id, hit);
    }
    return live(hit.target, now);
  }

  return {
    cached,
    /** The live target of a link, or null (unknown, archived, deleted or expired). */
    async resolve(id: string, now = Date.now()): Promise<Target | null> {
      const known = cached(id, now);
      if (known !== undefined) return known;
      let pending = inFlight.get(id);
      if (!pending) {
        reads++;
        pending = store.getLink(id).then(toTarget);
        inFlight.set(id, pending);
        void pending.finally(() => inFlight.delete(id));
      }
      const target = await pending;
      remember(id, target);
      return live(target, now);
    },
    evict(id: string): void {
      cache.delete(id);
    },
    get size() {
      return cache.size;
    },
    /** Store reads so far (misses of the memory, concurrent misses of one link counted once). */
    get reads() {
      return reads;
    },
  };
}

export type Resolver = ReturnType<typeof createResolver>;
