import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestDelivery } from '@platform/contracts';
import { connectMongo, type MongoConnection } from '@platform/mongo';
import { resolveInfra, uniqueName } from '@platform/testing';
import { createDeliveryStore, type AttemptRecord, type DeliveryStore } from '@platform/webhooks';
// The store's own models (one per connection), to hold a step of the store back in the race below.
import { webhookModels } from '../../libs/webhooks/src/models.js';

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
  it('queues a new delivery once and ready to send at once', async () => {
    const request = requestFor(uniqueName('whd'));
    expect(await store.enqueue(request)).toBe(true);
    expect(await store.enqueue(request)).toBe(false);
    const claimed = await store.claimDue(new Date(), 1000, []);
    expect(claimed?._id).toBe(request.delivery_id);
  });

  it('does not queue again a copy of a delivery that was delivered and archived', async () => {
    const request = requestFor(uniqueName('whd'));
    await store.enqueue(request);
    const claimed = (await store.claimDue(new Date(), 1000, []))!;
    await store.markDelivered(claimed, accepted());
    expect(await store.enqueue(request)).toBe(false);
    // A copy queued again would be found first, pending, among the deliveries to send.
    expect((await store.get(request.delivery_id))?.status).toBe('delivered');
    expect(await store.attemptsFor(request.delivery_id)).toHaveLength(1);
  });

  it('does not queue again a copy that is enqueued while its delivery is being archived', async () => {
    const request = requestFor(uniqueName('whd'));
    await store.enqueue(request);
    const claimed = (await store.claimDue(new Date(), 1000, []))!;
    // The copy looks among the finished deliveries before the delivery is archived, and the archive (copy to
    // the finished ones, delete from the pending ones) completes before the copy's next step.
    const { FinishedDelivery } = webhookModels(mongo);
    const exists = FinishedDelivery.exists.bind(FinishedDelivery);
    let archivedInBetween = false;
    FinishedDelivery.exists = ((filter: Parameters<typeof exists>[0]) => {
      const answer = exists(filter);
      return answer.then(async (found) => {
        if (!archivedInBetween) {
          archivedInBetween = true;
          await store.markDelivered(claimed, accepted());
        }
        return found;
      });
    }) as typeof FinishedDelivery.exists;
    try {
      expect(await store.enqueue(request)).toBe(false);
    } finally {
      FinishedDelivery.exists = exists;
    }
    if (!archivedInBetween) await store.markDelivered(claimed, accepted());
    // A copy queued again would be found first, pending, among the deliveries to send.
    expect((await store.get(request.delivery_id))?.status).toBe('delivered');
    expect(await store.attemptsFor(request.delivery_id)).toHaveLength(1);
  });

  it('hands back a claim that was not attempted, due again at once, and never a later claim', async () => {
    const request = requestFor(uniqueName('whd'));
    await store.enqueue(request);
    // Earlier tests' deliveries may be due too: claimed (for a minute) on the way to this one.
    const claim = async () => {
      for (;;) {
        const claimed = await store.claimDue(new Date(), 60_000, []);
        if (!claimed || claimed._id === request.delivery_id) return claimed!;
      }
    };
    const first = await claim();
    await store.releaseClaim(first);
    expect((await store.get(request.delivery_id))?.lease_until.getTime()).toBe(0);
    const second = await claim();
    expect(second._id).toBe(request.delivery_id);
    // A stopping dispatcher's late release of its own, older claim leaves the new owner's lease alone.
    await store.releaseClaim(first);
    expect((await store.get(request.delivery_id))?.lease_until).toEqual(second.lease_until);
  });
});
