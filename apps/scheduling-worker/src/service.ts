import { createUserDirectory } from '@platform/identity';
import { createMongoCommandResultStore } from '@platform/mongo';
import { createRedisReplyTransport } from '@platform/redis';
import type { ServiceContext } from '@platform/runtime';
import { createSchedulingStore, createSchedulingWriter } from '@platform/scheduling';
import { createSealer } from '@platform/secrets';
import type { config } from './config.js';
import { createWorker } from './worker.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  const [mongo, redis] = [await ctx.mongo(), ctx.redis()];
  const store = createSchedulingStore(mongo);
  await store.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, {
    sealer: createSealer(settings.sealingKey),
    collection: 'sched_command_results',
  });
  await results.ensureIndexes();
  ctx.sweep([results.collection]);
  const worker = createWorker({
    kafka: ctx.kafka(),
    store,
    writer: createSchedulingWriter(mongo),
    users: createUserDirectory(mongo),
    results,
    replies: createRedisReplyTransport(settings.redisUrl, { name: `${ctx.name}-replies`, publisher: redis }),
    logger: ctx.logger,
    webUrl: settings.webUrl,
    inviteTtlSeconds: settings.inviteTtlSeconds,
    partitionsConcurrency: settings.partitionsConcurrency,
    outboxIntervalMs: settings.outboxIntervalMs,
    sessionTimeoutMs: settings.sessionTimeoutMs,
  });
  return { start: () => worker.start(), ready: () => worker.ready(), stop: () => worker.stop() };
}
