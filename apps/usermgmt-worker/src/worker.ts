import { MessageTypeNames } from '@platform/contracts';
import {
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
import { publishUserEvent } from './webhook-fanout.js';

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
      reaction<
        typeof MessageTypeNames.UserCreated | typeof MessageTypeNames.UserUpdated | typeof MessageTypeNames.UserDeleted
      >({
        groupId: 'usermgmt-webhook-fanout',
        topics: [USERMGMT_TOPICS.events],
        partitionsConsumedConcurrently: deps.partitionsConcurrency ?? 4,
        handlers: {
          [MessageTypeNames.UserCreated]: (message) => publishUserEvent(fanOut(publisher), 'user.created', message),
          [MessageTypeNames.UserUpdated]: (message) => publishUserEvent(fanOut(publisher), 'user.updated', message),
          [MessageTypeNames.UserDeleted]: (message) => publishUserEvent(fanOut(publisher), 'user.deleted', message),
        },
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
