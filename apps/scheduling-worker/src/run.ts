import { configOrExit } from '@platform/config';
import { startHealthServer } from '@platform/http';
import { createUserDirectory } from '@platform/identity';
import { createKafka } from '@platform/kafka';
import { connectMongo, createMongoCommandResultStore, pingMongo, startExpirySweeper } from '@platform/mongo';
import { createRedis, createRedisReplyTransport, pingRedis } from '@platform/redis';
import { createSchedulingStore } from '@platform/scheduling';
import { createSealer } from '@platform/secrets';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { config } from './config.js';
import { createWorker } from './worker.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'scheduling-worker', level: cfg.logLevel });
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'scheduling-worker', logger, topicPrefix: cfg.kafka.topicPrefix });
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'scheduling-worker' });
  const redis = createRedis(cfg.redisUrl, { name: 'scheduling-worker' });
  const store = createSchedulingStore(mongo);
  await store.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer: createSealer(cfg.sealingKey), collection: 'sched_command_results' });
  await results.ensureIndexes();
  const sweeper = startExpirySweeper([results.collection], { onError: (error) => logger.warn({ err: error }, 'expiry sweep failed') });

  const worker = createWorker({
    kafka,
    store,
    users: createUserDirectory(mongo),
    results,
    replies: createRedisReplyTransport(cfg.redisUrl, { name: 'scheduling-worker-replies', publisher: redis }),
    logger,
    webUrl: cfg.webUrl,
    inviteTtlSeconds: cfg.inviteTtlSeconds,
    partitionsConcurrency: cfg.partitionsConcurrency,
    outboxIntervalMs: cfg.outboxIntervalMs,
    sessionTimeoutMs: cfg.sessionTimeoutMs,
  });
  await worker.start();

  const health = cfg.health
    ? await startHealthServer({
        name: 'scheduling-worker',
        logger,
        ...cfg.health,
        metrics: telemetry.metricsHandler,
        readiness: [
          { name: 'mongo', check: () => pingMongo(mongo) },
          { name: 'redis', check: () => pingRedis(redis) },
        ],
      })
    : undefined;
  logger.info('scheduling worker started');

  onShutdown(
    logger,
    async () => {
      await worker.stop();
      sweeper.stop();
      await health?.close();
      await mongo.close();
      redis.disconnect();
      await telemetry.shutdown();
    },
    cfg.shutdownTimeoutMs,
  );
}
