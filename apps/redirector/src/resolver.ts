import type { LinkRedirectFields, LinksStore } from '@platform/links';
import { LRUCache } from 'lru-cache';

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
  /** When the cache's TTL runs out and a hit has the link read again in the background (ms on `clock`). */
  refreshAt: number;
  /** The end of the entry's life: past it, a request waits for a read (ms on `clock`). */
  until: number;
  /** Its background read is on its way: the hits meanwhile start none (and allocate nothing). */
  refreshing?: boolean;
}

/** Why a link is read: a request waits for it, or it is in use and near the end of its entry's life. */
type ReadReason = 'request' | 'refresh';

const REQUEST = { context: 'request' } as const;
// A failed background read leaves the entry as it is: it expires onto a request's read.
const REFRESH = { context: 'refresh', allowStaleOnFetchRejection: true } as const;

export interface ResolverOptions {
  maxEntries: number;
  ttlMs: number;
  missTtlMs: number;
  random?: () => number;
  refreshDelayMs?: number;
  /** The clock of the entries' lives and of link expiry (tests move it). */
  clock?: () => number;
}

/**
 * Short links by `domain/hash`, from memory (an lru-cache), the store on a miss (unknown ones remembered briefly
 * too). Every change is evicted by the links.events consumer, so an edit or an archive takes effect within the
 * event's latency; `ttlMs` bounds what a missed event could leave behind.
 *
 * The cache's TTL is an entry's refresh point, not its end: past it the entry is stale, a hit is still answered
 * from it (`allowStale`) and has lru-cache read the link again in the background, once however many hits come
 * meanwhile (`fetchMethod`, which also makes concurrent misses of one link one read). Those background reads
 * gather for up to a quarter of a second and go to the store as one query. A busy link therefore never waits on
 * the store; the lives and refresh points are drawn at random, so the links of one warm-up neither expire in the
 * same second and queue their redirects behind a thousand reads, nor are all read again in one burst that takes
 * the store's cores from the redirects. An eviction while a read is on its way aborts it: the request that waited
 * gets what was read, but it is not kept (it may predate the change).
 */
export function createResolver(store: Pick<LinksStore, 'getRedirectTargets'>, options: ResolverOptions) {
  const random = options.random ?? Math.random;
  const clock = options.clock ?? Date.now;
  // On FerretDB a query costs ~0.3 ms of its CPU and each link in it ~0.2 ms, so gathering saves the first, and
  // spreading the refreshes out (REFRESH_SPREAD) keeps the second from coming all at once.
  const refreshDelayMs = options.refreshDelayMs ?? Math.min(250, (options.ttlMs * REFRESH_SHARE) / 20);
  let reads = 0;
  let refreshes = 0;

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

  /** Links due for the next background read, each with the callbacks of its lru-cache fetch. */
  const due = new Map<string, { resolve: (target: Target | null) => void; reject: (error: unknown) => void }>();
  let refreshTimer: ReturnType<typeof setTimeout> | undefined;

  function refreshLater(id: string): Promise<Target | null> {
    return new Promise((resolve, reject) => {
      due.set(id, { resolve, reject });
      if (!refreshTimer) {
        refreshTimer = setTimeout(() => void refreshDue(), refreshDelayMs);
        refreshTimer.unref();
      }
    });
  }

  async function refreshDue() {
    refreshTimer = undefined;
    const batch = [...due].slice(0, REFRESH_BATCH);
    for (const [id] of batch) due.delete(id);
    if (due.size > 0) {
      refreshTimer = setTimeout(() => void refreshDue(), refreshDelayMs);
      refreshTimer.unref();
    }
    reads += batch.length;
    refreshes += batch.length;
    try {
      const found = new Map((await store.getRedirectTargets(batch.map(([id]) => id))).map((doc) => [doc._id, doc]));
      for (const [id, pending] of batch) pending.resolve(toTarget(found.get(id) ?? null));
    } catch (error) {
      for (const [, pending] of batch) pending.reject(error);
    }
  }

  async function readNow(id: string): Promise<Target | null> {
    reads++;
    const [doc] = await store.getRedirectTargets([id]);
    return toTarget(doc ?? null);
  }

  const cache = new LRUCache<string, Entry, ReadReason>({
    max: options.maxEntries,
    // Each entry is given its own (below); this one only tells lru-cache that entries have one.
    ttl: options.ttlMs,
    allowStale: true,
    noDeleteOnStaleGet: true,
    ignoreFetchAbort: true,
    ...(options.clock ? { perf: { now: clock }, ttlResolution: 0 } : {}),
    fetchMethod: async (id, _stale, { options: set, context }) => {
      const target = await (context === 'refresh' ? refreshLater(id) : readNow(id));
      const now = clock();
      const life = (target ? options.ttlMs : options.missTtlMs) * (1 - TTL_JITTER * random());
      const untilRefresh = life * (1 - REFRESH_SHARE - REFRESH_SPREAD * random());
      set.ttl = untilRefresh;
      return { target, refreshAt: now + untilRefresh, until: now + life };
    },
  });

  const live = (target: Target | null, now: number) =>
    target && (target.expires_at === null || target.expires_at > now) ? target : null;

  /** From memory only: the live target or null when the link is known here, undefined when it must be read. */
  function cached(id: string): Target | null | undefined {
    const entry = cache.get(id);
    if (entry === undefined) return undefined;
    const now = clock();
    if (entry.until <= now) return undefined;
    if (entry.refreshAt <= now && !entry.refreshing) {
      entry.refreshing = true;
      // A successful read replaces the entry; after a failed one the next hit tries again.
      void cache.fetch(id, REFRESH).finally(() => (entry.refreshing = false));
    }
    return live(entry.target, now);
  }

  return {
    cached,
    /** The live target of a link, or null (unknown, archived, deleted or expired). */
    async resolve(id: string): Promise<Target | null> {
      const known = cached(id);
      if (known !== undefined) return known;
      // Unknown here, or past the end of its life: a stale entry is not an answer (a background read of it, if
      // one is on its way, is waited for).
      const entry = await cache.fetch(id, { ...REQUEST, allowStale: false, forceRefresh: true });
      return live(entry?.target ?? null, clock());
    },
    evict(id: string): void {
      cache.delete(id);
      const pending = due.get(id);
      // Its background read no longer matters: the next request reads the link anew.
      if (pending) {
        due.delete(id);
        pending.resolve(null);
      }
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
