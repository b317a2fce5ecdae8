import { describe, expect, it } from 'vitest';
import { MessageTypeNames, type RequestDelivery } from '@platform/contracts';
import type { LeaseQueue, QueuedItem } from '@platform/redis';
import { fake, fakeMessage } from '@platform/testing';
import { createLogger } from '@platform/telemetry';
import type { DeliveryStore } from '@platform/webhooks';
import { deliveryHandlers } from './handlers.js';

// The handler hands the request to the store as it came; its fields are the store's concern.
const request = { delivery_id: 'd1', producer: 'usermgmt', tenant_id: 'env_1' } as RequestDelivery;
const item: QueuedItem = { id: 'd1', group: 'usermgmt:we_1', dueAt: 1 };

/** `stored`: what the store answers (the item of a pending delivery, or null); `queued`: how many the queue took. */
function setup(stored: QueuedItem | null, queued: number) {
  let wakes = 0;
  const store = fake<DeliveryStore>({ enqueue: async () => stored, redeliver: async () => [] });
  const queue = fake<LeaseQueue>({ schedule: async () => queued });
  const handlers = deliveryHandlers({
    store,
    queue,
    scheduler: { wake: () => void wakes++ },
    logger: createLogger({ name: 'test', level: 'silent' }),
  });
  return { store, queue, handlers, wakes: () => wakes };
}

describe('webhook dispatcher handlers', () => {
  it('stores a delivery request with its trace context, queues it and wakes the scheduler', async () => {
    const { store, queue, handlers, wakes } = setup(item, 1);
    await handlers[MessageTypeNames.RequestDelivery](
      fakeMessage(MessageTypeNames.RequestDelivery, request, { raw: { traceparent: '00-abc-def-01' } }),
    );
    expect(store.calls).toEqual([{ method: 'enqueue', args: [request, { traceparent: '00-abc-def-01' }] }]);
    expect(queue.calls).toEqual([{ method: 'schedule', args: [[item]] }]);
    expect(wakes()).toBe(1);
  });

  it('queues a pending copy again, for a queue that lost it, but wakes nobody when the queue held it', async () => {
    const { queue, handlers, wakes } = setup(item, 0);
    await handlers[MessageTypeNames.RequestDelivery](fakeMessage(MessageTypeNames.RequestDelivery, request));
    expect(queue.calls).toEqual([{ method: 'schedule', args: [[item]] }]);
    expect(wakes()).toBe(0);
  });

  it('queues nothing for a copy of a finished delivery', async () => {
    const { queue, handlers, wakes } = setup(null, 0);
    await handlers[MessageTypeNames.RequestDelivery](fakeMessage(MessageTypeNames.RequestDelivery, request));
    expect(queue.calls).toEqual([]);
    expect(wakes()).toBe(0);
  });
});
