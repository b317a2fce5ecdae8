import type { Connection } from '@platform/mongo';
import { addUnits, bucketStart, type Unit } from './buckets.js';
import { bucketId, bucketIdRange, type Scope } from './plan.js';
import { BUCKETS, type BucketDoc } from './store.js';

export interface AnalyticsStoreOptions {
  /**
   * How long the documents of closed buckets are reused (0, the default: never). A bucket is closed once it
   * ended {@link LATE_MS} ago; an event that comes later than that (a replay, an aggregator catching up) shows
   * in a closed bucket this much later. Open buckets are always read.
   */
  closedTtlMs?: number;
  /** The most closed-bucket documents kept at once. */
  closedMaxDocs?: number;
  now?: () => number;
}

interface ClosedEntry {
  docs: Promise<BucketDoc[]>;
  until: number;
  size: number;
  refreshing: boolean;
}

/** How long after its end a bucket may still get events in the normal course (the aggregator's lag). */
export const LATE_MS = 5 * 60_000;

/**
 * Reads of the aggregate collections, for the metrics endpoints. The same read often comes several times at
 * once (a dashboard's panels, its viewers, their refreshes): one already on its way is shared, and so are
 * reused closed buckets, so the documents it answers are read-only.
 */
export function createAnalyticsStore(connection: Connection, options: AnalyticsStoreOptions = {}) {
  const buckets = connection.collection<BucketDoc>(BUCKETS);
  const { closedTtlMs = 0, closedMaxDocs = 20_000, now = Date.now } = options;
  const reading = new Map<string, Promise<BucketDoc[]>>();
  const closed = new Map<string, ClosedEntry>();
  let closedDocs = 0;

  /** The documents whose `_id` is from `from` to `to`, both included, with `t` and the given fields (all: null). */
  const range = (from: string, to: string, fields: string[] | null): Promise<BucketDoc[]> => {
    const key = JSON.stringify([from, to, fields]);
    let read = reading.get(key);
    if (!read) {
      const projection = fields && Object.fromEntries(['t', ...fields].map((field) => [field, 1]));
      read = buckets
        .find({ _id: { $gte: from, $lte: to } }, projection ? { projection } : {})
        .toArray()
        .finally(() => reading.delete(key));
      reading.set(key, read);
    }
    return read;
  };

  const forget = (key: string) => {
    closedDocs -= closed.get(key)?.size ?? 0;
    closed.delete(key);
  };

  /** Keeps a read of closed buckets for `closedTtlMs` from now, in place of what the key held. */
  const keep = (key: string, docs: Promise<BucketDoc[]>) => {
    forget(key);
    const entry: ClosedEntry = { docs, until: now() + closedTtlMs, size: 0, refreshing: false };
    closed.set(key, entry);
    docs.then(
      (found) => {
        if (closed.get(key) !== entry) return;
        entry.size = found.length;
        closedDocs += found.length;
        for (const oldest of closed.keys()) {
          if (closedDocs <= closedMaxDocs) break;
          forget(oldest);
        }
      },
      () => closed.get(key) === entry && forget(key),
    );
    return entry;
  };

  /**
   * The same range of closed buckets, whole (FerretDB decodes a whole document whatever the projection, so
   * one copy serves every endpoint's fields), reused for `closedTtlMs`. In the last fifth of that time it is
   * read again in the background, so that steady traffic never waits for it.
   */
  const closedRange = (from: string, to: string): Promise<BucketDoc[]> => {
    const key = `${from}\n${to}`;
    const hit = closed.get(key);
    const at = now();
    if (!hit || hit.until <= at) return keep(key, range(from, to, null)).docs;
    if (hit.until - at < closedTtlMs / 5 && !hit.refreshing) {
      hit.refreshing = true;
      range(from, to, null).then(
        (found) => closed.get(key) === hit && keep(key, Promise.resolve(found)),
        () => (hit.refreshing = false),
      );
    }
    return hit.docs;
  };

  return {
    /**
     * A scope's buckets of one unit that start from `from` (null: its first) to `to` (both bucket starts,
     * included), with at least the given fields (`n`, `f.clicks.country`, ...): one `_id` range on the primary
     * key, or the closed buckets' part reused and the open ones' read.
     */
    async buckets(scope: Scope, unit: Unit, from: number | null, to: number, fields: string[]): Promise<BucketDoc[]> {
      if (from !== null && from > to) return [];
      const first = from === null ? bucketIdRange(scope, unit).from : bucketId(scope, unit, from);
      if (closedTtlMs <= 0) return range(first, bucketId(scope, unit, to), fields);
      const open = bucketStart(unit, now() - LATE_MS);
      if (from !== null && from >= open) return range(first, bucketId(scope, unit, to), fields);
      if (to < open) return closedRange(first, bucketId(scope, unit, to));
      const parts = await Promise.all([
        closedRange(first, bucketId(scope, unit, addUnits(unit, open, -1))),
        range(bucketId(scope, unit, open), bucketId(scope, unit, to), fields),
      ]);
      return parts.flat();
    },

    /**
     * The scope's oldest month bucket with its days (`d`), or null if it has none; with `before`, only among
     * the months that start before it (an empty range costs nothing: a link's clicks come after its creation).
     */
    async oldestMonth(scope: Scope, before?: number): Promise<Pick<BucketDoc, 't' | 'd'> | null> {
      const range = bucketIdRange(scope, 'month');
      const to = before === undefined ? range.to : bucketId(scope, 'month', before);
      const [first] = await buckets
        .find({ _id: { $gte: range.from, $lt: to } }, { projection: { t: 1, d: 1 } })
        .sort({ _id: 1 })
        .limit(1)
        .toArray();
      return first ?? null;
    },
  };
}

export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>;
