import { MessageTypeNames } from '@platform/contracts';
import {
  batchReaction,
  createCommandWorker,
  runHandler,
  reaction,
  type CommandResultStore,
  type CommandWorker,
  type KafkaClient,
  type Publisher,
  type ReplyTransport,
} from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import type { Sealer } from '@platform/secrets';
import type { Logger } from '@platform/telemetry';
import { USERMGMT_TOPICS, type UsermgmtStore, type UsermgmtWriter } from '@platform/usermgmt';
import { WEBHOOK_TOPICS } from '@platform/webhooks';
import { commandHandlers, type UsermgmtCommand } from './handlers/index.js';
import { disableEndpointOnTargetDisabled } from './target-disabled.js';
import { USER_EVENT_TYPES, publishUserEvents } from './webhook-fanout.js';

export interface WorkerDeps {
  kafka: KafkaClient;
  store: UsermgmtStore;
  writer: UsermgmtWriter;
  results: CommandResultStore;
  replies: ReplyTransport;
  sealer: Sealer;
  logger: Logger;
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export type Worker = CommandWorker;

export const USERMGMT_WORKER_TOPICS = [
  USERMGMT_TOPICS.commands,
  USERMGMT_TOPICS.events,
  WEBHOOK_TOPICS.deliveries,
  WEBHOOK_TOPICS.events,
];

/**
 * The user-management worker in the shape every worker has (createCommandWorker): commands in one group, each
 * deduplicated and answered, events published from the outboxes of the documents each command wrote; plus two reactions:
 * user events logged for the Events API and fanned out to subscribed endpoints, and endpoints disabled when the dispatcher gives up on them.
 */
export function createWorker(deps: WorkerDeps): Worker {
  const fanOut = (publisher: Publisher) => ({ store: deps.store, writer: deps.writer, publisher });
  return createCommandWorker<UsermgmtCommand>({
    kafka: deps.kafka,
    name: 'usermgmt-worker',
    commandTopic: USERMGMT_TOPICS.commands,
    topics: USERMGMT_WORKER_TOPICS,
    outboxSources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    results: deps.results,
    replies: deps.replies,
    logger: deps.logger,
    commandTypes: Object.keys(commandHandlers) as UsermgmtCommand[],
    handle: (_type, message) =>
      runHandler(commandHandlers, { store: deps.store, writer: deps.writer, sealer: deps.sealer }, message),
    reactions: ({ publisher, relay }) => [
      // Whole batches: one insert into the event log, one read of the endpoints and one produce per batch.
      batchReaction<keyof typeof USER_EVENT_TYPES>({
        groupId: 'usermgmt-webhook-fanout',
        topics: [USERMGMT_TOPICS.events],
        types: Object.keys(USER_EVENT_TYPES) as Array<keyof typeof USER_EVENT_TYPES>,
        partitionsConsumedConcurrently: deps.partitionsConcurrency ?? 4,
        maxBatchSize: 200,
        // Events spread over the topic's partitions: a fetch that waits up to 50 ms for more (as a batched
        // reaction's does) hands over batches worth sharing a write, at a cost of those 50 ms to a webhook.
        fetchMaxWaitMs: 50,
        fetchMinBytes: 256 * 1024,
        // A redelivered batch finds its events logged and re-publishes the same delivery ids: commits can wait.
        commitIntervalMs: 1000,
        ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
        handle: (batch) => publishUserEvents(fanOut(publisher), batch),
      }),
      reaction<typeof MessageTypeNames.TargetDisabled>({
        groupId: 'usermgmt-webhook-state',
        topics: [WEBHOOK_TOPICS.events],
        handlers: {
          [MessageTypeNames.TargetDisabled]: async (message) => {
            await disableEndpointOnTargetDisabled({ store: deps.store, writer: deps.writer }, message);
            relay.wake();
          },
        },
      }),
    ],
    ...(deps.partitionsConcurrency ? { partitionsConcurrency: deps.partitionsConcurrency } : {}),
    ...(deps.outboxIntervalMs ? { outboxIntervalMs: deps.outboxIntervalMs } : {}),
    ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
  });
}
