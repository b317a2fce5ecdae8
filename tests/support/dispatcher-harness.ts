import { MessageTypeNames } from '@platform/contracts';
import { createEgressClient, createEgressGuard } from '@platform/egress';
import { createKafka, createPublisher, runConsumer } from '@platform/kafka';
import { connectMongo } from '@platform/mongo';
import { createSealer } from '@platform/secrets';
import { createLogger } from '@platform/telemetry';
import { resolveInfra, uniqueName } from '@platform/testing';
import { WEBHOOK_TOPICS, createDeliveryStore, deliveryIdFor, type DeliveryStore } from '@platform/webhooks';
import { createDispatcher, type DispatcherDeps } from '../../apps/webhook-dispatcher/src/dispatcher.js';
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
  request(targetId: string, url: string, eventId?: string, oauth?: OAuthTargetInput | null): Promise<{ deliveryId: string; eventId: string }>;
  /** DeliveryOutcome and TargetDisabled events seen on webhooks.events. */
  outcomes: Array<{ type: 'outcome' | 'disabled'; value: Record<string, unknown> }>;
  close(): Promise<void>;
}

/**
 * One dispatcher in this process on real Kafka and FerretDB, isolated by a unique database and topic prefix.
 * Only 127.0.0.2 is allowlisted, so a receiver on 127.0.0.1 stands for a forbidden private address.
 */
export async function startDispatcherHarness(
  options: Partial<Pick<DispatcherDeps, 'timeoutMs' | 'retryScale' | 'disableAfterMs' | 'retrySchedule' | 'perTargetConcurrency'>> = {},
): Promise<DispatcherHarness> {
  const infra = resolveInfra();
  const logger = createLogger({ name: 'dispatcher-test', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });
  const sealer = createSealer(TEST_SECRETS.SECRETS_SEALING_KEY);
  const name = uniqueName('wd');
  const kafka = createKafka({ brokers: infra.kafkaBrokers.split(','), clientId: name, logger, topicPrefix: `${name}.` });
  const mongo = await connectMongo({ url: infra.mongoUrl, dbName: name, appName: name });
  const store = createDeliveryStore(mongo);
  await store.ensureIndexes();
  const publisher = createPublisher(kafka, { source: '/test' });
  await publisher.connect();
  const egress = createEgressClient(createEgressGuard({ allow: ['127.0.0.2/32'] }));
  const dispatcher = createDispatcher({
    kafka,
    store,
    egress,
    sealer,
    logger,
    timeoutMs: options.timeoutMs ?? 1000,
    concurrency: 16,
    perTargetConcurrency: options.perTargetConcurrency ?? 1,
    retryScale: options.retryScale ?? 0.0005,
    pollIntervalMs: 25,
    ...(options.disableAfterMs ? { disableAfterMs: options.disableAfterMs } : {}),
    ...(options.retrySchedule ? { retrySchedule: options.retrySchedule } : {}),
  });
  await dispatcher.start();
  const outcomes: DispatcherHarness['outcomes'] = [];
  const events = await runConsumer({
    client: kafka,
    groupId: 'outcomes',
    topics: [WEBHOOK_TOPICS.events],
    handlers: {
      [MessageTypeNames.DeliveryOutcome]: async (m) => void outcomes.push({ type: 'outcome', value: { ...m.value } }),
      [MessageTypeNames.TargetDisabled]: async (m) => void outcomes.push({ type: 'disabled', value: { ...m.value } }),
    },
  });
  await dispatcher.ready();

  return {
    store,
    outcomes,
    seal: (plaintext) => sealer.seal(plaintext),
    async request(targetId, url, eventId = uniqueName('event'), oauth = null) {
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
          },
          event_id: eventId,
          event_type: 'user.created',
          payload: JSON.stringify({ id: eventId, hello: 'world' }),
          requested_at: Date.now(),
        },
      });
      return { deliveryId, eventId };
    },
    async close() {
      await events.stop();
      await dispatcher.stop();
      await publisher.disconnect();
      await egress.close();
      await mongo.dropDatabase().catch(() => undefined);
      await mongo.close();
    },
  };
}
