import { configOrExit } from '@platform/config';
import { startHealthServer } from '@platform/http';
import { createKafka } from '@platform/kafka';
import { connectMongo, createMongoCommandResultStore, pingMongo, startExpirySweeper } from '@platform/mongo';
import { createRedis, createRedisReplyTransport, pingRedis } from '@platform/redis';
import { createSealer } from '@platform/secrets';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { createUsermgmtStore } from '@platform/usermgmt';
import { config } from './config.js';
import { createWorker } from './worker.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'usermgmt-worker', level: cfg.logLevel });
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'usermgmt-worker', logger, topicPrefix: cfg.kafka.topicPrefix });
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'usermgmt-worker' });
  const redis = createRedis(cfg.redisUrl, { name: 'usermgmt-worker' });
  const sealer = createSealer(cfg.sealingKey);
  const store = createUsermgmtStore(mongo);
  await store.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer });
  await results.ensureIndexes();
  const sweeper = startExpirySweeper([results.collection, store.models.WebhookEndpoint.collection], {
    onError: (error) => logger.warn({ err: error }, 'expiry sweep failed'),
  });

  const worker = createWorker({
    kafka,
    store,
    results,
    replies: createRedisReplyTransport(cfg.redisUrl, { name: 'usermgmt-worker-replies', publisher: redis }),
    sealer,
    logger,
    partitionsConcurrency: cfg.partitionsConcurrency,
    outboxIntervalMs: cfg.outboxIntervalMs,
    sessionTimeoutMs: cfg.sessionTimeoutMs,
  });
  await worker.start();

  const health = cfg.health
    ? await startHealthServer({
        name: 'usermgmt-worker',
        logger,
        ...cfg.health,
        metrics: telemetry.metricsHandler,
        readiness: [
          { name: 'mongo', check: () => pingMongo(mongo) },
          { name: 'redis', check: () => pingRedis(redis) },
        ],
      })
    : undefined;
  logger.info('usermgmt worker started');

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
