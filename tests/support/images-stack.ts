import type { AddressInfo } from 'node:net';
import { createAccounts, type Accounts } from '@platform/accounts';
import { createEgressClient, createEgressGuard } from '@platform/egress';
import type { HttpApp } from '@platform/http';
import { IMAGES_TOPICS, createCompressionCounts, createOutputStore, type CompressionCounts, type OutputStore } from '@platform/images';
import { createCommandBus, createKafka, createPublisher, ensureTopics, type CommandBus, type KafkaClient, type Publisher } from '@platform/kafka';
import { connectMongo, createMongoCommandResultStore, type MongoConnection } from '@platform/mongo';
import { createRedis, createRedisReplyTransport, type Redis } from '@platform/redis';
import { createSealer } from '@platform/secrets';
import { createLogger } from '@platform/telemetry';
import { resolveInfra, uniqueName } from '@platform/testing';
// Apps are composed in-process here through their factories (the same ones main.ts wires).
import { buildApp } from '../../apps/images-gateway/src/app.js';
import { createWorker, type Worker } from '../../apps/image-worker/src/worker.js';
import { TEST_SECRETS } from './secrets.js';
import { startTlsTerminator, type TlsTerminator } from './tls-terminator.js';

export interface ImagesStack {
  app: HttpApp;
  /** The HTTPS address clients use ({base_url}); `Location` headers point here. */
  baseUrl: string;
  /** The certificate of baseUrl, for clients to trust. */
  certificate: string;
  accounts: Accounts;
  counts: CompressionCounts;
  outputs: OutputStore;
  mongo: MongoConnection;
  redis: Redis;
  kafka: KafkaClient;
  workers: Worker[];
  newKey(): Promise<{ key: string; accountId: string }>;
  close(): Promise<void>;
}

export interface ImagesStackOptions {
  workers?: number;
  monthlyQuota?: number;
  uploadLimitBytes?: number;
  maxPixels?: number;
  /** CIDRs source URLs and store endpoints may reach although private (the local S3/GCS servers). */
  egressAllow?: string[];
  sourceMaxBytes?: number;
}

/**
 * Gateway (behind a TLS terminator) and image workers in one process, on real Kafka, FerretDB and Redis,
 * isolated by a unique database and topic prefix (Redis keys hold random output ids, so suites never collide).
 */
export async function startImagesStack(options: ImagesStackOptions = {}): Promise<ImagesStack> {
  const infra = resolveInfra();
  const name = uniqueName('img');
  const logger = createLogger({ name, level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const kafka = createKafka({ brokers: infra.kafkaBrokers.split(','), clientId: name, logger, topicPrefix: `${name}.` });
  const mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: name });
  const redis = createRedis(infra.redisUrl, { name });
  const sealer = createSealer(TEST_SECRETS.SECRETS_SEALING_KEY);
  const accounts = createAccounts({ connection: mongo, redis, pepper: TEST_SECRETS.API_KEY_PEPPER });
  await accounts.ensureIndexes();
  const counts = createCompressionCounts(mongo);
  await counts.ensureIndexes();
  const outputs = createOutputStore(redis, { retentionSeconds: 600 });
  const results = createMongoCommandResultStore(mongo, { sealer, collection: 'images_command_results' });
  const limits = { maxPixels: options.maxPixels ?? 50_000_000 };
  const monthlyQuota = options.monthlyQuota ?? 0;
  const egress = createEgressClient(createEgressGuard({ allow: options.egressAllow ?? [] }));

  await ensureTopics(kafka, [IMAGES_TOPICS.commands]);
  const publisher: Publisher = createPublisher(kafka, { source: '/test-images-gateway' });
  await publisher.connect();
  const commands: CommandBus = createCommandBus({
    publisher,
    transport: createRedisReplyTransport(infra.redisUrl, { name: `${name}-replies`, publisher: redis }),
    replicaId: name,
    defaultTimeoutMs: 60_000,
    component: 'images-gateway',
  });
  await commands.start();

  const workers = Array.from({ length: options.workers ?? 1 }, (_, i) =>
    createWorker({
      kafka,
      outputs,
      counts,
      results,
      egress,
      sealer,
      limits,
      monthlyQuota,
      source: { maxBytes: options.sourceMaxBytes ?? 5 * 1024 * 1024, timeoutMs: 5000 },
      storeEndpoints: { s3: infra.s3.url, gcs: infra.gcsUrl, timeoutMs: 10_000 },
      replies: createRedisReplyTransport(infra.redisUrl, { name: `${name}-worker-${i}`, publisher: redis }),
      logger,
      outboxIntervalMs: 200,
      sessionTimeoutMs: 6000,
    }),
  );
  for (const worker of workers) await worker.start();

  let appPort = 0;
  const tlsTerminator: TlsTerminator = await startTlsTerminator(() => appPort);
  const baseUrl = `https://127.0.0.1:${tlsTerminator.port}`;
  const app = await buildApp({
    logger,
    accounts,
    commands,
    outputs,
    counts,
    sealer,
    publicBaseUrl: baseUrl,
    commandTimeoutMs: 60_000,
    uploadLimitBytes: options.uploadLimitBytes ?? 8 * 1024 * 1024,
    monthlyQuota,
    readiness: [],
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  appPort = (app.server.address() as AddressInfo).port;
  await Promise.all(workers.map((w) => w.ready()));

  return {
    app,
    baseUrl,
    certificate: tlsTerminator.certificate,
    accounts,
    counts,
    outputs,
    mongo,
    redis,
    kafka,
    workers,
    async newKey() {
      const env = await accounts.createEnvironment('images', 'test');
      const { key } = await accounts.createKey(env._id);
      return { key, accountId: env._id };
    },
    async close() {
      await app.close();
      await tlsTerminator.close();
      for (const worker of workers) await worker.stop().catch(() => undefined);
      await commands.stop();
      await publisher.disconnect();
      await egress.close();
      await mongo.dropDatabase().catch(() => undefined);
      await mongo.close();
      redis.disconnect();
    },
  };
}
