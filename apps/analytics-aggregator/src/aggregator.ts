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
const events = meter.createCounter('platform.analytics.events', { description: 'Events folded into buckets, by outcome (counted, bot, repeat)' });
const writes = meter.createCounter('platform.analytics.bucket.writes', { description: 'Bucket upserts sent to the store' });
const delay = meter.createHistogram('platform.analytics.event.delay', { unit: 's', description: 'From an event to its counting (the newest of each batch)' });

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
  /** The ids of the events planned (first occurrences not counted before), to mark once applied. */
  ids: EventIdSet;
  events: number;
  newest: number;
  timings: { seen: number; plan: number };
}

function eventOf(message: BatchMessage<AggregatedType>): AnalyticsEvent {
  // The CloudEvents id is the event's identity: for a click it is its click_id (the redirector publishes it so).
  if (message.type === MessageTypeNames.ShortlinkClicked) return engagementOfClick(message.meta.id, message.value as BatchMessage<typeof MessageTypeNames.ShortlinkClicked>['value']);
  return shortenOfCreated(message.meta.id, message.value as BatchMessage<typeof MessageTypeNames.ShortlinkCreated>['value']);
}

/**
 * Folds one partition's batch into the buckets: drops producer repeats (an id seen earlier in the batch, or
 * counted in an earlier one), plans one update per distinct bucket, applies it under the partition's
 * watermarks, then marks the ids counted (libs/analytics, ADR 0016). Safe to run again on the same offsets,
 * whole or in other cuts, and after a crash between any two of its steps.
 *
 * A partition that has more waiting (a burst, an aggregator catching up) has its batches planned one after the
 * other and held (uncommitted), and written together once it has caught up or `maxBatch` events are planned:
 * the distinct buckets of a burst barely grow with its length, so the writes per event fall as the batches
 * grow. Held batches are one batch from the last commit on: a crash or a rebalance replays them whole.
 *
 * The writes of a fold are left to the consumer to finish (`Finishing`): it reads on while they land, and
 * commits once they have. The partition's next fold, planned meanwhile, leaves out the ids of the fold being
 * written (they are marked only once it is in the buckets).
 */
export function createAggregator(deps: AggregatorDeps) {
  const now = deps.now ?? Date.now;
  const maxBatch = deps.maxBatch ?? 100_000;
  const folds = new Map<string, Fold>();
  /** Per partition, the ids of the folds being written: not yet marked, but not to be counted again. */
  const writing = new Map<string, EventIdSet[]>();
  /** Per partition, the last offset planned: a batch fetched again (a retry, a rebalance) adds only what is new. */
  const planned = new Map<string, number>();
  const readId = createEventIdReader();
  const newFold = (): Fold => ({
    planner: createPlanner({ facets: deps.facets, now: now(), retention: deps.retention, countBots: deps.countBots }),
    ids: new EventIdSet(),
    events: 0,
    newest: 0,
    timings: { seen: 0, plan: 0 },
  });

  return async function ingest(batch: IncomingBatch<AggregatedType>): Promise<'hold' | Finishing> {
    const source = `${batch.topic}:${batch.partition}`;
    const fold = folds.get(source) ?? newFold();
    folds.set(source, fold);
    const after = planned.get(source) ?? -1;
    const earlier = writing.get(source) ?? [];
    // One pass: the events past what was planned, and among them the first occurrences that neither this fold
    // nor a fold being written has met (the lowest offset is the first: a partition's batch is in offset order).
    // They join the fold's ids at once, so that a repeat later in the batch finds them.
    const firsts: Array<{ offset: number; event: AnalyticsEvent; id: EventId }> = [];
    let arrived = 0;
    for (const m of inOffsetOrder(batch.messages, (message) => Number(message.offset))) {
      const offset = Number(m.offset);
      if (offset <= after) continue;
      arrived++;
      const event = eventOf(m);
      if (event.at > fold.newest) fold.newest = event.at;
      const id = readId(event.id);
      if (fold.ids.has(id) || earlier.some((written) => written.has(id))) continue;
      fold.ids.add(id);
      firsts.push({ offset, event, id });
    }
    const t0 = performance.now();
    let seen: boolean[];
    try {
      seen = await deps.sightings.seen(firsts.map((i) => i.id));
    } catch (error) {
      // The batch comes again: its ids must not look planned then.
      for (const i of firsts) fold.ids.delete(i.id);
      throw error;
    }
    const fresh: typeof firsts = [];
    firsts.forEach((i, k) => {
      if (seen[k]) fold.ids.delete(i.id);
      else fresh.push(i);
    });
    const t1 = performance.now();
    fold.planner.add(fresh);
    fold.events += arrived;
    fold.timings.seen += t1 - t0;
    fold.timings.plan += performance.now() - t1;
    planned.set(source, Math.max(after, Number(batch.lastOffset)));
    if ((batch.behind ?? 0) > 0 && fold.planner.events < maxBatch) return 'hold';

    folds.delete(source);
    writing.set(source, [...(writing.get(source) ?? []), fold.ids]);
    let plan: BatchPlan | undefined;
    return {
      finish: async () => {
        const t2 = performance.now();
        plan ??= fold.planner.plan();
        const t3 = performance.now();
        const applied = await deps.writer.apply(source, Number(batch.lastOffset), plan);
        const t4 = performance.now();
        await deps.sightings.mark(fold.ids);
        const left = (writing.get(source) ?? []).filter((written) => written !== fold.ids);
        if (left.length > 0) writing.set(source, left);
        else writing.delete(source);
        deps.logger?.debug(
          {
            source,
            events: fold.events,
            fresh: fold.ids.size,
            buckets: plan.buckets.size,
            updates: applied.updates,
            rounds: applied.rounds,
            seen_ms: Math.round(fold.timings.seen),
            plan_ms: Math.round(fold.timings.plan + t3 - t2),
            apply_ms: Math.round(t4 - t3),
            mark_ms: Math.round(performance.now() - t4),
          },
          'batch folded',
        );
        events.add(plan.counted, { outcome: 'counted' });
        events.add(plan.bots, { outcome: 'bot' });
        events.add(fold.events - fold.ids.size, { outcome: 'repeat' });
        writes.add(applied.updates);
        if (fold.newest > 0) delay.record(Math.max(0, now() - fold.newest) / 1000);
      },
    };
  };
}
