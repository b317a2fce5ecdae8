import { describe, expect, it } from 'vitest';
import { MessageTypeNames, type RedeliverDeliveries, type RequestDelivery } from '@platform/contracts';
import type { BatchMessage, IncomingBatch } from '@platform/kafka';
import type { LeaseQueue, QueuedItem } from '@platform/redis';
import { fake, fakeMessage } from '@platform/testing';
import { createLogger } from '@platform/telemetry';
import type { DeliveryStore } from '@platform/webhooks';
import { deliveryBatchHandler, type DeliveryCommand } from './handlers.js';

// The handler hands the requests to the store as they came; their fields are the store's concern.
const request = (id: string) => ({ delivery_id: id, producer: 'usermgmt', tenant_id: 'env_1' }) as RequestDelivery;
const item = (id: string): QueuedItem => ({ id, group: 'usermgmt:we_1', dueAt: 1 });
const redeliver = { producer: 'usermgmt', tenant_id: 'env_1', target_id: 'we_1' } as RedeliverDeliveries;

function batchOf(
  ...messages: Array<[DeliveryCommand, unknown, Record<string, string>?]>
): IncomingBatch<DeliveryCommand> {
  return {
    topic: 'webhooks.deliveries',
    partition: 0,
    firstOffset: '0',
    lastOffset: String(messages.length - 1),
    messages: messages.map(([type, value, raw], i) => {
      const { meta, key } = fakeMessage(type, value as never, { raw: raw ?? {} });
      return { offset: String(i), key, type, value, meta } as BatchMessage<DeliveryCommand>;
    }),
    heartbeat: async () => undefined,
    deadLetter: async () => undefined,
  };
}

/** `stored`: what the store answers per request (the item of a pending delivery, or null); `queued`: how many the queue took. */
function setup(stored: Array<QueuedItem | null>, queued: number, redelivered: QueuedItem[] = []) {
  let wakes = 0;
  const store = fake<DeliveryStore>({ enqueueMany: async () => stored, redeliver: async () => redelivered });
  const queue = fake<LeaseQueue>({ schedule: async () => queued });
  const handle = deliveryBatchHandler({
    store,
    queue,
    scheduler: { wake: () => void wakes++ },
    logger: createLogger({ name: 'test', level: 'silent' }),
  });
  return { store, queue, handle, wakes: () => wakes };
}

describe('webhook dispatcher batch handler', () => {
  it('stores a batch of requests with their trace context in one call, queues them in one and wakes the scheduler', async () => {
    const { store, queue, handle, wakes } = setup([item('d1'), item('d2')], 2);
    await handle(
      batchOf(
        [MessageTypeNames.RequestDelivery, request('d1'), { traceparent: '00-abc-def-01' }],
        [MessageTypeNames.RequestDelivery, request('d2')],
      ),
    );
    expect(store.calls).toEqual([
      {
        method: 'enqueueMany',
        args: [
          [
            { request: request('d1'), trace: { traceparent: '00-abc-def-01' } },
            { request: request('d2'), trace: {} },
          ],
        ],
      },
    ]);
    expect(queue.calls).toEqual([{ method: 'schedule', args: [[item('d1'), item('d2')]] }]);
    expect(wakes()).toBe(1);
  });

  it('queues pending copies again, for a queue that lost them, but wakes nobody when the queue held them', async () => {
    const { queue, handle, wakes } = setup([item('d1')], 0);
    await handle(batchOf([MessageTypeNames.RequestDelivery, request('d1')]));
    expect(queue.calls).toEqual([{ method: 'schedule', args: [[item('d1')]] }]);
    expect(wakes()).toBe(0);
  });

  it('queues nothing for copies of finished deliveries, and a manual redelivery with the rest', async () => {
    const { store, queue, handle, wakes } = setup([null], 1, [item('old')]);
    await handle(
      batchOf([MessageTypeNames.RequestDelivery, request('d1')], [MessageTypeNames.RedeliverDeliveries, redeliver]),
    );
    expect(store.calls.map((c) => c.method)).toEqual(['enqueueMany', 'redeliver']);
    expect(queue.calls).toEqual([{ method: 'schedule', args: [[item('old')]] }]);
    expect(wakes()).toBe(1);
  });
});
