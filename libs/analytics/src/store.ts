import { UnavailableError } from '@platform/errors';
import { isDuplicateKeyError, type Connection } from '@platform/mongo';
import type { Unit } from './buckets.js';
import { encodeKey } from './facets.js';
import { bucketId, bucketIdRange, deltaAfter, type BatchPlan, type PlannedBucket, type Scope } from './plan.js';

/** The counters of a bucket: `n.<kind>` (clicks, scans, lib_button_clicks), `n.bots`, `n.shortens`. */
export type Counters = Partial<Record<string, number>>;
/** Facet counts by engagement kind, facet and (escaped) value: `f.clicks.country.US`. */
export type FacetCounts = Partial<Record<string, Partial<Record<string, Partial<Record<string, number>>>>>>;

export interface BucketDoc {
  _id: string;
  /** Scope kind (`l`, `g`, `q`), key, unit and start. */
  s: string;
  k: string;
  u: Unit;
  t: Date;
  /** Minute and hour buckets only: deleted by the sweeper after this (FerretDB has no TTL indexes). */
  expires_at?: Date;
  n?: Counters;
  f?: FacetCounts;
  /** The last offset of each source (`<topic>:<partition>`, escaped) already counted in this bucket. */
  wm?: Record<string, number>;
}

/** One event id's first sighting: where in the log it was (a repeat elsewhere is a duplicate). */
interface SeenDoc {
  _id: string;
  src: string;
  o: number;
  expires_at: Date;
}

const BUCKETS = 'analytics_buckets';
const SEEN = 'analytics_seen';
/** FerretDB (ADR 0010) pushes `$in` down to the primary key for up to 100 values. */
const IN_CHUNK = 100;
const MAX_ROUNDS = 20;

const chunks = <T>(list: T[], size: number): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

export interface AnalyticsWriterOptions {
  /** How long an event id is remembered to drop a producer's repeat of it (a re-published click). */
  dedupeWindowMs?: number;
  now?: () => number;
}

/**
 * The aggregate collections' one writer (the analytics aggregator; lint rule `WRITERS`). Exactly-once counting
 * over at-least-once delivery, without transactions (ADR 0016):
 * - a Kafka redelivery (restart, rebalance, crash mid-batch) is dropped per bucket by the watermark of its
 *   partition stored in the bucket document itself, updated in the same single-document write as the counts;
 * - a producer's repeat of an event (the same id at a later offset) is dropped by the event id's first
 *   sighting (`analytics_seen`), recorded with the offset it was first seen at, so a replay of that same
 *   offset still counts it.
 */
export function createAnalyticsWriter(connection: Connection, options: AnalyticsWriterOptions = {}) {
  const buckets = connection.collection<BucketDoc>(BUCKETS);
  const seen = connection.collection<SeenDoc>(SEEN);
  const now = options.now ?? Date.now;
  const dedupeWindowMs = options.dedupeWindowMs ?? 48 * 3600_000;

  async function sightings(ids: string[]): Promise<Map<string, SeenDoc>> {
    const found = new Map<string, SeenDoc>();
    for (const chunk of chunks(ids, IN_CHUNK)) {
      for (const doc of await seen.find({ _id: { $in: chunk } }).toArray()) found.set(doc._id, doc);
    }
    return found;
  }

  async function watermarks(ids: string[], field: string): Promise<Map<string, number | null>> {
    const marks = new Map<string, number | null>();
    for (const chunk of chunks(ids, IN_CHUNK)) {
      for (const doc of await buckets.find({ _id: { $in: chunk } }, { projection: { [field]: 1 } }).toArray()) {
        marks.set(doc._id, doc.wm?.[field.slice(3)] ?? null);
      }
    }
    return marks;
  }

  return {
    /** The collections whose `expires_at` the runtime's sweeper enforces. */
    sweptCollections: [buckets, seen],

    async ensureIndexes(): Promise<void> {
      await buckets.createIndex({ expires_at: 1 });
      await seen.createIndex({ expires_at: 1 });
    },

    /**
     * Which of a partition's events are first sightings of their id (the rest are repeats, not counted):
     * one unordered insert of every id; an id that is already there counts only if it was first seen at this
     * very offset (a redelivery of it, which the bucket watermarks then sort out).
     */
    async firstSightings(source: string, events: ReadonlyArray<{ id: string; offset: number }>): Promise<Set<number>> {
      const expires = new Date(now() + dedupeWindowMs);
      let pending = [...events];
      const first = new Set<number>();
      for (let round = 0; pending.length > 0; round++) {
        if (round >= MAX_ROUNDS) throw new UnavailableError('analytics_dedupe_stuck', 'event ids could not be recorded');
        const docs = new Map<string, SeenDoc>();
        for (const e of pending) if (!docs.has(e.id)) docs.set(e.id, { _id: e.id, src: source, o: e.offset, expires_at: expires });
        try {
          await seen.insertMany([...docs.values()], { ordered: false });
          for (const e of pending) if (docs.get(e.id)!.o === e.offset) first.add(e.offset);
          return first;
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
        }
        // Some ids were there already (and FerretDB may have stopped at the first): look every one up.
        const found = await sightings([...docs.keys()]);
        const missing: typeof pending = [];
        for (const e of pending) {
          const doc = found.get(e.id);
          if (!doc) missing.push(e);
          else if (doc.src === source && doc.o === e.offset) first.add(e.offset);
        }
        pending = missing;
      }
      return first;
    },

    /**
     * Applies a planned batch of one source (`<topic>:<partition>`, events up to `lastOffset`): one upsert per
     * bucket, `$inc` of the events past the bucket's watermark and the watermark set to `lastOffset`, under a
     * compare-and-set of that watermark. The first round assumes no bucket has seen the batch (the common
     * case: one bulk write); a bucket that has (a redelivery, or a zombie member during a rebalance) fails its
     * compare-and-set as a duplicate key, and the next round reads the watermarks and counts only what is new.
     */
    async apply(source: string, lastOffset: number, plan: BatchPlan): Promise<{ updates: number; rounds: number }> {
      const mark = `wm.${encodeKey(source)}`;
      let pending: PlannedBucket[] = [...plan.buckets.values()];
      let updates = 0;
      let round = 0;
      for (; pending.length > 0; round++) {
        if (round >= MAX_ROUNDS) throw new UnavailableError('analytics_apply_stuck', `buckets of ${source} kept changing under the aggregator`);
        const known = round === 0 ? null : await watermarks(pending.map((b) => b.id), mark);
        const ops = [];
        const sent: PlannedBucket[] = [];
        for (const bucket of pending) {
          const watermark = known ? (known.get(bucket.id) ?? null) : null;
          const inc = deltaAfter(bucket, watermark);
          if (!inc) continue;
          const guard = known
            ? watermark === null
              ? { [mark]: { $exists: false } }
              : { [mark]: watermark }
            : { $or: [{ [mark]: { $lt: bucket.offsets[0]! } }, { [mark]: { $exists: false } }] };
          const created: Record<string, unknown> = { s: bucket.scope.kind[0], k: bucket.scope.key, u: bucket.unit, t: new Date(bucket.start) };
          if (bucket.expiresAt !== null) created['expires_at'] = new Date(bucket.expiresAt);
          ops.push({
            updateOne: {
              filter: { _id: bucket.id, ...guard },
              update: { $inc: inc, $set: { [mark]: lastOffset }, $setOnInsert: created },
              upsert: true,
            },
          });
          sent.push(bucket);
        }
        if (ops.length === 0) break;
        try {
          await buckets.bulkWrite(ops as never, { ordered: false });
          updates += ops.length;
          pending = [];
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          pending = sent;
        }
      }
      return { updates, rounds: round };
    },
  };
}

export type AnalyticsWriter = ReturnType<typeof createAnalyticsWriter>;

/** Reads of the aggregate collections, for the metrics endpoints. */
export function createAnalyticsStore(connection: Connection) {
  const buckets = connection.collection<BucketDoc>(BUCKETS);
  return {
    /**
     * A scope's buckets of one unit that start from `from` to `to` (both bucket starts, included), with only
     * the given fields (`n`, `f.clicks.country`, ...): one `_id` range on the primary key.
     */
    async buckets(scope: Scope, unit: Unit, from: number, to: number, fields: string[]): Promise<BucketDoc[]> {
      if (from > to) return [];
      const projection = Object.fromEntries(['t', ...fields].map((field) => [field, 1]));
      return buckets.find({ _id: { $gte: bucketId(scope, unit, from), $lte: bucketId(scope, unit, to) } }, { projection }).toArray();
    },

    /** The start of the scope's oldest bucket of this unit, or null if it has none. */
    async earliest(scope: Scope, unit: Unit): Promise<number | null> {
      const range = bucketIdRange(scope, unit);
      const [first] = await buckets.find({ _id: { $gte: range.from, $lt: range.to } }, { projection: { t: 1 } }).sort({ _id: 1 }).limit(1).toArray();
      return first ? first.t.getTime() : null;
    },
  };
}

export type AnalyticsStore = ReturnType<typeof createAnalyticsStore>;
