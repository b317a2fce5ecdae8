import { createAccounts, type Accounts } from '@platform/accounts';
import { createEgressClient, createEgressGuard } from '@platform/egress';
import type { HttpApp } from '@platform/http';
import { createCommandBus, createKafka, createPublisher, ensureTopics, type CommandBus, type KafkaClient, type Publisher } from '@platform/kafka';
import { connectMongo, createMongoCommandResultStore, type MongoConnection } from '@platform/mongo';
import { createRedis, createRedisReplyTransport, type Redis } from '@platform/redis';
import { createSealer } from '@platform/secrets';
import { createLogger } from '@platform/telemetry';
import { resolveInfra, uniqueName } from '@platform/testing';
import { USERMGMT_TOPICS, createUsermgmtStore, createUsermgmtWriter, type UsermgmtStore } from '@platform/usermgmt';
import { createDeliveryStore, type DeliveryStore } from '@platform/webhooks';
// Apps are composed in-process here through their factories (the same ones main.ts wires).
import { buildApp } from '../../apps/usermgmt-gateway/src/app.js';
import { createWorker, type Worker } from '../../apps/usermgmt-worker/src/worker.js';
import { createDispatcher, type Dispatcher } from '../../apps/webhook-dispatcher/src/dispatcher.js';
import { TEST_SECRETS } from './secrets.js';

export interface UsermgmtStack {
  app: HttpApp;
  accounts: Accounts;
  store: UsermgmtStore;
  deliveries: DeliveryStore;
  mongo: MongoConnection;
  redis: Redis;
  kafka: KafkaClient;
  publisher: Publisher;
  commands: CommandBus;
  worker: Worker;
  dispatcher: Dispatcher;
  newKey(): Promise<{ key: string; environmentId: string }>;
  close(): Promise<void>;
}

/**
 * Gateway, worker and dispatcher in one process, on real Kafka, FerretDB and Redis, isolated by a unique
 * database and topic prefix.
 */
export async function startUsermgmtStack(
  options: { retryScale?: number; commandTimeoutMs?: number; disableAfterMs?: number } = {},
): Promise<UsermgmtStack> {
  const infra = resolveInfra();
  const name = uniqueName('um');
  const logger = createLogger({ name, level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const kafka = createKafka({ brokers: infra.kafkaBrokers.split(','), clientId: name, logger, topicPrefix: `${name}.` });
  const mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: name });
  const redis = createRedis(infra.redisUrl, { name });
  const sealer = createSealer(TEST_SECRETS.SECRETS_SEALING_KEY);
  const store = createUsermgmtStore(mongo);
  await store.ensureIndexes();
  const accounts = createAccounts({ connection: mongo, redis, pepper: TEST_SECRETS.API_KEY_PEPPER });
  await accounts.ensureIndexes();
  const results = createMongoCommandResultStore(mongo, { sealer });

  await ensureTopics(kafka, [USERMGMT_TOPICS.commands, USERMGMT_TOPICS.events]);
  const publisher = createPublisher(kafka, { source: '/test-gateway' });
  await publisher.connect();
  const commands = createCommandBus({
    publisher,
    transport: createRedisReplyTransport(infra.redisUrl, { name: `${name}-replies`, publisher: redis }),
    replicaId: name,
    defaultTimeoutMs: options.commandTimeoutMs ?? 20_000,
    component: 'usermgmt-gateway',
  });
  await commands.start();

  const worker = createWorker({
    kafka,
    store,
    writer: createUsermgmtWriter(mongo),
    results,
    replies: createRedisReplyTransport(infra.redisUrl, { name: `${name}-worker`, publisher: redis }),
    sealer,
    logger,
    outboxIntervalMs: 200,
  });
  await worker.start();

  const deliveries = createDeliveryStore(mongo);
  await deliveries.ensureIndexes();
  const egress = createEgressClient(createEgressGuard({ allow: ['127.0.0.0/8'] }));
  const dispatcher = createDispatcher({
    kafka,
    store: deliveries,
    egress,
    sealer,
    logger,
    timeoutMs: 2000,
    concurrency: 16,
    perTargetConcurrency: 2,
    retryScale: options.retryScale ?? 0.001,
    pollIntervalMs: 50,
    ...(options.disableAfterMs ? { disableAfterMs: options.disableAfterMs } : {}),
  });
  await dispatcher.start();

  const app = await buildApp({
    logger,
    accounts,
    store,
    commands,
    publisher,
    deliveries,
    redis,
    commandTimeoutMs: options.commandTimeoutMs ?? 20_000,
    bodyLimit: 64 * 1024,
    readiness: [],
  });
  await app.ready();
  await Promise.all([worker.ready(), dispatcher.ready()]);

  return {
    app,
    accounts,
    store,
    deliveries,
    mongo,
    redis,
    kafka,
    publisher,
    commands,
    worker,
    dispatcher,
    async newKey() {
      const env = await accounts.createEnvironment('usermgmt', 'test');
      const { key } = await accounts.createKey(env._id);
      return { key, environmentId: env._id };
    },
    async close() {
      await app.close();
      await dispatcher.stop();
      await worker.stop();
      await commands.stop();
      await publisher.disconnect();
      await egress.close();
      await mongo.dropDatabase().catch(() => undefined);
      await mongo.close();
      redis.disconnect();
    },
  };
}
