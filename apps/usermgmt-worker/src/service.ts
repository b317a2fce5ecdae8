import { createMongoCommandResultStore } from '@platform/mongo';
import { createRedisReplyTransport } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import { createUsermgmtStore, createUsermgmtWriter } from '@platform/usermgmt';
import type { config } from './config.js';
import { createWorker } from './worker.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const sealer = createSealer(settings.sealingKey);
  const store = createUsermgmtStore(mongo);
  await store.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer });
  await results.ensureIndexes();
  ctx.sweep([results.collection, ...store.expiringCollections()]);
  const worker = createWorker({
    kafka: ctx.kafka(),
    store,
    writer: createUsermgmtWriter(mongo),
    results,
    replies: createRedisReplyTransport(settings.redisUrl, { name: `${ctx.name}-replies`, publisher: redis }),
    sealer,
    logger: ctx.logger,
    partitionsConcurrency: settings.partitionsConcurrency,
    outboxIntervalMs: settings.outboxIntervalMs,
    sessionTimeoutMs: settings.sessionTimeoutMs,
  });
  return { start: () => worker.start(), ready: () => worker.ready(), stop: () => worker.stop() };
}
