import { metrics } from '@opentelemetry/api';
import { engagementOfClick, planBatch, shortenOfCreated, type AnalyticsEvent, type AnalyticsWriter, type FacetReader, type Retention, type Sightings } from '@platform/analytics';
import { MessageTypeNames } from '@platform/contracts';
import type { BatchMessage, IncomingBatch } from '@platform/kafka';

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
  now?: () => number;
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
 */
export function createAggregator(deps: AggregatorDeps) {
  const now = deps.now ?? Date.now;
  return async function ingest(batch: IncomingBatch<AggregatedType>): Promise<void> {
    const source = `${batch.topic}:${batch.partition}`;
    const items = batch.messages.map((m) => ({ offset: Number(m.offset), event: eventOf(m) })).sort((a, b) => a.offset - b.offset);
    const ids = new Set<string>();
    const firsts = items.filter((i) => !ids.has(i.event.id) && ids.add(i.event.id));
    const t0 = performance.now();
    const seen = await deps.sightings.seen(firsts.map((i) => i.event.id));
    const fresh = firsts.filter((_, k) => !seen[k]);
    const t1 = performance.now();
    const plan = planBatch(fresh, { facets: deps.facets, now: now(), retention: deps.retention, countBots: deps.countBots });
    const t2 = performance.now();
    const applied = await deps.writer.apply(source, Number(batch.lastOffset), plan);
    const t3 = performance.now();
    await deps.sightings.mark(fresh.map((i) => i.event.id));
    deps.logger?.debug(
      { source, events: items.length, fresh: fresh.length, buckets: plan.buckets.size, updates: applied.updates, rounds: applied.rounds, seen_ms: Math.round(t1 - t0), plan_ms: Math.round(t2 - t1), apply_ms: Math.round(t3 - t2), mark_ms: Math.round(performance.now() - t3) },
      'batch folded',
    );
    events.add(plan.counted, { outcome: 'counted' });
    events.add(plan.bots, { outcome: 'bot' });
    events.add(items.length - fresh.length, { outcome: 'repeat' });
    writes.add(applied.updates);
    const newest = items.reduce((max, i) => Math.max(max, i.event.at), 0);
    if (newest > 0) delay.record(Math.max(0, now() - newest) / 1000);
  };
}
