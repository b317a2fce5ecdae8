import { metrics } from '@opentelemetry/api';
import { engagementOfClick, planBatch, shortenOfCreated, type AnalyticsEvent, type AnalyticsWriter, type FacetReader, type Retention } from '@platform/analytics';
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
  writer: AnalyticsWriter;
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
 * Folds one partition's batch into the buckets: drops producer repeats by event id, plans one update per
 * distinct bucket, and applies it under the partition's watermarks (libs/analytics, ADR 0016). Safe to run
 * again on the same offsets, whole or in other cuts.
 */
export function createAggregator(deps: AggregatorDeps) {
  const now = deps.now ?? Date.now;
  return async function ingest(batch: IncomingBatch<AggregatedType>): Promise<void> {
    const source = `${batch.topic}:${batch.partition}`;
    const items = batch.messages.map((m) => ({ offset: Number(m.offset), event: eventOf(m) }));
    const first = await deps.writer.firstSightings(source, items.map((i) => ({ id: i.event.id, offset: i.offset })));
    const fresh = items.filter((i) => first.has(i.offset));
    const plan = planBatch(fresh, { facets: deps.facets, now: now(), retention: deps.retention, countBots: deps.countBots });
    const applied = await deps.writer.apply(source, Number(batch.lastOffset), plan);
    events.add(plan.counted, { outcome: 'counted' });
    events.add(plan.bots, { outcome: 'bot' });
    events.add(items.length - fresh.length, { outcome: 'repeat' });
    writes.add(applied.updates);
    const newest = Math.max(...items.map((i) => i.event.at));
    if (Number.isFinite(newest)) delay.record(Math.max(0, now() - newest) / 1000);
  };
}
