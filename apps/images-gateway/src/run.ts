import { createAccounts } from '@platform/accounts';
import { configOrExit } from '@platform/config';
import { IMAGES_TOPICS, createCompressionCounts, createOutputStore } from '@platform/images';
import { createCommandBus, createKafka, createPublisher, ensureTopics } from '@platform/kafka';
import { connectMongo, pingMongo } from '@platform/mongo';
import { createRedis, createRedisReplyTransport, pingRedis } from '@platform/redis';
import { createSealer } from '@platform/secrets';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { buildApp } from './app.js';
import { config } from './config.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'images-gateway', level: cfg.logLevel });
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'images-gateway', logger, topicPrefix: cfg.kafka.topicPrefix });
  await ensureTopics(kafka, [{ topic: IMAGES_TOPICS.commands, partitions: 12 }]);
  const publisher = createPublisher(kafka, { source: '/images-gateway' });
  await publisher.connect();
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'images-gateway' });
  const redis = createRedis(cfg.redisUrl, { name: 'images-gateway' });
  const commands = createCommandBus({
    publisher,
    transport: createRedisReplyTransport(cfg.redisUrl, { name: 'images-gateway-replies', publisher: redis }),
    replicaId: cfg.replicaId,
    defaultTimeoutMs: cfg.commandTimeoutMs,
    component: 'images-gateway',
  });
  await commands.start();

  const app = await buildApp({
    logger,
    accounts: createAccounts({ connection: mongo, redis, pepper: cfg.apiKeyPepper }),
    commands,
    outputs: createOutputStore(redis, { retentionSeconds: cfg.retentionSeconds }),
    counts: createCompressionCounts(mongo),
    sealer: createSealer(cfg.sealingKey),
    publicBaseUrl: cfg.publicBaseUrl,
    commandTimeoutMs: cfg.commandTimeoutMs,
    uploadLimitBytes: cfg.uploadLimitBytes,
    monthlyQuota: cfg.monthlyQuota,
    trustProxy: cfg.http.trustProxy,
    metrics: telemetry.metricsHandler,
    readiness: [
      { name: 'mongo', check: () => pingMongo(mongo) },
      { name: 'redis', check: () => pingRedis(redis) },
    ],
  });
  await app.listen({ port: cfg.http.port, host: cfg.http.host });

  onShutdown(
    logger,
    async () => {
      await app.close();
      await commands.stop();
      await publisher.disconnect();
      await mongo.close();
      redis.disconnect();
      await telemetry.shutdown();
    },
    cfg.shutdownTimeoutMs,
  );
}
