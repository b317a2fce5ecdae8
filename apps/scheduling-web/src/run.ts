import { configOrExit } from '@platform/config';
import { createUserDirectory } from '@platform/identity';
import { createCommandBus, createKafka, createPublisher, ensureTopics } from '@platform/kafka';
import { connectMongo, pingMongo } from '@platform/mongo';
import { OAUTH_TOPICS, createOAuthCredentials, createOAuthStore } from '@platform/oauth';
import { createFailureLimiter, createRedis, createRedisReplyTransport, pingRedis } from '@platform/redis';
import { SCHEDULING_TOPICS, accountReach, createSchedulingStore, describeInvite } from '@platform/scheduling';
import { createLogger, onShutdown, type Telemetry } from '@platform/telemetry';
import { buildApp } from './app.js';
import { config } from './config.js';
import { createRedisSessionStore } from './session.js';

export async function run(telemetry: Telemetry): Promise<void> {
  const cfg = configOrExit(config);
  const logger = createLogger({ name: 'scheduling-web', level: cfg.logLevel });
  const kafka = createKafka({ brokers: cfg.kafka.brokers, clientId: 'scheduling-web', logger, topicPrefix: cfg.kafka.topicPrefix });
  await ensureTopics(kafka, [{ topic: OAUTH_TOPICS.commands, partitions: 12 }, { topic: SCHEDULING_TOPICS.commands, partitions: 12 }]);
  const publisher = createPublisher(kafka, { source: '/scheduling-web' });
  await publisher.connect();
  const mongo = await connectMongo({ url: cfg.mongo.url, dbName: cfg.mongo.db, appName: 'scheduling-web' });
  // Read only: which organizations a user belongs to decides whether ORG_ scopes may be granted.
  const scheduling = createSchedulingStore(mongo);
  const redis = createRedis(cfg.redisUrl, { name: 'scheduling-web' });
  const commands = createCommandBus({
    publisher,
    transport: createRedisReplyTransport(cfg.redisUrl, { name: 'scheduling-web-replies', publisher: redis }),
    replicaId: cfg.replicaId,
    defaultTimeoutMs: cfg.commandTimeoutMs,
    component: 'scheduling-web',
  });
  await commands.start();

  const app = await buildApp({
    logger,
    store: createOAuthStore(mongo),
    users: createUserDirectory(mongo),
    // No teams or organizations exist yet (the scheduling model that adds them will answer here), so no user
    // can grant TEAM_ or ORG_ scopes: such requests are redirected with access_denied.
    teamInvites: { describe: (token) => describeInvite(scheduling, token) },
    userReach: (userId) => accountReach(scheduling.membershipsOfUser(userId), scheduling.organizationIds),
    commands,
    credentials: createOAuthCredentials(cfg.secretPepper),
    sessions: createRedisSessionStore(redis, { ttlSeconds: cfg.sessionTtlSeconds }),
    loginFailures: createFailureLimiter(redis, {
      windowSeconds: cfg.loginLimits.windowSeconds,
      namespace: 'web:login',
      message: 'Too many failed logins.',
    }),
    loginLimits: cfg.loginLimits,
    sessionSecret: cfg.sessionSecret,
    publicUrl: cfg.publicUrl,
    issuer: cfg.issuer,
    codeTtlSeconds: cfg.codeTtlSeconds,
    commandTimeoutMs: cfg.commandTimeoutMs,
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
