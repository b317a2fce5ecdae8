import type { LinkRedirectFields, LinksStore } from '@platform/links';

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

/** The last part of an entry's life in which a hit reads it again in the background (and is answered from memory). */
const REFRESH_SHARE = 0.25;
/**
 * That part starts up to this share of the life earlier, drawn at random per entry: links read together (a
 * warm-up, a deploy) are read again over a fifth of the TTL, not in one burst of store reads, and each still
 * has at least the last quarter of its life for a hit to put it in a background read.
 */
const REFRESH_SPREAD = 0.2;
/** Each entry's life is shortened by up to this share at random, so that links read together do not expire together. */
const TTL_JITTER = 0.1;
/** The most links one background read asks for. */
const REFRESH_BATCH = 500;

interface Entry {
  target: Target | null;
  until: number;
  /** From then on, a hit reads the link again in the background. */
  refreshAt: number;
  era: number;
}

/**
 * Short links by `domain/hash`, from memory, the store on a miss (unknown ones remembered briefly too). Every
 * change is evicted by the links.events consumer, so an edit or an archive takes effect within the event's
 * latency; `ttlMs` bounds what a missed event could leave behind.
 *
 * A link in use is read again before its entry expires (a hit in the last quarter of its life, or up to a fifth
 * earlier, drawn at random, puts it in the next background read, which asks for every link due at once), so a busy
 * link never waits on the store; the lives and refresh points are drawn at random, so the links of one warm-up
 * neither expire in the same second and queue their redirects behind a thousand reads, nor are all read again
 * in one burst that takes the store's cores from the redirects.
 */
export function createResolver(
  store: Pick<LinksStore, 'getRedirectTargets'>,
  options: { maxEntries: number; ttlMs: number; missTtlMs: number; random?: () => number; refreshDelayMs?: number },
) {
  const random = options.random ?? Math.random;
  // Links due gather for up to a quarter of a second (a twentieth of the last quarter of a life at most) and are
  // read together: on FerretDB a query costs ~0.3 ms of its CPU and each link in it ~0.2 ms, so gathering saves
  // the first, and spreading the refreshes out (REFRESH_SPREAD) keeps the second from coming all at once.
  const refreshDelayMs = options.refreshDelayMs ?? Math.min(250, (options.ttlMs * REFRESH_SHARE) / 20);
  const cache = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Target | null>>();
  /** Links due for the next background read, and those in the read under way. */
  const due = new Set<string>();
  const refreshing = new Set<string>();
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;
  // Links evicted while a read of them was on its way: the read may be older than the change, so it is not kept.
  const staleReads = new Set<string>();
  const staleRefreshes = new Set<string>();
  let reads = 0;
  let refreshes = 0;
  // The map's order is the eviction order. A hit moves its entry to the back once per era (an era ends after
  // half the cache's size in insertions), not on every hit: deleting and re-inserting a key per redirect costs
  // more than the rest of the lookup, and a link used within the era is still behind every older entry.
  let era = 0;
  let insertedThisEra = 0;

  const toTarget = (doc: LinkRedirectFields | null): Target | null =>
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
    const now = Date.now();
    const life = (target ? options.ttlMs : options.missTtlMs) * (1 - TTL_JITTER * random());
    const refreshAt = now + life * (1 - REFRESH_SHARE - REFRESH_SPREAD * random());
    cache.set(id, { target, until: now + life, refreshAt, era });
  }

  /** One store read per link at a time; what it finds is remembered unless the link was evicted meanwhile. */
  function read(id: string): Promise<Target | null> {
    let pending = inFlight.get(id);
    if (!pending) {
      reads++;
      pending = store.getRedirectTargets([id]).then(([doc]) => toTarget(doc ?? null));
      const settled = pending.then(
        (target) => {
          if (!staleReads.has(id)) remember(id, target);
        },
        () => undefined,
      );
      inFlight.set(id, pending);
      void settled.finally(() => {
        inFlight.delete(id);
        staleReads.delete(id);
      });
    }
    return pending;
  }

  function refreshSoon(id: string) {
    if (due.has(id) || refreshing.has(id) || inFlight.has(id)) return;
    due.add(id);
    if (!refreshTimer) {
      refreshTimer = setTimeout(() => void refreshDue(), refreshDelayMs);
      refreshTimer.unref();
    }
  }

  /** Reads the links due in one query; a failure leaves their entries as they are (they expire onto a request's read). */
  async function refreshDue() {
    refreshTimer = undefined;
    const ids = [...due].slice(0, REFRESH_BATCH);
    for (const id of ids) {
      due.delete(id);
      refreshing.add(id);
    }
    if (due.size > 0) {
      refreshTimer = setTimeout(() => void refreshDue(), refreshDelayMs);
      refreshTimer.unref();
    }
    reads += ids.length;
    refreshes += ids.length;
    try {
      const found = new Map((await store.getRedirectTargets(ids)).map((doc) => [doc._id, doc]));
      for (const id of ids) if (!staleRefreshes.has(id)) remember(id, toTarget(found.get(id) ?? null));
    } catch {
      // Left to expire: the first redirect after that reads the link on its path, as on a miss.
    } finally {
      for (const id of ids) {
        refreshing.delete(id);
        staleRefreshes.delete(id);
      }
    }
  }

  const live = (target: Target | null, now: number) =>
    target && (target.expires_at === null || target.expires_at > now) ? target : null;

  /** From memory only: the live target or null when the link is known here, undefined when it must be read. */
  function cached(id: string, now = Date.now()): Target | null | undefined {
    const hit = cache.get(id);
    if (!hit || hit.until <= now) return undefined;
    if (hit.refreshAt <= now) refreshSoon(id);
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
      return live(await read(id), now);
    },
    evict(id: string): void {
      cache.delete(id);
      due.delete(id);
      if (inFlight.has(id)) staleReads.add(id);
      if (refreshing.has(id)) staleRefreshes.add(id);
    },
    get size() {
      return cache.size;
    },
    /** Links read from the store so far (misses of the memory, concurrent misses of one link counted once; refreshes too). */
    get reads() {
      return reads;
    },
    /** Of those links read, the ones read in the background, in use and near the end of their entry's life. */
    get refreshes() {
      return refreshes;
    },
  };
}

export type Resolver = ReturnType<typeof createResolver>;
