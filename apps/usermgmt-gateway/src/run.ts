import { createAccounts } from '@platform/accounts';
import { configOrExit } from '@platform/config';
import { createCommandBus, createKafka, createPublisher, ensureTopics } from '@platform/kafka';
import { connectMongo, pingMongo } from '@platform/mongo';
import { createRedis, createRedisReplyTransport, pingRedis } from '@platform/redis';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { USERMGMT_TOPICS, createUsermgmtStore } from '@platform/usermgmt';
import { WEBHOOK_TOPICS, createDeliveryStore } from '@platform/webhooks';
import { buildApp } from './app.js';
import { config } from './config.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'usermgmt-gateway', level: cfg.logLevel });
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'usermgmt-gateway', logger, topicPrefix: cfg.kafka.topicPrefix });
  await ensureTopics(kafka, [{ topic: USERMGMT_TOPICS.commands, partitions: 12 }, { topic: USERMGMT_TOPICS.events }, { topic: WEBHOOK_TOPICS.deliveries }]);
  const publisher = createPublisher(kafka, { source: '/usermgmt-gateway' });
  await publisher.connect();
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'usermgmt-gateway' });
  const redis = createRedis(cfg.redisUrl, { name: 'usermgmt-gateway' });
  const commands = createCommandBus({
    publisher,
    transport: createRedisReplyTransport(cfg.redisUrl, { name: 'usermgmt-gateway-replies', publisher: redis }),
    replicaId: cfg.replicaId,
    defaultTimeoutMs: cfg.commandTimeoutMs,
    component: 'usermgmt-gateway',
  });
  await commands.start();
  const accounts = createAccounts({ connection: mongo, redis, pepper: cfg.apiKeyPepper });

  const app = await buildApp({
    logger,
    accounts,
    store: createUsermgmtStore(mongo),
    commands,
    publisher,
    deliveries: createDeliveryStore(mongo),
    redis,
    commandTimeoutMs: cfg.commandTimeoutMs,
    bodyLimit: cfg.http.bodyLimit,
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
