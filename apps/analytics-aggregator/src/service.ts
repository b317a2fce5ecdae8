import { createAnalyticsWriter, createFacetReader, createRedisSightings, openGeoDatabase } from '@platform/analytics';
import { ensureTopics, runBatchConsumer, type BatchConsumerHandle } from '@platform/kafka';
import { LINKS_TOPICS } from '@platform/links';
import type { ServiceContext } from '@platform/runtime';
import { AGGREGATED, createAggregator } from './aggregator.js';
import type { AggregatorConfig } from './config.js';

const DECODE_PIECE = 10_000;

/** The analytics aggregator: links.clicks (and new links) folded into time buckets, in one consumer group. */
export async function build(ctx: ServiceContext<AggregatorConfig>) {
  const { settings } = ctx;
  const mongo = await ctx.mongo();
  const writer = createAnalyticsWriter(mongo);
  await writer.ensureIndexes();
  ctx.sweep(writer.sweptCollections);
  const geo = await openGeoDatabase(settings.geoipDir ? { dir: settings.geoipDir } : {});
  const sightings = createRedisSightings(ctx.redis(), {
    namespace: settings.kafka.topicPrefix,
    windowMs: settings.dedupeWindowMs,
  });
  const ingest = createAggregator({
    logger: ctx.logger,
    writer,
    sightings,
    facets: createFacetReader(geo),
    retention: settings.retention,
    countBots: settings.countBots,
    maxBatch: settings.maxBatch,
  });
  let consumer: BatchConsumerHandle | undefined;
  return {
    async start() {
      await ensureTopics(ctx.kafka(), [LINKS_TOPICS.clicks, LINKS_TOPICS.events]);
      consumer = await runBatchConsumer({
        client: ctx.kafka(),
        component: 'analytics-aggregator',
        groupId: 'analytics-aggregator',
        topics: [LINKS_TOPICS.clicks, LINKS_TOPICS.events],
        types: AGGREGATED,
        handle: ingest,
        // Pieces to decode and plan; the aggregator holds a partition's pieces until it has caught up or maxBatch.
        maxBatchSize: Math.min(settings.maxBatch, DECODE_PIECE),
        maxBytesPerPartition: settings.fetchBytes,
        maxBytes: settings.fetchMaxBytes,
        partitionsConsumedConcurrently: settings.partitionsConcurrency,
        sessionTimeoutMs: settings.sessionTimeoutMs,
      });
    },
    ready: () => consumer?.ready ?? Promise.resolve(),
    stop: async () => consumer?.stop(),
  };
}
