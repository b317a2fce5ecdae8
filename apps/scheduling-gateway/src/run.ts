import { configOrExit } from '@platform/config';
import { createUserDirectory } from '@platform/identity';
import { createCommandBus, createKafka, createPublisher, ensureTopics } from '@platform/kafka';
import { connectMongo, pingMongo } from '@platform/mongo';
import { OAUTH_TOPICS, createAccessTokens, createBearerCheck, createGrantRevocations, createOAuthCredentials, createOAuthStore } from '@platform/oauth';
import { createRedis, createRedisReplyTransport, pingRedis } from '@platform/redis';
import { SCHEDULING_TOPICS, createSchedulingStore } from '@platform/scheduling';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { buildApp } from './app.js';
import { config } from './config.js';
import { createFailureLimiter } from './failure-limiter.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'scheduling-gateway', level: cfg.logLevel });
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'scheduling-gateway', logger, topicPrefix: cfg.kafka.topicPrefix });
  await ensureTopics(kafka, [{ topic: OAUTH_TOPICS.commands, partitions: 12 }, { topic: OAUTH_TOPICS.events }, { topic: SCHEDULING_TOPICS.commands, partitions: 12 }]);
  const publisher = createPublisher(kafka, { source: '/scheduling-gateway' });
  await publisher.connect();
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'scheduling-gateway' });
  const redis = createRedis(cfg.redisUrl, { name: 'scheduling-gateway' });
  const commands = createCommandBus({
    publisher,
    transport: createRedisReplyTransport(cfg.redisUrl, { name: 'scheduling-gateway-replies', publisher: redis }),
    replicaId: cfg.replicaId,
    defaultTimeoutMs: cfg.commandTimeoutMs,
    component: 'scheduling-gateway',
  });
  await commands.start();
  const revocations = createGrantRevocations(redis);
  await revocations.start();
  const accessTokens = createAccessTokens({ keys: cfg.accessTokenKeys });

  const app = await buildApp({
    logger,
    store: createOAuthStore(mongo),
    scheduling: createSchedulingStore(mongo),
    users: createUserDirectory(mongo),
    commands,
    accessTokens,
    credentials: createOAuthCredentials(cfg.secretPepper),
    bearer: createBearerCheck({ accessTokens, revocations }),
    failures: createFailureLimiter(redis, cfg.failureLimits),
    issuer: cfg.issuer,
    webUrl: cfg.webUrl,
    commandTimeoutMs: cfg.commandTimeoutMs,
    bodyLimit: cfg.http.bodyLimit,
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
      await revocations.stop();
      await publisher.disconnect();
      await mongo.close();
      redis.disconnect();
      await telemetry.shutdown();
    },
    cfg.shutdownTimeoutMs,
  );
}
