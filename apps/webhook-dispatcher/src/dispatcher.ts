import type { EgressClient } from '@platform/egress';
import { createEventWorker, reaction, type KafkaClient } from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import type { Sealer } from '@platform/secrets';
import type { Logger } from '@platform/telemetry';
import { WEBHOOK_TOPICS, type DeliveryStore } from '@platform/webhooks';
import { attemptDelivery } from './attempt.js';
import { createOAuthTokens } from './oauth-tokens.js';
import { deliveryHandlers, type DeliveryCommand } from './handlers.js';
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
  /** How long a stop waits for attempts under way to be recorded (see createScheduler); default 10 s. */
  drainTimeoutMs?: number;
  retrySchedule?: number[];
}

export function createDispatcher(deps: DispatcherDeps) {
  const tokens = createOAuthTokens({ egress: deps.egress, sealer: deps.sealer, timeoutMs: deps.timeoutMs });
  const scheduler = createScheduler({
    store: deps.store,
    attempt: (delivery) =>
      attemptDelivery({ egress: deps.egress, sealer: deps.sealer, timeoutMs: deps.timeoutMs, tokens }, delivery),
    afterOutcome: async () => worker.relay.wake(),
    logger: deps.logger,
    concurrency: deps.concurrency,
    perTargetConcurrency: deps.perTargetConcurrency,
    timeoutMs: deps.timeoutMs,
    retryScale: deps.retryScale,
    pollIntervalMs: deps.pollIntervalMs,
    disableAfterMs: deps.disableAfterMs ?? 5 * 24 * 3600_000,
    leaseGraceMs: deps.leaseGraceMs ?? 30_000,
    drainTimeoutMs: deps.drainTimeoutMs ?? 10_000,
    ...(deps.retrySchedule ? { retrySchedule: deps.retrySchedule } : {}),
  });
  const handlers = deliveryHandlers({ store: deps.store, scheduler, logger: deps.logger });
  const worker = createEventWorker({
    kafka: deps.kafka,
    name: 'webhook-dispatcher',
    topics: [WEBHOOK_TOPICS.deliveries, WEBHOOK_TOPICS.events],
    outboxSources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    logger: deps.logger,
    background: () => [scheduler],
    reactions: () => [
      reaction<DeliveryCommand>({
        groupId: 'webhook-dispatcher',
        topics: [WEBHOOK_TOPICS.deliveries],
        partitionsConsumedConcurrently: 4,
        unhandled: 'dead-letter',
        ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
        handlers,
      }),
    ],
  });
  return {
    start: () => worker.start(),
    ready: () => worker.ready(),
    /**
     * The scheduler stops claiming at once and drains beside the consumers' leave (seconds, under load), rather
     * than after it as the worker orders its background tasks: a dispatcher that is going away starts no new
     * delivery, and the outcomes of those under way are written, and their events relayed, before the store closes.
     */
    async stop() {
      const drained = scheduler.stop();
      await worker.stop();
      await drained;
    },
    scheduler,
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
