import { UnavailableError } from '@platform/errors';
import { isDuplicateKeyError, type Connection } from '@platform/mongo';
import type { Unit } from './buckets.js';
import { encodeKey } from './facets.js';
import { deltaAfter, type BatchPlan, type PlannedBucket } from './plan.js';

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
  /** The counters of the finer buckets inside this one (see `childCounters`): minutes, hours, days, weeks. */
  m?: Partial<Record<string, Counters>>;
  h?: Partial<Record<string, Counters>>;
  d?: Partial<Record<string, Counters>>;
  w?: Partial<Record<string, Counters>>;
  /** The last offset of each source (`<topic>:<partition>`, escaped) already counted in this bucket. */
  wm?: Record<string, number>;
}

export const BUCKETS = 'analytics_buckets';
/** FerretDB (ADR 0010) pushes `$in` down to the primary key for up to 100 values. */
const IN_CHUNK = 100;
const MAX_ROUNDS = 20;
/** Bucket upserts per bulk write, and bulk writes in flight: a batch's buckets are independent documents. */
const BULK = 100;
const IN_FLIGHT = 4;

const chunks = <T>(list: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));

/**
 * The aggregate collection's one writer (the analytics aggregator; lint rule `WRITERS`). A Kafka redelivery
 * (restart, rebalance, crash mid-batch) is dropped per bucket by the watermark of its partition stored in the
 * bucket document itself, updated in the same single-document write as the counts (ADR 0016); a producer's
 * repeat of an event is dropped before, by its sighting (`sightings.ts`).
 */
export function createAnalyticsWriter(connection: Connection) {
  const buckets = connection.collection<BucketDoc>(BUCKETS);

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
    sweptCollections: [buckets],

    async ensureIndexes(): Promise<void> {
      await buckets.createIndex({ expires_at: 1 });
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
        if (round >= MAX_ROUNDS)
          throw new UnavailableError(
            'analytics_apply_stuck',
            `buckets of ${source} kept changing under the aggregator`,
          );
        const known =
          round === 0
            ? null
            : await watermarks(
                pending.map((b) => b.id),
                mark,
              );
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
            : { $or: [{ [mark]: { $lt: bucket.firstOffset } }, { [mark]: { $exists: false } }] };
          const created: Record<string, unknown> = {
            s: bucket.scope.kind[0],
            k: bucket.scope.key,
            u: bucket.unit,
            t: new Date(bucket.start),
          };
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
        // In chunks, a few at once; a chunk with a failed compare-and-set goes to the next round whole (FerretDB
        // may stop an unordered bulk write at its first error, so which of its writes happened is read again).
        const failed: PlannedBucket[] = [];
        const parts = chunks(
          ops.map((op, i) => ({ op, bucket: sent[i]! })),
          BULK,
        );
        for (const wave of chunks(parts, IN_FLIGHT)) {
          await Promise.all(
            wave.map(async (part) => {
              try {
                await buckets.bulkWrite(part.map((p) => p.op) as never, { ordered: false });
                updates += part.length;
              } catch (error) {
                if (!isDuplicateKeyError(error)) throw error;
                failed.push(...part.map((p) => p.bucket));
              }
            }),
          );
        }
        pending = failed;
      }
      return { updates, rounds: round };
    },
  };
}

export type AnalyticsWriter = ReturnType<typeof createAnalyticsWriter>;
