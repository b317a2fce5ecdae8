import { MessageTypeNames } from '@platform/contracts';
import { createPublisher, runConsumer } from '@platform/kafka';
import { startService } from '@platform/runtime/start';
import { createSealer } from '@platform/secrets';
import { testLogger } from './test-logger.js';
import { isolatedAppEnv, uniqueName } from '@platform/testing';
import { WEBHOOK_TOPICS, createDeliveryStore, deliveryIdFor, type DeliveryStore } from '@platform/webhooks';
// The dispatcher runs from the same builder its main.ts runs (service.ts), configured by an isolated environment.
import { config } from '../../apps/webhook-dispatcher/src/config.js';
import { build } from '../../apps/webhook-dispatcher/src/service.js';
import { TEST_SECRETS } from './secrets.js';

export const HARNESS_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export interface OAuthTargetInput {
  token_url: string;
  client_id: string;
  sealed_client_secret: string;
  scope: string | null;
}

export interface DispatcherHarness {
  store: DeliveryStore;
  seal(plaintext: string): string;
  /** Publishes a delivery request the way producers do; returns its ids. */
  request(
    targetId: string,
    url: string,
    eventId?: string,
    oauth?: OAuthTargetInput | null,
    /** The endpoint's rate limit (per second) and the delivery's ordering key, as producers set them. */
    delivery?: { rateLimit?: number; orderingKey?: string },
  ): Promise<{ deliveryId: string; eventId: string }>;
  /** DeliveryOutcome, TargetDisabled and TargetFailing events seen on webhooks.events. */
  outcomes: Array<{ type: 'outcome' | 'disabled' | 'failing'; value: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * One dispatcher in this process on real Kafka and FerretDB, isolated by a unique database and topic prefix.
 * Only 127.0.0.2 is allowlisted, so a receiver on 127.0.0.1 stands for a forbidden private address.
 */
export async function startDispatcherHarness(
  options: {
    timeoutMs?: number;
    retryScale?: number;
    disableAfterMs?: number;
    retrySchedule?: number[];
    perTargetConcurrency?: number;
    reconcileIntervalMs?: number;
  } = {},
): Promise<DispatcherHarness> {
  const name = uniqueName('wd');
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    EGRESS_ALLOW: '127.0.0.2/32',
    WEBHOOK_TIMEOUT_MS: String(options.timeoutMs ?? 1000),
    WEBHOOK_CONCURRENCY: '16',
    WEBHOOK_PER_TARGET_CONCURRENCY: String(options.perTargetConcurrency ?? 1),
    WEBHOOK_RETRY_SCALE: String(options.retryScale ?? 0.0005),
    WEBHOOK_POLL_INTERVAL_MS: '25',
    ...(options.reconcileIntervalMs ? { WEBHOOK_RECONCILE_INTERVAL_MS: String(options.reconcileIntervalMs) } : {}),
    ...(options.disableAfterMs ? { WEBHOOK_DISABLE_AFTER_MS: String(options.disableAfterMs) } : {}),
    ...(options.retrySchedule ? { WEBHOOK_RETRY_SCHEDULE_MS: options.retrySchedule.join(',') } : {}),
  });
  const logger = testLogger('dispatcher-test');
  const dispatcher = await startService('webhook-dispatcher', build, { settings: config.read(env), logger });
  const kafka = dispatcher.context.kafka();
  const mongo = await dispatcher.context.mongo();
  const store = createDeliveryStore(mongo);
  const sealer = createSealer(TEST_SECRETS.SECRETS_SEALING_KEY);
  const publisher = createPublisher(kafka, { source: '/test' });
  await publisher.connect();
  const outcomes: DispatcherHarness['outcomes'] = [];
  const events = await runConsumer({
    client: kafka,
    groupId: 'outcomes',
    topics: [WEBHOOK_TOPICS.events],
    handlers: {
      [MessageTypeNames.DeliveryOutcome]: async (m) => void outcomes.push({ type: 'outcome', value: { ...m.value } }),
      [MessageTypeNames.TargetDisabled]: async (m) => void outcomes.push({ type: 'disabled', value: { ...m.value } }),
      [MessageTypeNames.TargetFailing]: async (m) => void outcomes.push({ type: 'failing', value: { ...m.value } }),
    },
  });
  await dispatcher.service.ready?.();

  return {
    store,
    outcomes,
    seal: (plaintext) => sealer.seal(plaintext),
    async request(targetId, url, eventId = uniqueName('event'), oauth = null, delivery = {}) {
      const deliveryId = deliveryIdFor('test', eventId, targetId);
      await publisher.publish({
        topic: WEBHOOK_TOPICS.deliveries,
        key: targetId,
        type: MessageTypeNames.RequestDelivery,
        value: {
          delivery_id: deliveryId,
          producer: 'test',
          tenant_id: 'tenant_1',
          target: {
            id: targetId,
            url,
            sealed_secret: sealer.seal(HARNESS_SECRET),
            signature_scheme: 'standard',
            previous_sealed_secret: null,
            previous_secret_expires_at: null,
            oauth,
            rate_limit: delivery.rateLimit ?? null,
          },
          event_id: eventId,
          event_type: 'user.created',
          payload: JSON.stringify({ id: eventId, hello: 'world' }),
          requested_at: Date.now(),
          ordering_key: delivery.orderingKey ?? null,
        },
      });
      return { deliveryId, eventId };
    },
    async close() {
      await events.stop();
      await publisher.disconnect();
      await mongo.dropDatabase().catch(() => undefined);
      await dispatcher.stop();
    },
  };
}
