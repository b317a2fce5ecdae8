import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, uniqueName, waitFor, type WebhookReceiver } from '@platform/testing';
import { startDispatcherHarness, type DispatcherHarness } from '../support/dispatcher-harness.js';

let harness: DispatcherHarness;
let receiver: WebhookReceiver;

beforeAll(async () => {
  // Four attempts 0, 20, 40 and 60 ms apart; the failing window is far away, so the schedule ends first.
  harness = await startDispatcherHarness({ retrySchedule: [0, 20, 40, 60], retryScale: 1, disableAfterMs: 600_000 });
  receiver = await startWebhookReceiver('/webhooks', '127.0.0.2');
}, 120_000);

afterAll(async () => {
  await harness?.close();
  await receiver?.close();
});

describe('after the last attempt', () => {
  it('dead-letters the delivery and reports it', async () => {
    receiver.respondWith(() => ({ status: 500 }));
    const { deliveryId, eventId } = await harness.request(uniqueName('t'), receiver.url);
    await waitFor(async () => (await harness.store.get(deliveryId))?.status === 'dead_lettered', {
      what: 'dead-lettered',
    });
    expect((await harness.store.attemptsFor(deliveryId)).map((a) => a.status)).toEqual([500, 500, 500, 500]);
    expect(receiver.requests).toHaveLength(4);
    const outcome = await waitFor(
      () => harness.outcomes.find((o) => o.type === 'outcome' && o.value['delivery_id'] === deliveryId),
      { what: 'outcome event' },
    );
    expect(outcome.value).toMatchObject({ outcome: 'dead_lettered', attempts: 4, last_status: 500, event_id: eventId });
    // Finished deliveries and their attempts are kept for the retention period, then swept.
    const archived = await waitFor(async () => (await harness.store.get(deliveryId))?.expires_at ?? undefined, {
      what: 'archived',
    });
    const days = (archived.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    for (const attempt of await harness.store.attemptsFor(deliveryId))
      expect(attempt.expires_at.getTime()).toBeGreaterThan(Date.now());
  });
});
