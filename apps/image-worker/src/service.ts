import { createEgressClient, createEgressGuard } from '@platform/egress';
import { createCompressionCounts, createOutputStore, liftDecoderRestriction, restrictDecoders } from '@platform/images';
import { createMongoCommandResultStore } from '@platform/mongo';
import { createRedisReplyTransport } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import type { config } from './config.js';
import { createWorker } from './worker.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  restrictDecoders();
  ctx.onClose('decoders', () => liftDecoderRestriction());
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const sealer = createSealer(settings.sealingKey);
  const counts = createCompressionCounts(mongo);
  await counts.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer, collection: 'images_command_results' });
  await results.ensureIndexes();
  ctx.sweep([results.collection]);
  const egress = createEgressClient(createEgressGuard({ allow: settings.egressAllow }));
  ctx.onClose('egress', () => egress.close());
  const worker = createWorker({
    kafka: ctx.kafka(),
    outputs: createOutputStore(redis, { retentionSeconds: settings.retentionSeconds }),
    counts,
    results,
    egress,
    sealer,
    limits: settings.limits,
    monthlyQuota: settings.monthlyQuota,
    source: settings.source,
    storeEndpoints: settings.storeEndpoints,
    replies: createRedisReplyTransport(settings.redisUrl, { name: `${ctx.name}-replies`, publisher: redis }),
    logger: ctx.logger,
    partitionsConcurrency: settings.partitionsConcurrency,
    outboxIntervalMs: settings.outboxIntervalMs,
    sessionTimeoutMs: settings.sessionTimeoutMs,
  });
  return { start: () => worker.start(), ready: () => worker.ready(), stop: () => worker.stop() };
}
