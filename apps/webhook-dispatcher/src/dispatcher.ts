import { MessageTypeNames } from '@platform/contracts';
import type { EgressClient } from '@platform/egress';
import { createOutboxRelay, createPublisher, ensureTopics, runConsumer, type ConsumerHandle, type KafkaClient } from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import type { Sealer } from '@platform/secrets';
import type { Logger } from '@platform/telemetry';
import { WEBHOOK_TOPICS, type DeliveryStore } from '@platform/webhooks';
import { attemptDelivery } from './attempt.js';
import { createOAuthTokens } from './oauth-tokens.js';
import { createScheduler } from './scheduler.js';

export interface DispatcherDeps {
  kafka: KafkaClient;
  store: DeliveryStore;
  egress: EgressClient;
  sealer: Sealer;
  logger: Logger;
  timeoutMs: number;
  concurrency: number;
  perTargetConcurrency: number;
  retryScale: number;
  pollIntervalMs: number;
  sessionTimeoutMs?: number;
  disableAfterMs?: number;
  leaseGraceMs?: number;
  retrySchedule?: number[];
}

export function createDispatcher(deps: DispatcherDeps) {
  const publisher = createPublisher(deps.kafka, { source: '/webhook-dispatcher' });
  const relay = createOutboxRelay({
    publisher,
    sources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    logger: deps.logger,
  });
  const tokens = createOAuthTokens({ egress: deps.egress, sealer: deps.sealer, timeoutMs: deps.timeoutMs });
  const scheduler = createScheduler({
    store: deps.store,
    attempt: (delivery) => attemptDelivery({ egress: deps.egress, sealer: deps.sealer, timeoutMs: deps.timeoutMs, tokens }, delivery),
    afterOutcome: async () => relay.wake(),
    logger: deps.logger,
    concurrency: deps.concurrency,
    perTargetConcurrency: deps.perTargetConcurrency,
    timeoutMs: deps.timeoutMs,
    retryScale: deps.retryScale,
    pollIntervalMs: deps.pollIntervalMs,
    disableAfterMs: deps.disableAfterMs ?? 5 * 24 * 3600_000,
    leaseGraceMs: deps.leaseGraceMs ?? 30_000,
    ...(deps.retrySchedule ? { retrySchedule: deps.retrySchedule } : {}),
  });
  let consumer: ConsumerHandle | undefined;

  return {
    async start() {
      await ensureTopics(deps.kafka, [
        WEBHOOK_TOPICS.deliveries,
        WEBHOOK_TOPICS.events,
      ]);
      await publisher.connect();
      relay.start();
      scheduler.start();
      consumer = await runConsumer({
        client: deps.kafka,
        groupId: 'webhook-dispatcher',
        component: 'webhook-dispatcher',
        topics: [WEBHOOK_TOPICS.deliveries],
        partitionsConsumedConcurrently: 4,
        ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
        handlers: {
          // Accepting a request is only a durable insert; attempts run off the consumer's path.
          [MessageTypeNames.RequestDelivery]: async (message) => {
            const { traceparent, tracestate } = message.meta.raw;
            const trace = { ...(traceparent ? { traceparent } : {}), ...(tracestate ? { tracestate } : {}) };
            if (await deps.store.enqueue(message.value, trace)) scheduler.wake();
          },
          [MessageTypeNames.RedeliverDeliveries]: async (message) => {
            const count = await deps.store.redeliver(message.value);
            deps.logger.info({ target: message.value.target_id, count }, 'manual redelivery');
            if (count > 0) scheduler.wake();
          },
        },
      });
    },
    ready: () => consumer?.ready ?? Promise.resolve(),
    scheduler,
    async stop() {
      await consumer?.stop();
      await scheduler.stop();
      await relay.stop();
      await publisher.disconnect();
    },
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
