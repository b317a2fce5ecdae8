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

  it('sends the events of one key in order, a retry holding the later ones back, and other keys meanwhile', async () => {
    const target = uniqueName('ordered');
    const refused = new Map<string, number>();
    // The first event of user A is refused twice before it is accepted.
    receiver.respondWith((req) => {
      const id = req.headers['webhook-id'] as string;
      if (!req.path.startsWith('/webhooks/ordered') || !id.endsWith('-a1')) return { status: 200 };
      const count = refused.get(id) ?? 0;
      refused.set(id, count + 1);
      return { status: count < 2 ? 500 : 200 };
    });
    const send = (suffix: string, key: string) =>
      harness.request(target, `${receiver.url}/ordered`, `${target}-${suffix}`, null, { orderingKey: key });
    for (const [suffix, key] of [
      ['a1', 'user_a'],
      ['a2', 'user_a'],
      ['b1', 'user_b'],
      ['a3', 'user_a'],
      ['b2', 'user_b'],
    ] as const) {
      await send(suffix, key);
    }
    await waitFor(async () => new Set(ids('ordered')).size >= 5, { what: 'every event sent', timeoutMs: 30_000 });
    const seen = ids('ordered').map((id) => id.slice(target.length + 1));
    // Each event of user A is first sent after the one before it was accepted (its third request).
    expect(seen.filter((s) => s.startsWith('a'))).toEqual(['a1', 'a1', 'a1', 'a2', 'a3']);
    expect(seen.filter((s) => s.startsWith('b'))).toEqual(['b1', 'b2']);
    // User B's first event did not wait for user A's retries.
    expect(seen.indexOf('b1')).toBeLessThan(seen.lastIndexOf('a1'));
  }, 60_000);

  it("paces an endpoint to its rate limit: over the limit waits, none is dropped, other targets don't wait", async () => {
    receiver.respondWith(() => ({ status: 200 }));
    const paced = uniqueName('paced');
    const free = uniqueName('free');
    const sent = [];
    for (let i = 0; i < 6; i++)
      sent.push(await harness.request(paced, `${receiver.url}/paced`, undefined, null, { rateLimit: 2 }));
    for (let i = 0; i < 6; i++) await harness.request(free, `${receiver.url}/free`);
    await waitFor(async () => ids('paced').length >= 6, { what: 'every paced delivery sent', timeoutMs: 30_000 });
    expect(new Set(ids('paced'))).toEqual(new Set(sent.map((s) => s.eventId)));
    // Two a second: two at once, then one every 500 ms.
    const times = arrivals('paced').map((r) => r.receivedAt);
    expect(times[5]! - times[0]!).toBeGreaterThanOrEqual(1900);
    expect(arrivals('free')).toHaveLength(6);
    expect(arrivals('free').at(-1)!.receivedAt).toBeLessThan(times[5]!);
  }, 60_000);
});
