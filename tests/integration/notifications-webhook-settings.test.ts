import type { RequestDelivery } from '@platform/contracts';
import { startWebhookReceiver, uniqueName, waitFor, type WebhookReceiver } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchDeliveryRequests } from '../support/delivery-requests.js';
import { startNotificationsStack, type NotificationsStack } from '../support/notifications-stack.js';

// The notifier's webhook target has no API to set a rate limit or an ordering on, so they are settings
// (NOTIFIER_WEBHOOK_RATE_LIMIT, NOTIFIER_WEBHOOK_ORDERED): every RequestDelivery it publishes carries them.

let receiver: WebhookReceiver;
let stack: NotificationsStack;
let requested: RequestDelivery[] = [];
let stopReading: () => Promise<void> = async () => undefined;

beforeAll(async () => {
  receiver = await startWebhookReceiver('/notifications');
  stack = await startNotificationsStack({
    webhookUrl: receiver.url,
    env: { NOTIFIER_WEBHOOK_RATE_LIMIT: '4', NOTIFIER_WEBHOOK_ORDERED: 'true' },
  });
  ({ requests: requested, stop: stopReading } = await watchDeliveryRequests(stack.kafka));
}, 120_000);

afterAll(async () => {
  await stopReading();
  await stack?.close();
  await receiver?.close();
});

describe('the webhook method with a rate limit and ordering configured', () => {
  it("asks the dispatcher for the configured rate limit, ordered by the notification's user", async () => {
    const { owner } = await stack.newDeployment();
    const title = `Deploy finished ${uniqueName('t')}`;
    const response = await fetch(`${stack.urls[0]}/api/v2/notifications/custom`, {
      method: 'POST',
      headers: { 'platform-session-token': owner.token, 'content-type': 'application/json' },
      body: JSON.stringify({ content: { title, message: 'The **build** passed.' } }),
    });
    expect(response.status).toBe(204);
    const request = await waitFor(() => requested.find((r) => r.payload.includes(title)), {
      timeoutMs: 30_000,
      what: "the notification's delivery request",
    });
    expect(request).toMatchObject({
      producer: 'notifications',
      target: { id: 'notifications-webhook', url: receiver.url, rate_limit: 4 },
      ordering_key: owner.user._id,
    });
    // And it is delivered.
    await waitFor(() => receiver.requests.find((r) => r.body.includes(title)), {
      timeoutMs: 30_000,
      what: 'the webhook',
    });
  });
});
