import { createMongoCommandResultStore } from '@platform/mongo';
import { createGrantRevocations, createOAuthStore, createOAuthWriter } from '@platform/oauth';
import { createRedisReplyTransport, redisStamps } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import type { config } from './config.js';
import { createWorker } from './worker.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  // Every token request reads its client: kept in memory while the client's stamp holds (the writer renews it).
  const clientStamps = redisStamps(redis, `oauth:${mongo.name}`);
  const store = createOAuthStore(mongo, { clientStamps });
  await store.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer: createSealer(settings.sealingKey) });
  await results.ensureIndexes();
  // Expired codes and refresh tokens and old command replies go.
  ctx.sweep([results.collection, ...store.expiringCollections()]);
  const worker = createWorker({
    kafka: ctx.kafka(),
    store,
    writer: createOAuthWriter(mongo, clientStamps),
    results,
    replies: createRedisReplyTransport(settings.redisUrl, { name: `${ctx.name}-replies`, publisher: redis }),
    revocations: createGrantRevocations(redis),
    logger: ctx.logger,
    refreshTokenTtlSeconds: settings.refreshTokenTtlSeconds,
    partitionsConcurrency: settings.partitionsConcurrency,
    outboxIntervalMs: settings.outboxIntervalMs,
    sessionTimeoutMs: settings.sessionTimeoutMs,
  });
  return { start: () => worker.start(), ready: () => worker.ready(), stop: () => worker.stop() };
}
