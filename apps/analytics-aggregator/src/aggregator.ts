import { metrics } from '@opentelemetry/api';
import {
  EventIdSet,
  createEventIdReader,
  createPlanner,
  engagementOfClick,
  inOffsetOrder,
  shortenOfCreated,
  type AnalyticsEvent,
  type AnalyticsWriter,
  type BatchPlan,
  type EventId,
  type FacetReader,
  type PlannedEvent,
  type Planner,
  type Retention,
  type Sightings,
} from '@platform/analytics';
import { MessageTypeNames } from '@platform/contracts';
import type { BatchMessage, Finishing, IncomingBatch } from '@platform/kafka';

/** The records the aggregator folds: clicks (and scans) on links.clicks, new links on links.events. */
export const AGGREGATED = [MessageTypeNames.ShortlinkClicked, MessageTypeNames.ShortlinkCreated] as const;
export type AggregatedType = (typeof AGGREGATED)[number];

const meter = metrics.getMeter('@platform/analytics-aggregator');
const events = meter.createCounter('platform.analytics.events', {
  description: 'Events folded into buckets, by outcome (counted, bot, repeat)',
});
const writes = meter.createCounter('platform.analytics.bucket.writes', {
  description: 'Bucket upserts sent to the store',
});
const delay = meter.createHistogram('platform.analytics.event.delay', {
  unit: 's',
  description: 'From an event to its counting (the newest of each batch)',
});

export interface AggregatorDeps {
  /** Logs each batch's timings at debug level. */
  logger?: { debug(fields: object, message: string): void };
  writer: AnalyticsWriter;
  sightings: Sightings;
  facets: FacetReader;
  retention: Retention;
  countBots: boolean;
  /** The most events of a partition folded into one set of bucket writes (default 100 000). */
  maxBatch?: number;
  now?: () => number;
}

/** What a partition's batches added since its last bucket writes: applied together, once it has caught up. */
interface Fold {
  planner: Planner;
  /** The ids of the events planned (first occurrences in the fold), to mark once applied. */
  ids: EventIdSet;
  /**
   * Per event planned, in the planner's order: its offset, its cell and its id (a producer chunk's slot in
   * `chunks` times 2^20 plus its bit, or the id itself), to take out those found already counted.
   */
  offsets: number[];
  cells: PlannedEvent[];
  keys: Array<number | string>;
  chunks: string[];
  events: number;
  newest: number;
  timings: { plan: number };
}

const CHUNK = 2 ** 20;

function eventOf(message: BatchMessage<AggregatedType>): AnalyticsEvent {
  // The CloudEvents id is the event's identity: for a click it is its click_id (the redirector publishes it so).
  if (message.type === MessageTypeNames.ShortlinkClicked)
    return engagementOfClick(
      message.meta.id,
      message.value as BatchMessage<typeof MessageTypeNames.ShortlinkClicked>['value'],
    );
  return shortenOfCreated(
    message.meta.id,
    message.value as BatchMessage<typeof MessageTypeNames.ShortlinkCreated>['value'],
  );
}

/**
 * Folds one partition's batch into the buckets: drops producer repeats (an id met earlier in the fold, or counted
 * in an earlier one), plans one update per distinct bucket, applies it under the partition's watermarks, then
 * marks the ids counted (libs/analytics, ADR 0016). Safe to run again on the same offsets, whole or in other
 * cuts, and after a crash between any two of its steps.
 *
 * A partition that has more waiting (a burst, an aggregator catching up) has its batches planned one after the
 * other and held (uncommitted), and written together once it has caught up or `maxBatch` events are planned:
 * the distinct buckets of a burst barely grow with its length, so the writes per event fall as the batches
 * grow. Held batches are one batch from the last commit on: a crash or a rebalance replays them whole.
 *
 * The writes of a fold are left to the consumer to finish (`Finishing`): it reads on while they land, and
 * commits once they have. Planning is synchronous: a batch's records are let go as soon as it is planned. Which
 * of the fold's ids were counted before is asked once, when the fold is written; the consumer runs a
 * partition's finishes one after the other, so the folds written before it have marked theirs by then.
 */
export function createAggregator(deps: AggregatorDeps) {
  const now = deps.now ?? Date.now;
  const maxBatch = deps.maxBatch ?? 100_000;
  const folds = new Map<string, Fold>();
  /** Per partition, the last offset planned: a batch fetched again (a retry, a rebalance) adds only what is new. */
  const planned = new Map<string, number>();
  const readId = createEventIdReader();
  const newFold = (): Fold => ({
    planner: createPlanner({ facets: deps.facets, now: now(), retention: deps.retention, countBots: deps.countBots }),
    ids: new EventIdSet(),
    offsets: [],
    cells: [],
    keys: [],
    chunks: [],
    events: 0,
    newest: 0,
    timings: { plan: 0 },
  });
  const keyOf = (fold: Fold, id: EventId): number | string => {
    if (id.chunk === null) return id.id;
    let slot = fold.chunks.lastIndexOf(id.chunk);
    if (slot < 0) slot = fold.chunks.push(id.chunk) - 1;
    return slot * CHUNK + id.bit;
  };

  /** Takes out of the fold's plan the events whose ids `counted` holds (repeats of events counted earlier). */
  function dropCounted(fold: Fold, counted: EventIdSet): number {
    if (counted.size === 0) return 0;
    let dropped = 0;
    fold.keys.forEach((key, i) => {
      const found =
        typeof key === 'string'
          ? counted.has({ id: key, chunk: null, bit: 0 })
          : counted.hasBit(fold.chunks[Math.floor(key / CHUNK)]!, key % CHUNK);
      if (!found) return;
      fold.planner.remove(fold.offsets[i]!, fold.cells[i]!);
      dropped++;
    });
    return dropped;
  }

  return async function ingest(batch: IncomingBatch<AggregatedType>): Promise<'hold' | Finishing> {
    const source = `${batch.topic}:${batch.partition}`;
    const fold = folds.get(source) ?? newFold();
    folds.set(source, fold);
    const after = planned.get(source) ?? -1;
    const t0 = performance.now();
    // One pass over the events past what was planned, planning the first occurrence of each id in the fold (the
    // lowest offset is the first: a partition's batch is in offset order).
    for (const m of inOffsetOrder(batch.messages, (message) => Number(message.offset))) {
      const offset = Number(m.offset);
      if (offset <= after) continue;
      fold.events++;
      const event = eventOf(m);
      if (event.at > fold.newest) fold.newest = event.at;
      const id = readId(event.id);
      if (fold.ids.has(id)) continue;
      fold.ids.add(id);
      fold.offsets.push(offset);
      fold.cells.push(fold.planner.addOne(offset, event));
      fold.keys.push(keyOf(fold, id));
    }
    fold.timings.plan += performance.now() - t0;
    planned.set(source, Math.max(after, Number(batch.lastOffset)));
    if ((batch.behind ?? 0) > 0 && fold.planner.events < maxBatch) return 'hold';

    folds.delete(source);
    let plan: BatchPlan | undefined;
    let repeats = 0;
    let seenMs = 0;
    return {
      finish: async () => {
        const t1 = performance.now();
        if (!plan) {
          // Asked again if it fails: nothing is taken out of the plan before the answer is in.
          const counted = await deps.sightings.seen(fold.ids);
          seenMs = performance.now() - t1;
          repeats = dropCounted(fold, counted);
          plan = fold.planner.plan();
        }
        const t2 = performance.now();
        const applied = await deps.writer.apply(source, Number(batch.lastOffset), plan);
        const t3 = performance.now();
        await deps.sightings.mark(fold.ids);
        deps.logger?.debug(
          {
            source,
            events: fold.events,
            fresh: fold.ids.size - repeats,
            buckets: plan.buckets.size,
            updates: applied.updates,
            rounds: applied.rounds,
            seen_ms: Math.round(seenMs),
            plan_ms: Math.round(fold.timings.plan + t2 - t1 - seenMs),
            apply_ms: Math.round(t3 - t2),
            mark_ms: Math.round(performance.now() - t3),
          },
          'batch folded',
        );
        events.add(plan.counted, { outcome: 'counted' });
        events.add(plan.bots, { outcome: 'bot' });
        events.add(fold.events - plan.counted - plan.bots, { outcome: 'repeat' });
        writes.add(applied.updates);
        if (fold.newest > 0) delay.record(Math.max(0, now() - fold.newest) / 1000);
      },
    };
  };
}
