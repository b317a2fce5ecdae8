import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestDelivery } from '@platform/contracts';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { resolveInfra, uniqueName } from '@platform/testing';
import { createDeliveryStore, type AttemptRecord, type DeliveryStore } from '@platform/webhooks';

let mongo: MongoConnection;
let store: DeliveryStore;

beforeAll(async () => {
  const name = uniqueName('deliveries');
  mongo = await connectMongo({ url: resolveInfra().mongoUrl, dbName: name, appName: name });
  store = createDeliveryStore(mongo);
  await store.ensureIndexes();
});

afterAll(async () => {
  await mongo?.dropDatabase().catch(() => undefined);
  await mongo?.close();
});

function requestFor(deliveryId: string): RequestDelivery {
  return {
    delivery_id: deliveryId,
    producer: 'test',
    tenant_id: 'tenant_1',
    target: {
      id: uniqueName('t'),
      url: 'https://receiver.example/hooks',
      sealed_secret: 'sealed',
      signature_scheme: 'standard',
      previous_sealed_secret: null,
      previous_secret_expires_at: null,
      oauth: null,
    },
    event_id: uniqueName('event'),
    event_type: 'user.created',
    payload: '{}',
    requested_at: Date.now(),
  };
}

const accepted = (): AttemptRecord => ({
  status: 200,
  latencyMs: 5,
  error: null,
  responseBody: '',
  startedAt: new Date(),
});

// The store of the webhook dispatcher on FerretDB: the copies of a delivery request that Kafka and the outbox
// relays may publish (at least once) never make one delivery go out twice.
describe('webhook delivery store', () => {
  it('stores a new delivery once, due at once, in the group of its target', async () => {
    const request = requestFor(uniqueName('whd'));
    const now = new Date();
    const item = { id: request.delivery_id, group: `test:${request.target.id}`, dueAt: now.getTime() };
    expect(await store.enqueue(request, {}, now)).toEqual(item);
    // A copy of a pending delivery names it again, for a queue that may have lost it (scheduling is idempotent).
    expect(await store.enqueue(request, {}, new Date(now.getTime() + 5000))).toEqual(item);
    expect((await store.pendingByIds([request.delivery_id, 'whd_unknown'])).map((d) => d._id)).toEqual([
      request.delivery_id,
    ]);
    expect(await store.pendingItems(new Date(now.getTime() - 1))).not.toContainEqual(item);
    expect(await store.pendingItems(now)).toContainEqual(item);
  });

  it('stores a batch in one insert: new ones, copies of pending and finished ones, and copies within the batch', async () => {
    const pending = requestFor(uniqueName('whd'));
    const finished = requestFor(uniqueName('whd'));
    await store.enqueueMany([{ request: pending }, { request: finished }]);
    await store.markDelivered((await store.pendingByIds([finished.delivery_id]))[0]!, accepted());
    const fresh = requestFor(uniqueName('whd'));
    const now = new Date();
    const items = await store.enqueueMany(
      [{ request: fresh }, { request: pending }, { request: finished }, { request: fresh }],
      now,
    );
    expect(items.map((item) => item?.id ?? null)).toEqual([
      fresh.delivery_id,
      pending.delivery_id,
      null,
      fresh.delivery_id,
    ]);
    expect(items[0]).toEqual({ id: fresh.delivery_id, group: `test:${fresh.target.id}`, dueAt: now.getTime() });
    expect((await store.pendingByIds([fresh.delivery_id, finished.delivery_id])).map((d) => d._id)).toEqual([
      fresh.delivery_id,
    ]);
    expect((await store.get(finished.delivery_id))?.status).toBe('delivered');
  });

  it('does not queue again a copy of a delivery that was delivered and archived', async () => {
    const request = requestFor(uniqueName('whd'));
    await store.enqueue(request);
    const [claimed] = await store.pendingByIds([request.delivery_id]);
    await store.markDelivered(claimed!, accepted());
    expect(await store.enqueue(request)).toBeNull();
    expect(await store.pendingByIds([request.delivery_id])).toEqual([]);
    // A copy queued again would be found first, pending, among the deliveries to send.
    expect((await store.get(request.delivery_id))?.status).toBe('delivered');
    expect(await store.attemptsFor(request.delivery_id)).toHaveLength(1);
  });

  it('never makes a delivery pending again when a copy is enqueued while it is delivered and archived', async () => {
    // The copy may meet the delivery pending (it answers its item, which the queue skips while the delivery is
    // claimed, and a claim that finds it finished sends nothing), delivered, archived or gone: whatever the
    // interleaving, nothing is pending afterwards and the attempt stays the only one.
    for (let delay = 0; delay < 6; delay++) {
      const request = requestFor(uniqueName('whd'));
      await store.enqueue(request);
      const claimed = (await store.pendingByIds([request.delivery_id]))[0]!;
      const copy = new Promise((resolve) => setTimeout(resolve, delay)).then(() => store.enqueue(request));
      await Promise.all([copy, store.markDelivered(claimed, accepted())]);
      expect(await store.pendingByIds([request.delivery_id])).toEqual([]);
      expect(await store.enqueue(request)).toBeNull();
      expect((await store.get(request.delivery_id))?.status).toBe('delivered');
      expect(await store.attemptsFor(request.delivery_id)).toHaveLength(1);
    }
  });
});
