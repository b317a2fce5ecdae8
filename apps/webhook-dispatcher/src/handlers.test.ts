import { describe, expect, it } from 'vitest';
import { MessageTypeNames, type RequestDelivery } from '@platform/contracts';
import { fake, fakeMessage } from '@platform/testing';
import { createLogger } from '@platform/telemetry';
import type { DeliveryStore } from '@platform/webhooks';
import { deliveryHandlers } from './handlers.js';

// The handler hands the request to the store as it came; its fields are the store's concern.
const request = { delivery_id: 'd1', producer: 'usermgmt', tenant_id: 'env_1' } as RequestDelivery;

function setup(enqueued: boolean) {
  let wakes = 0;
  const store = fake<DeliveryStore>({ enqueue: async () => enqueued, redeliver: async () => 2 });
  const handlers = deliveryHandlers({
    store,
    scheduler: { wake: () => void wakes++ },
    logger: createLogger({ name: 'test', level: 'silent' }),
  });
  return { store, handlers, wakes: () => wakes };
}

describe('webhook dispatcher handlers', () => {
  it('stores a delivery request with its trace context and wakes the scheduler', async () => {
    const { store, handlers, wakes } = setup(true);
    await handlers[MessageTypeNames.RequestDelivery](
      fakeMessage(MessageTypeNames.RequestDelivery, request, { raw: { traceparent: '00-abc-def-01' } }),
    );
    expect(store.calls).toEqual([{ method: 'enqueue', args: [request, { traceparent: '00-abc-def-01' }] }]);
    expect(wakes()).toBe(1);
  });

  it('leaves the scheduler asleep for a request it already holds (a redelivered message)', async () => {
    const { handlers, wakes } = setup(false);
    await handlers[MessageTypeNames.RequestDelivery](fakeMessage(MessageTypeNames.RequestDelivery, request));
    expect(wakes()).toBe(0);
  });
});
