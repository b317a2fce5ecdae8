import { expect } from 'vitest';
import { MessageTypeNames, type RequestDelivery } from '@platform/contracts';
import { runConsumer, type KafkaClient, type OutgoingMessage } from '@platform/kafka';
import { createSealer } from '@platform/secrets';
import { waitFor, type WebhookReceiver } from '@platform/testing';
import { WEBHOOK_TOPICS, deliveryIdFor, type DeliveryStore } from '@platform/webhooks';
import { TEST_SECRETS } from './secrets.js';

// A burst of webhook deliveries to one target, as the crash tests of the dispatcher publish it (a dependency killed
// in its middle), and the checks that it came through whole.

const PRODUCER = 'e2e';
const BURST_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const sealer = createSealer(TEST_SECRETS.SECRETS_SEALING_KEY);

/** Ends a wait at once with the reason, e.g. the dispatcher exited. */
type FailFast = () => string | undefined;

export interface WebhookBurst {
  target: RequestDelivery['target'];
  /** The burst's event ids, each the webhook-id its delivery goes out under. */
  events: string[];
  /** The RequestDelivery message for one of the events, requested now. */
  request(eventId: string): OutgoingMessage;
}

/** Eighty deliveries of `user.created` events, each's body `{"id": <event id>}`, to one target at url. */
export function webhookBurst(options: { name: string; targetId: string; url: string }): WebhookBurst {
  const target: RequestDelivery['target'] = {
    id: options.targetId,
    url: options.url,
    sealed_secret: sealer.seal(BURST_SECRET),
    signature_scheme: 'standard',
    previous_sealed_secret: null,
    previous_secret_expires_at: null,
    oauth: null,
    rate_limit: null,
  };
  return {
    target,
    events: Array.from({ length: 80 }, (_, i) => `evt_${options.name}_${i}`),
    request: (eventId) => ({
      topic: WEBHOOK_TOPICS.deliveries,
      key: target.id,
      type: MessageTypeNames.RequestDelivery,
      value: {
        delivery_id: deliveryIdFor(PRODUCER, eventId, target.id),
        producer: PRODUCER,
        tenant_id: 'tenant_e2e',
        target,
        event_id: eventId,
        event_type: 'user.created',
        payload: JSON.stringify({ id: eventId }),
        requested_at: Date.now(),
        ordering_key: null,
      },
    }),
  };
}

/** The webhook-id of every request the receiver got, repeats included. */
export function receivedIds(receiver: WebhookReceiver): string[] {
  return receiver.requests.map((r) => r.headers['webhook-id'] as string);
}

/** Waits until every event of the burst reached the receiver, then expects no other. */
export async function waitForEveryDelivery(
  receiver: WebhookReceiver,
  burst: WebhookBurst,
  options: { timeoutMs: number; failFast?: FailFast },
): Promise<void> {
  await waitFor(() => new Set(receivedIds(receiver)).size >= burst.events.length, {
    what: 'every delivery',
    ...options,
  });
  expect(new Set(receivedIds(receiver))).toEqual(new Set(burst.events));
}

/** A repeat is the same event under the same webhook-id, never a new one. */
export function expectRepeatsUnderSameWebhookId(receiver: WebhookReceiver): void {
  for (const request of receiver.requests) {
    expect(JSON.parse(request.body)).toEqual({ id: request.headers['webhook-id'] });
  }
}

/** Waits until the store records every delivery of the burst as delivered. */
export async function waitForEveryDeliveryRecorded(
  store: DeliveryStore,
  burst: WebhookBurst,
  failFast?: FailFast,
): Promise<void> {
  const deliveryIds = burst.events.map((eventId) => deliveryIdFor(PRODUCER, eventId, burst.target.id));
  await waitFor(
    async () =>
      (await Promise.all(deliveryIds.map(async (id) => (await store.get(id))?.status))).every(
        (status) => status === 'delivered',
      ),
    { what: 'every delivery recorded as delivered', timeoutMs: 30_000, failFast },
  );
}

export interface DeliveredOutcomes {
  /** The event ids of the `delivered` DeliveryOutcome events seen so far. */
  seen: Set<string>;
  /** Waits until there is one for every event of the burst, then expects no other. */
  waitForEvery(burst: WebhookBurst, failFast: FailFast): Promise<void>;
  stop(): Promise<void>;
}

/** A consumer of the webhook events topic from its beginning, keeping the `delivered` DeliveryOutcome events. */
export async function consumeDeliveredOutcomes(kafka: KafkaClient): Promise<DeliveredOutcomes> {
  const seen = new Set<string>();
  const consumer = await runConsumer({
    client: kafka,
    groupId: 'outcomes',
    topics: [WEBHOOK_TOPICS.events],
    fromBeginning: true,
    handlers: {
      [MessageTypeNames.DeliveryOutcome]: async (m) => {
        if (m.value.outcome === 'delivered') seen.add(m.value.event_id);
      },
    },
  });
  return {
    seen,
    async waitForEvery(burst, failFast) {
      await waitFor(() => seen.size >= burst.events.length, {
        what: 'an outcome event for every delivery',
        timeoutMs: 60_000,
        failFast,
      });
      expect(seen).toEqual(new Set(burst.events));
    },
    stop: () => consumer.stop(),
  };
}
