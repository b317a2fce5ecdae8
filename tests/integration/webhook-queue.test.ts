import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedis, type Redis } from '@platform/redis';
import { resolveInfra, startWebhookReceiver, uniqueName, waitFor, type WebhookReceiver } from '@platform/testing';
import { startDispatcherHarness, type DispatcherHarness } from '../support/dispatcher-harness.js';

// The dispatcher's lease queue in Redis: what it claims and when, against a real dispatcher, Kafka, FerretDB and
// Redis. The store keeps every delivery; the queue only schedules them, and is rebuilt from the store.
let harness: DispatcherHarness;
let receiver: WebhookReceiver;
let redis: Redis;

beforeAll(async () => {
  harness = await startDispatcherHarness({ perTargetConcurrency: 2, reconcileIntervalMs: 1000 });
  receiver = await startWebhookReceiver('/webhooks', '127.0.0.2');
  redis = createRedis(resolveInfra().redisUrl, { name: 'webhook-queue-test' });
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await receiver?.close();
  redis?.disconnect();
});

const arrivals = (prefix: string) => receiver.requests.filter((r) => r.path.startsWith(`/webhooks/${prefix}`));
const ids = (prefix: string) => arrivals(prefix).map((r) => r.headers['webhook-id'] as string);

describe('the webhook lease queue', () => {
  it('keeps a slow target to its concurrency, so that the other targets are not held back', async () => {
    receiver.respondWith((req) => ({ status: 200, delayMs: req.path.startsWith('/webhooks/slow') ? 1500 : 0 }));
    const slow = uniqueName('slow');
    for (let i = 0; i < 8; i++) await harness.request(slow, `${receiver.url}/slow`);
    const fast = await Promise.all(
      Array.from({ length: 10 }, (_, i) => harness.request(uniqueName(`fast${i}`), `${receiver.url}/fast`)),
    );
    await waitFor(async () => ids('fast').length >= 10, { what: 'every fast target served', timeoutMs: 20_000 });
    // Two slow requests at a time (the target's limit), each 1.5 s: the fast ones came during the first two.
    expect(arrivals('slow').length).toBeLessThanOrEqual(4);
    expect(new Set(ids('fast'))).toEqual(new Set(fast.map((f) => f.eventId)));
    await waitFor(async () => ids('slow').length >= 8, {
      what: 'the slow target served in the end',
      timeoutMs: 30_000,
    });
  }, 60_000);

  it('sends every delivery when Redis loses the queue in the middle of a burst, a repeat under its webhook id', async () => {
    receiver.respondWith(() => ({ status: 200, delayMs: 50 }));
    const target = uniqueName('lost');
    const sent = await Promise.all(Array.from({ length: 40 }, () => harness.request(target, `${receiver.url}/lost`)));
    await waitFor(async () => ids('lost').length >= 4, { what: 'the burst under way' });
    // What a Redis restart without persistence leaves: no queue, no leases, no scripts.
    const keys = await redis.keys(`{webhooks:${harness.store.databaseName}}:*`);
    expect(keys.length).toBeGreaterThan(0);
    await redis.del(...keys);
    await redis.script('FLUSH');
    await waitFor(async () => new Set(ids('lost')).size >= 40, { what: 'every delivery sent', timeoutMs: 30_000 });
    expect(new Set(ids('lost'))).toEqual(new Set(sent.map((s) => s.eventId)));
    await waitFor(
      async () =>
        (await Promise.all(sent.map(async (s) => (await harness.store.get(s.deliveryId))?.status))).every(
          (status) => status === 'delivered',
        ),
      { what: 'every delivery recorded as delivered' },
    );
  }, 60_000);
});
