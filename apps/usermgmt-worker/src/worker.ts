import { MessageTypeNames } from '@platform/contracts';
import {
  createCommandProcessor,
  createOutboxRelay,
  createPublisher,
  ensureTopics,
  runConsumer,
  type CommandResultStore,
  type ConsumerHandle,
  type KafkaClient,
  type ReplyTransport,
} from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import type { Sealer } from '@platform/secrets';
import type { Logger } from '@platform/telemetry';
import { USERMGMT_TOPICS, type UsermgmtStore } from '@platform/usermgmt';
import { WEBHOOK_TOPICS } from '@platform/webhooks';
import { commandHandlers, type UsermgmtCommand } from './handlers/index.js';
import { disableEndpointOnTargetDisabled } from './target-disabled.js';
import { fanOutUserCreated } from './webhook-fanout.js';

export interface WorkerDeps {
  kafka: KafkaClient;
  store: UsermgmtStore;
  results: CommandResultStore;
  replies: ReplyTransport;
  sealer: Sealer;
  logger: Logger;
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export interface Worker {
  start(): Promise<void>;
  /** Resolves once every consumer group has its partitions. */
  ready(): Promise<void>;
  stop(): Promise<void>;
}

export const USERMGMT_WORKER_TOPICS = [
  USERMGMT_TOPICS.commands,
  USERMGMT_TOPICS.events,
  WEBHOOK_TOPICS.deliveries,
  WEBHOOK_TOPICS.events,
];

export function createWorker(deps: WorkerDeps): Worker {
  const publisher = createPublisher(deps.kafka, { source: '/usermgmt-worker' });
  const relay = createOutboxRelay({
    publisher,
    sources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    logger: deps.logger,
    intervalMs: deps.outboxIntervalMs ?? 1000,
  });
  const processor = createCommandProcessor({ store: deps.results, transport: deps.replies, logger: deps.logger });
  const handlerDeps = { store: deps.store, sealer: deps.sealer };
  const consumers: ConsumerHandle[] = [];

  function command<T extends UsermgmtCommand>(type: T) {
    const handler = commandHandlers[type] as (d: typeof handlerDeps, m: Parameters<(typeof commandHandlers)[T]>[1]) => Promise<unknown>;
    return processor.wrap<T>(async (message) => {
      const result = await handler(handlerDeps, message);
      // Events written with the change go out right away (not awaited: the reply need not wait for them);
      // the relay's periodic sweep covers a crash before they are published.
      relay.wake();
      return result;
    });
  }

  return {
    async start() {
      await ensureTopics(deps.kafka, USERMGMT_WORKER_TOPICS);
      await publisher.connect();
      relay.start();
      consumers.push(
        await runConsumer({
          client: deps.kafka,
          groupId: 'usermgmt-worker',
          component: 'usermgmt-worker',
          topics: [USERMGMT_TOPICS.commands],
          onDeadLetter: (meta) => processor.replyDeadLettered(meta),
          unhandled: 'dead-letter',
          ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
          partitionsConsumedConcurrently: deps.partitionsConcurrency ?? 4,
          handlers: {
            [MessageTypeNames.CreateCorsOrigin]: command(MessageTypeNames.CreateCorsOrigin),
            [MessageTypeNames.UpdateJwtTemplate]: command(MessageTypeNames.UpdateJwtTemplate),
            [MessageTypeNames.CreateRedirectUri]: command(MessageTypeNames.CreateRedirectUri),
            [MessageTypeNames.CreateWebhookEndpoint]: command(MessageTypeNames.CreateWebhookEndpoint),
            [MessageTypeNames.UpdateWebhookEndpoint]: command(MessageTypeNames.UpdateWebhookEndpoint),
            [MessageTypeNames.DeleteWebhookEndpoint]: command(MessageTypeNames.DeleteWebhookEndpoint),
            [MessageTypeNames.RotateWebhookEndpointSecret]: command(MessageTypeNames.RotateWebhookEndpointSecret),
            [MessageTypeNames.CreateUser]: command(MessageTypeNames.CreateUser),
          },
        }),
      );
      consumers.push(
        await runConsumer({
          client: deps.kafka,
          groupId: 'usermgmt-webhook-fanout',
          component: 'usermgmt-worker',
          topics: [USERMGMT_TOPICS.events],
          partitionsConsumedConcurrently: deps.partitionsConcurrency ?? 4,
          handlers: {
            [MessageTypeNames.UserCreated]: (message) => fanOutUserCreated({ store: deps.store, publisher }, message),
          },
        }),
      );
      consumers.push(
        await runConsumer({
          client: deps.kafka,
          groupId: 'usermgmt-webhook-state',
          component: 'usermgmt-worker',
          topics: [WEBHOOK_TOPICS.events],
          handlers: {
            [MessageTypeNames.TargetDisabled]: async (message) => {
              await disableEndpointOnTargetDisabled({ store: deps.store }, message);
              relay.wake();
            },
          },
        }),
      );
    },
    async ready() {
      await Promise.all(consumers.map((c) => c.ready));
    },
    async stop() {
      for (const consumer of consumers) await consumer.stop();
      await relay.stop();
      await publisher.disconnect();
    },
  };
}
