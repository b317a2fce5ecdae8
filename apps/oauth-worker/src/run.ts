import { configOrExit } from '@platform/config';
import { startHealthServer } from '@platform/http';
import { createKafka } from '@platform/kafka';
import { connectMongo, createMongoCommandResultStore, pingMongo, startExpirySweeper } from '@platform/mongo';
import { createGrantRevocations, createOAuthStore } from '@platform/oauth';
import { createRedis, createRedisReplyTransport, pingRedis } from '@platform/redis';
import { createSealer } from '@platform/secrets';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { config } from './config.js';
import { createReviewMailer } from './review-mailer.js';
import { createWorker } from './worker.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'oauth-worker', level: cfg.logLevel });
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'oauth-worker', logger, topicPrefix: cfg.kafka.topicPrefix });
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'oauth-worker' });
  const redis = createRedis(cfg.redisUrl, { name: 'oauth-worker' });
  const sealer = createSealer(cfg.sealingKey);
  const store = createOAuthStore(mongo);
  await store.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer });
  await results.ensureIndexes();
  const mailer = createReviewMailer(mongo, cfg.mail, logger);
  // Expired codes and refresh tokens, old command replies and sent-mail records go; grants stay (audit).
  const sweeper = startExpirySweeper(
    [results.collection, store.models.AuthorizationCode.collection, store.models.RefreshToken.collection, mailer.collection.collection],
    { onError: (error) => logger.warn({ err: error }, 'expiry sweep failed') },
  );

  const worker = createWorker({
    kafka,
    store,
    results,
    replies: createRedisReplyTransport(cfg.redisUrl, { name: 'oauth-worker-replies', publisher: redis }),
    revocations: createGrantRevocations(redis),
    mailer,
    logger,
    refreshTokenTtlSeconds: cfg.refreshTokenTtlSeconds,
    partitionsConcurrency: cfg.partitionsConcurrency,
    outboxIntervalMs: cfg.outboxIntervalMs,
    sessionTimeoutMs: cfg.sessionTimeoutMs,
  });
  await worker.start();

  const health = cfg.health
    ? await startHealthServer({
        name: 'oauth-worker',
        logger,
        ...cfg.health,
        metrics: telemetry.metricsHandler,
        readiness: [
          { name: 'mongo', check: () => pingMongo(mongo) },
          { name: 'redis', check: () => pingRedis(redis) },
        ],
      })
    : undefined;
  logger.info('oauth worker started');

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
