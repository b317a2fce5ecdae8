import type { EgressClient } from '@platform/egress';
import { withDeadline } from '@platform/errors';
import { MessageTypeNames } from '@platform/contracts';
import { batchReaction, createEventWorker, outboxMessage, type KafkaClient } from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import { createLeaseQueue, type Redis } from '@platform/redis';
import type { Sealer } from '@platform/secrets';
import type { Logger } from '@platform/telemetry';
import { WEBHOOK_TOPICS, type DeliveryStore } from '@platform/webhooks';
import { attemptDelivery } from './attempt.js';
import { createOAuthTokens } from './oauth-tokens.js';
import { deliveryBatchHandler, type DeliveryCommand } from './handlers.js';
import { createScheduler } from './scheduler.js';

/** How long a direct publish of outcome events may take before they are left to the outbox. */
const PUBLISH_TIMEOUT_MS = 3000;

export interface DispatcherDeps {
  kafka: KafkaClient;
  store: DeliveryStore;
  /** Holds the lease queue (what is due, who holds it); the store holds the deliveries. */
  redis: Redis;
  egress: EgressClient;
  sealer: Sealer;
  logger: Logger;
  timeoutMs: number;
  concurrency: number;
  perTargetConcurrency: number;
  /** Deliveries per second to one target at most (0 or unset: no limit). */
  perTargetRate?: number;
  retryScale: number;
  pollIntervalMs: number;
  /** How often the queue is rebuilt from the store (see createScheduler); default 60 s. */
  reconcileIntervalMs?: number;
  sessionTimeoutMs?: number;
  disableAfterMs?: number;
  leaseGraceMs?: number;
  /** How long a stop waits for attempts under way to be recorded (see createScheduler); default 10 s. */
  drainTimeoutMs?: number;
  retrySchedule?: number[];
}

export function createDispatcher(deps: DispatcherDeps) {
  const tokens = createOAuthTokens({ egress: deps.egress, sealer: deps.sealer, timeoutMs: deps.timeoutMs });
  // One queue per store database, so that platforms (or test runs) sharing a Redis never claim each other's work.
  const queue = createLeaseQueue(deps.redis, {
    name: `webhooks:${deps.store.databaseName}`,
    perGroupLimit: deps.perTargetConcurrency,
    perGroupRate: deps.perTargetRate ?? 0,
  });
  const scheduler = createScheduler({
    store: deps.store,
    queue,
    attempt: (delivery) =>
      attemptDelivery({ egress: deps.egress, sealer: deps.sealer, timeoutMs: deps.timeoutMs, tokens }, delivery),
    // Within a few seconds, or the events go through the outbox (a publish that lands late is a copy, dropped).
    publish: (events) =>
      withDeadline(
        worker.publisher.publishMany(events.map(outboxMessage)),
        PUBLISH_TIMEOUT_MS,
        'publishing outcome events',
      ).then(() => undefined),
    logger: deps.logger,
    concurrency: deps.concurrency,
    timeoutMs: deps.timeoutMs,
    retryScale: deps.retryScale,
    pollIntervalMs: deps.pollIntervalMs,
    reconcileIntervalMs: deps.reconcileIntervalMs ?? 60_000,
    disableAfterMs: deps.disableAfterMs ?? 5 * 24 * 3600_000,
    leaseGraceMs: deps.leaseGraceMs ?? 30_000,
    drainTimeoutMs: deps.drainTimeoutMs ?? 10_000,
    ...(deps.retrySchedule ? { retrySchedule: deps.retrySchedule } : {}),
  });
  const handle = deliveryBatchHandler({ store: deps.store, queue, scheduler, logger: deps.logger });
  // Redis back after an outage may have come back empty (it keeps no data on disk here): rebuild at once.
  const onRedisReady = () => scheduler.reconcileSoon();
  const worker = createEventWorker({
    kafka: deps.kafka,
    name: 'webhook-dispatcher',
    topics: [WEBHOOK_TOPICS.deliveries, WEBHOOK_TOPICS.events],
    outboxSources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    logger: deps.logger,
    background: () => [scheduler],
    reactions: () => [
      // Whole batches: one insert and one queue call for every request of a fetch, not a round trip each.
      batchReaction<DeliveryCommand>({
        groupId: 'webhook-dispatcher',
        topics: [WEBHOOK_TOPICS.deliveries],
        types: [MessageTypeNames.RequestDelivery, MessageTypeNames.RedeliverDeliveries],
        partitionsConsumedConcurrently: 4,
        maxBatchSize: 200,
        ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
        handle,
      }),
    ],
  });
  return {
    start: async () => {
      deps.redis.on('ready', onRedisReady);
      await worker.start();
    },
    ready: () => worker.ready(),
    /**
     * The scheduler stops claiming at once and drains beside the consumers' leave (seconds, under load), rather
     * than after it as the worker orders its background tasks: a dispatcher that is going away starts no new
     * delivery, and the outcomes of those under way are written, and their events relayed, before the store closes.
     */
    async stop() {
      deps.redis.off('ready', onRedisReady);
      const drained = scheduler.stop();
      await worker.stop();
      await drained;
    },
    scheduler,
    queue,
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
