import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafka, createPublisher, type Publisher } from '@platform/kafka';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { createRedis } from '@platform/redis';
import { createLogger } from '@platform/telemetry';
import {
  freePort,
  isolatedAppEnv,
  resolveInfra,
  startProcess,
  startWebhookReceiver,
  uniqueName,
  waitFor,
  type ManagedProcess,
  type WebhookReceiver,
} from '@platform/testing';
import { createDeliveryStore, type DeliveryStore } from '@platform/webhooks';
import { TEST_SECRETS } from '../support/secrets.js';
import {
  receivedIds,
  waitForEveryDelivery,
  waitForEveryDeliveryRecorded,
  webhookBurst,
} from '../support/webhook-burst.js';

// The dispatcher's lease queue lives in Redis, which keeps no data on disk here: a Redis of its own, killed
// with SIGKILL in the middle of a burst and started again empty, must cost no delivery.
const infra = resolveInfra();
const name = uniqueName('e2ewr');
let redisPort: number;
let redis: ChildProcess | undefined;
let dispatcher: ManagedProcess;
let receiver: WebhookReceiver;
let publisher: Publisher;
let mongo: MongoConnection;
let store: DeliveryStore;

async function startRedis(): Promise<void> {
  const child = spawn(
    'redis-server',
    ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  redis = child;
  await waitFor(
    async () => {
      const client = createRedis(`redis://127.0.0.1:${redisPort}`, { name: 'probe', lazy: true });
      try {
        await client.connect();
        return (await client.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        client.disconnect();
      }
    },
    { what: 'a Redis of its own', timeoutMs: 20_000 },
  );
}

beforeAll(async () => {
  redisPort = await freePort();
  await startRedis();
  receiver = await startWebhookReceiver('/webhooks', '127.0.0.1');
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    EGRESS_ALLOW: '127.0.0.0/8',
    WEBHOOK_TIMEOUT_MS: '3000',
    WEBHOOK_RETRY_SCALE: '0.001',
    WEBHOOK_RECONCILE_INTERVAL_MS: '2000',
  });
  dispatcher = startProcess('webhook-dispatcher', 'apps/webhook-dispatcher/dist/main.js', env);
  const kafka = createKafka({
    brokers: infra.kafkaBrokers.split(','),
    clientId: name,
    logger: createLogger({ name: 'e2e', level: 'warn' }),
    topicPrefix: env['KAFKA_TOPIC_PREFIX']!,
  });
  publisher = createPublisher(kafka, { source: '/e2e' });
  await publisher.connect();
  mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: 'e2e' });
  store = createDeliveryStore(mongo);
}, 120_000);

afterAll(async () => {
  await dispatcher?.kill('SIGTERM');
  redis?.kill('SIGKILL');
  await publisher?.disconnect();
  await receiver?.close();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

describe('Redis killed in the middle of a webhook burst', () => {
  it('delivers every webhook once Redis is back empty, a repeat under the same webhook-id', async () => {
    receiver.respondWith(() => ({ status: 200, delayMs: 40 }));
    const burst = webhookBurst({ name, targetId: 'target_redis_crash', url: `${receiver.url}/burst` });
    await publisher.publishMany(burst.events.map(burst.request));
    const ids = () => receivedIds(receiver);
    await waitFor(() => ids().length >= 10, { what: 'the burst under way', timeoutMs: 60_000 });
    expect(new Set(ids()).size).toBeLessThan(burst.events.length);

    redis!.kill('SIGKILL');
    await new Promise((resolve) => redis!.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await startRedis();

    await waitForEveryDelivery(receiver, burst, { timeoutMs: 60_000 });
    await waitForEveryDeliveryRecorded(store, burst);
  }, 180_000);
});
