import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames, type RequestDelivery } from '@platform/contracts';
import { createOutboxRelay, type OutgoingMessage, type OutboxRelay, type Publisher } from '@platform/kafka';
import { connectMongo, createMongoOutboxSource, type MongoConnection } from '@platform/mongo';
import { resolveInfra, uniqueName } from '@platform/testing';
import {
  createDeliveryStore,
  deliveryFromBody,
  type AttemptRecord,
  type DeliveryDoc,
  type DeliveryStore,
} from '@platform/webhooks';
import { testLogger } from '../support/test-logger.js';

let mongo: MongoConnection;
let store: DeliveryStore;
let relay: OutboxRelay;
/** What the relay published: the producers' view of each delivery's outcome. */
const published: OutgoingMessage[] = [];

/** The relay publishes through this; Kafka itself is not what these tests are about. */
const recordingPublisher: Publisher = {
  connect: async () => undefined,
  disconnect: async () => undefined,
  async publish(message) {
    published.push(message);
    return message.id ?? '';
  },
  async publishMany(messages) {
    published.push(...messages);
    return messages.map((m) => m.id ?? '');
  },
};

beforeAll(async () => {
  const name = uniqueName('deliveries');
  mongo = await connectMongo({ url: resolveInfra().mongoUrl, dbName: name, appName: name });
  store = createDeliveryStore(mongo);
  await store.ensureIndexes();
  relay = createOutboxRelay({
    publisher: recordingPublisher,
    sources: store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    logger: testLogger('webhook-deliveries'),
  });
});

afterAll(async () => {
  await relay?.stop();
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
      rate_limit: null,
    },
    event_id: uniqueName('event'),
    event_type: 'user.created',
    payload: '{}',
    requested_at: Date.now(),
    ordering_key: null,
  };
}

const accepted = (): AttemptRecord => ({
  status: 200,
  latencyMs: 5,
  error: null,
  responseBody: '',
  startedAt: new Date(),
});

/**
 * A claimed delivery's way out, as the dispatcher takes it: its outcome recorded (with its event in the
 * outbox), the event relayed, then the delivery archived (which waits for its outbox to be empty).
 */
const finishing = (d: DeliveryDoc) => [
  () => store.recordDelivered([{ delivery: d, record: accepted() }]),
  () => relay.flush(),
  () => store.archiveFinished(),
];

async function finish(d: DeliveryDoc) {
  for (const step of finishing(d)) await step();
}

const outcomesOf = (deliveryId: string) =>
  published
    .filter((m) => m.type === MessageTypeNames.DeliveryOutcome)
    .map((m) => m.value as { delivery_id: string; outcome: string })
    .filter((v) => v.delivery_id === deliveryId)
    .map((v) => v.outcome);

/** Delivered once, archived (an archived copy has an expiry), its outcome told once to its producer. */
async function expectDeliveredOnce(deliveryId: string) {
  expect(await store.pendingByIds([deliveryId])).toEqual([]);
  expect(await store.get(deliveryId)).toMatchObject({
    status: 'delivered',
    attempts: 1,
    outbox: [],
    expires_at: expect.any(Date) as unknown,
  });
  expect(await store.attemptsFor(deliveryId)).toHaveLength(1);
  expect(outcomesOf(deliveryId)).toEqual(['delivered']);
}

// The store of the webhook dispatcher on FerretDB: the copies of a delivery request that Kafka and the outbox
// relays may publish (at least once) never make one delivery go out twice.
describe('webhook delivery store', () => {
  it('stores a new delivery once, due at once, in the group of its target, with its key and rate', async () => {
    const plain = requestFor(uniqueName('whd'));
    const request = { ...plain, target: { ...plain.target, rate_limit: 5 }, ordering_key: 'user_1' };
    const now = new Date();
    const item = {
      id: request.delivery_id,
      group: `test:${request.target.id}`,
      dueAt: now.getTime(),
      key: 'user_1',
      rate: 5,
      sequence: expect.any(Number) as unknown,
    };
    // A new one carries its record to its first claim, exactly as the store holds it.
    const first = await store.enqueue(request, {}, now);
    expect(first).toEqual({ ...item, body: expect.any(String) as unknown });
    // A copy of a pending delivery names it again, for a queue that may have lost it (scheduling is idempotent).
    expect(await store.enqueue(request, {}, new Date(now.getTime() + 5000))).toEqual(item);
    const stored = await store.pendingByIds([request.delivery_id, 'whd_unknown']);
    expect(stored.map((d) => d._id)).toEqual([request.delivery_id]);
    expect(deliveryFromBody(first!.body!)).toEqual(stored[0]);
    expect(await store.pendingItems(new Date(now.getTime() - 1))).not.toContainEqual(item);
    expect(await store.pendingItems(now)).toContainEqual(item);
  });

  it('stores a batch in one insert: new ones, copies of pending and finished ones, and copies within the batch', async () => {
    const pending = requestFor(uniqueName('whd'));
    const finished = requestFor(uniqueName('whd'));
    await store.enqueueMany([{ request: pending }, { request: finished }]);
    await finish((await store.pendingByIds([finished.delivery_id]))[0]!);
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
    expect(items[0]).toEqual({
      id: fresh.delivery_id,
      group: `test:${fresh.target.id}`,
      dueAt: now.getTime(),
      key: null,
      rate: null,
      sequence: expect.any(Number) as unknown,
      body: expect.any(String) as unknown,
    });
    expect((await store.pendingByIds([fresh.delivery_id, finished.delivery_id])).map((d) => d._id)).toEqual([
      fresh.delivery_id,
    ]);
    await expectDeliveredOnce(finished.delivery_id);
  });

  it('does not queue again a copy of a delivery that was delivered and archived', async () => {
    const request = requestFor(uniqueName('whd'));
    await store.enqueue(request);
    const [claimed] = await store.pendingByIds([request.delivery_id]);
    await finish(claimed!);
    expect(await store.enqueue(request)).toBeNull();
    // A copy queued again would be found first, pending, among the deliveries to send.
    await expectDeliveredOnce(request.delivery_id);
  });

  it('never makes a delivery pending again when a copy is enqueued while it is delivered and archived', async () => {
    // The copy may meet the delivery pending (it answers its item, which the queue skips while the delivery is
    // claimed, and a claim that finds it finished sends nothing), delivered with its event still in the outbox,
    // relayed, archived or gone: whatever the interleaving, nothing is pending afterwards, the attempt stays
    // the only one and the producer hears of one outcome. The copy starts beside each step of the way out,
    // after a few delays; once the outcome is recorded, it is answered as a copy of a finished delivery.
    for (let step = 0; step < 3; step++) {
      for (let delay = 0; delay < 12; delay++) {
        const request = requestFor(uniqueName('whd'));
        await store.enqueue(request);
        const claimed = (await store.pendingByIds([request.delivery_id]))[0]!;
        const steps = finishing(claimed);
        for (const done of steps.slice(0, step)) await done();
        const copy = new Promise((resolve) => setTimeout(resolve, delay)).then(() => store.enqueue(request));
        await Promise.all([
          copy,
          (async () => {
            for (const next of steps.slice(step)) await next();
          })(),
        ]);
        if (step > 0) expect(await copy).toBeNull();
        expect(await store.enqueue(request)).toBeNull();
        await expectDeliveredOnce(request.delivery_id);
      }
    }
  });

  it('records a first delivered attempt as finished at once, and a retried write changes nothing', async () => {
    const request = requestFor(uniqueName('whd'));
    const item = await store.enqueue(request);
    const claimed = deliveryFromBody(item!.body!);
    await store.recordDelivered([{ delivery: claimed, record: accepted() }]);
    const [hot] = store.outboxCollections();
    expect(await hot!.countDocuments({ _id: request.delivery_id } as never)).toBe(0);
    await relay.flush();
    // The same write again (a store error after it had landed): neither a second attempt nor a second event.
    await store.recordDelivered([{ delivery: claimed, record: accepted() }]);
    await relay.flush();
    await expectDeliveredOnce(request.delivery_id);
  });

  it('sends nothing again when its dispatcher died between writing the finished record and removing the pending one', async () => {
    const request = requestFor(uniqueName('whd'));
    await store.enqueue(request);
    const [claimed] = await store.pendingByIds([request.delivery_id]);
    const [, finished] = store.outboxCollections();
    // The first of recordDelivered's two writes, alone.
    await finished!.insertOne({ ...claimed!, status: 'delivered', attempts: 1, finished_at: new Date() } as never);
    // Claimed again once its lease lapsed: found done, and its pending record removed.
    expect(await store.pendingByIds([request.delivery_id])).toEqual([]);
    const [hot] = store.outboxCollections();
    expect(await hot!.countDocuments({ _id: request.delivery_id } as never)).toBe(0);
  });

  it('publishes the outcome of a first attempt before writing it, under an id that a second try repeats', async () => {
    const request = requestFor(uniqueName('whd'));
    const claimed = deliveryFromBody((await store.enqueue(request))!.body!);
    const direct: string[] = [];
    const publish = async (events: Array<{ id: string; value: unknown }>) => {
      for (const e of events) direct.push(`${e.id} ${(e.value as { delivery_id: string }).delivery_id}`);
    };
    await store.recordDelivered([{ delivery: claimed, record: accepted() }], { publish });
    // Written without an outbox: the relay has nothing to send.
    expect(await relay.flush()).toBe(0);
    // The same write again (its first try landed, unanswered): the same event, which consumers drop as a copy.
    await store.recordDelivered([{ delivery: claimed, record: accepted() }], { publish });
    expect(direct).toHaveLength(2);
    expect(direct[1]).toBe(direct[0]);
    expect(direct[0]).toMatch(
      new RegExp(`^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12} ${request.delivery_id}$`),
    );
    expect(outcomesOf(request.delivery_id)).toEqual([]);
    expect(await store.get(request.delivery_id)).toMatchObject({ status: 'delivered', attempts: 1, outbox: [] });
    expect(await store.attemptsFor(request.delivery_id)).toHaveLength(1);
  });

  it('leaves the outcome to the outbox when the publish fails, under the same id', async () => {
    const request = requestFor(uniqueName('whd'));
    const claimed = deliveryFromBody((await store.enqueue(request))!.body!);
    let tried: string | undefined;
    await store.recordDelivered([{ delivery: claimed, record: accepted() }], {
      publish: async (events) => {
        tried = events[0]!.id;
        throw new Error('broker unavailable');
      },
    });
    await relay.flush();
    expect(outcomesOf(request.delivery_id)).toEqual(['delivered']);
    const relayed = published.find((m) => (m.value as { delivery_id?: string }).delivery_id === request.delivery_id);
    expect(relayed?.id).toBe(tried);
    await expectDeliveredOnce(request.delivery_id);
  });
});
