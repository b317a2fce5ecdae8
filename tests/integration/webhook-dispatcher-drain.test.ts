import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames } from '@platform/contracts';
import { createKafka, createPublisher, type Publisher } from '@platform/kafka';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { startService, type RunningService } from '@platform/runtime/start';
import { createSealer } from '@platform/secrets';
import { isolatedAppEnv, startWebhookReceiver, uniqueName, waitFor, type WebhookReceiver } from '@platform/testing';
import { WEBHOOK_TOPICS, createDeliveryStore, deliveryIdFor, type DeliveryStore } from '@platform/webhooks';
import { config } from '../../apps/webhook-dispatcher/src/config.js';
import { build } from '../../apps/webhook-dispatcher/src/service.js';
import { HARNESS_SECRET } from '../support/dispatcher-harness.js';
import { TEST_SECRETS } from '../support/secrets.js';
import { testLogger } from '../support/test-logger.js';

// A dispatcher replaced during a burst (the rolling restart's SIGTERM, here its stop path called directly): every
// delivery the old one completed is recorded delivered by its drain, and the new one sends none of them again.

const name = uniqueName('wddrain');
const env = isolatedAppEnv(name, {
  ...TEST_SECRETS,
  EGRESS_ALLOW: '127.0.0.2/32',
  WEBHOOK_TIMEOUT_MS: '2000',
  WEBHOOK_CONCURRENCY: '16',
  WEBHOOK_PER_TARGET_CONCURRENCY: '4',
  WEBHOOK_RETRY_SCALE: '0.001',
  WEBHOOK_POLL_INTERVAL_MS: '25',
  // A short lease: a delivery whose outcome the old dispatcher did not record is the new one's within the test.
  WEBHOOK_LEASE_GRACE_MS: '200',
  SHUTDOWN_TIMEOUT_MS: '10000',
});
const settings = config.read(env);
const BURST = 64;
const TARGETS = 4;

let receiver: WebhookReceiver;
let mongo: MongoConnection;
let store: DeliveryStore;
let publisher: Publisher;
const dispatchers: Array<RunningService<typeof settings, Awaited<ReturnType<typeof build>>>> = [];

const startDispatcher = async (replica: string) => {
  const running = await startService('webhook-dispatcher', build, { settings, logger: testLogger(replica) });
  dispatchers.push(running);
  await running.service.ready();
  return running;
};

beforeAll(async () => {
  receiver = await startWebhookReceiver('/webhooks', '127.0.0.2');
  mongo = await connectMongo({ url: env['MONGO_URL']!, dbName: name, appName: name });
  store = createDeliveryStore(mongo);
  const kafka = createKafka({
    brokers: settings.kafka.brokers,
    clientId: `${name}-producer`,
    topicPrefix: settings.kafka.topicPrefix,
    logger: testLogger('producer'),
  });
  publisher = createPublisher(kafka, { source: '/test' });
  await publisher.connect();
});

afterAll(async () => {
  for (const dispatcher of dispatchers) await dispatcher.stop();
  await publisher?.disconnect();
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
  await receiver?.close();
});

describe('a webhook dispatcher replaced during a burst', () => {
  it('records every delivery it completed before it stops, and its successor sends none of them again', async () => {
    // Each answer takes a while, so that several attempts are under way when the stop begins.
    receiver.respondWith((_req, index) => ({ status: 200, delayMs: 200 + (index % 4) * 150 }));
    const old = await startDispatcher('dispatcher-old');
    const sealed = createSealer(TEST_SECRETS.SECRETS_SEALING_KEY).seal(HARNESS_SECRET);
    const events = Array.from({ length: BURST }, (_, i) => ({
      eventId: uniqueName('event'),
      target: `t${i % TARGETS}`,
    }));
    for (const { eventId, target } of events) {
      await publisher.publish({
        topic: WEBHOOK_TOPICS.deliveries,
        key: target,
        type: MessageTypeNames.RequestDelivery,
        value: {
          delivery_id: deliveryIdFor('test', eventId, target),
          producer: 'test',
          tenant_id: 'tenant_1',
          target: {
            id: target,
            url: `${receiver.url}/${target}`,
            sealed_secret: sealed,
            signature_scheme: 'standard',
            previous_sealed_secret: null,
            previous_secret_expires_at: null,
            oauth: null,
            rate_limit: null,
          },
          event_id: eventId,
          event_type: 'user.created',
          payload: JSON.stringify({ id: eventId }),
          requested_at: Date.now(),
          ordering_key: null,
        },
      });
    }

    // Mid-burst: some deliveries done, others under way at the receiver, the rest not yet claimed.
    await waitFor(() => receiver.requests.length >= 8, { what: 'the burst under way', timeoutMs: 30_000 });
    const stopAt = Date.now();
    await old.stop();
    const sentByOld = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(sentByOld.length).toBeLessThan(BURST);
    // Told to stop, it started no delivery: what reached the receiver since was already on its way (its consumers'
    // leave, which takes a while, is no time to start new ones).
    expect(receiver.requests.filter((r) => r.receivedAt > stopAt + 250).map((r) => r.headers['webhook-id'])).toEqual(
      [],
    );

    // Every request the old dispatcher sent is on record as delivered, with its attempt, once its stop returned.
    const recorded = await Promise.all(
      events
        .filter((e) => sentByOld.includes(e.eventId))
        .map(async (e) => {
          const id = deliveryIdFor('test', e.eventId, e.target);
          const [delivery, attempts] = await Promise.all([store.get(id), store.attemptsFor(id)]);
          return { event: e.eventId, status: delivery?.status, attempts: attempts.map((a) => a.status) };
        }),
    );
    expect(recorded.filter((r) => r.status !== 'delivered' || r.attempts.join() !== '200')).toEqual([]);

    // The successor delivers the rest, and nothing twice.
    await startDispatcher('dispatcher-new');
    await waitFor(() => new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size === BURST, {
      what: 'every delivery sent',
      timeoutMs: 30_000,
    });
    await waitFor(
      async () => {
        const all = await Promise.all(
          events.map(async (e) => (await store.get(deliveryIdFor('test', e.eventId, e.target)))?.status),
        );
        return all.every((s) => s === 'delivered');
      },
      { what: 'every delivery recorded delivered', timeoutMs: 30_000 },
    );
    // Longer than the lease: a delivery left claimed but unrecorded would have gone out again by now.
    await new Promise((resolve) => setTimeout(resolve, 2 * settings.delivery.timeoutMs + 500));
    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(ids).toHaveLength(BURST);
  });
});
