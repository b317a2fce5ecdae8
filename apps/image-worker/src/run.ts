import { configOrExit } from '@platform/config';
import { createEgressClient, createEgressGuard } from '@platform/egress';
import { startHealthServer } from '@platform/http';
import { createCompressionCounts, createOutputStore, restrictDecoders } from '@platform/images';
import { createKafka } from '@platform/kafka';
import { connectMongo, createMongoCommandResultStore, pingMongo, startExpirySweeper } from '@platform/mongo';
import { createRedis, createRedisReplyTransport, pingRedis } from '@platform/redis';
import { createSealer } from '@platform/secrets';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { config } from './config.js';
import { createWorker } from './worker.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'image-worker', level: cfg.logLevel });
  restrictDecoders();
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'image-worker', logger, topicPrefix: cfg.kafka.topicPrefix });
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'image-worker' });
  const redis = createRedis(cfg.redisUrl, { name: 'image-worker' });
  const sealer = createSealer(cfg.sealingKey);
  const counts = createCompressionCounts(mongo);
  await counts.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer, collection: 'images_command_results' });
  await results.ensureIndexes();
  const sweeper = startExpirySweeper([results.collection], { onError: (error) => logger.warn({ err: error }, 'expiry sweep failed') });
  const egress = createEgressClient(createEgressGuard({ allow: cfg.egressAllow }));

  const worker = createWorker({
    kafka,
    outputs: createOutputStore(redis, { retentionSeconds: cfg.retentionSeconds }),
    counts,
    results,
    egress,
    sealer,
    limits: cfg.limits,
    monthlyQuota: cfg.monthlyQuota,
    source: cfg.source,
    storeEndpoints: cfg.storeEndpoints,
    replies: createRedisReplyTransport(cfg.redisUrl, { name: 'image-worker-replies', publisher: redis }),
    logger,
    partitionsConcurrency: cfg.partitionsConcurrency,
    outboxIntervalMs: cfg.outboxIntervalMs,
    sessionTimeoutMs: cfg.sessionTimeoutMs,
  });
  await worker.start();

  const health = cfg.health
    ? await startHealthServer({
        name: 'image-worker',
        logger,
        ...cfg.health,
        metrics: telemetry.metricsHandler,
        readiness: [
          { name: 'mongo', check: () => pingMongo(mongo) },
          { name: 'redis', check: () => pingRedis(redis) },
        ],
      })
    : undefined;
  logger.info('image worker started');

  onShutdown(
    logger,
    async () => {
      await worker.stop();
      sweeper.stop();
      await egress.close();
      await health?.close();
      await mongo.close();
      redis.disconnect();
      await telemetry.shutdown();
    },
    cfg.shutdownTimeoutMs,
  );
}
