import { MessageTypeNames } from '@platform/contracts';
import type { UserDirectory } from '@platform/identity';
import {
  createCommandProcessor,
  createOutboxRelay,
  createPublisher,
  ensureTopics,
  runConsumer,
  type CommandResultStore,
  type ConsumerHandle,
  type KafkaClient,
  type OutboxHint,
  type ReplyTransport,
} from '@platform/kafka';
import { createMongoOutboxSource } from '@platform/mongo';
import { SCHEDULING_TOPICS, type SchedulingStore } from '@platform/scheduling';
import type { Logger } from '@platform/telemetry';
import { commandHandlers, type HandlerDeps, type SchedulingCommand } from './handlers/index.js';

export interface WorkerDeps {
  kafka: KafkaClient;
  store: SchedulingStore;
  users: UserDirectory;
  results: CommandResultStore;
  replies: ReplyTransport;
  logger: Logger;
  webUrl: string;
  inviteTtlSeconds: number;
  partitionsConcurrency?: number;
  outboxIntervalMs?: number;
  sessionTimeoutMs?: number;
}

export interface Worker {
  start(): Promise<void>;
  ready(): Promise<void>;
  stop(): Promise<void>;
}

export const SCHEDULING_WORKER_TOPICS = [
  { topic: SCHEDULING_TOPICS.commands, partitions: 12 },
  { topic: SCHEDULING_TOPICS.events },
  { topic: `${SCHEDULING_TOPICS.commands}.dlq`, partitions: 1 },
];

export function createWorker(deps: WorkerDeps): Worker {
  const publisher = createPublisher(deps.kafka, { source: '/scheduling-worker' });
  const relay = createOutboxRelay({
    publisher,
    sources: deps.store.outboxCollections().map((c) => createMongoOutboxSource(c)),
    logger: deps.logger,
    intervalMs: deps.outboxIntervalMs ?? 1000,
  });
  const processor = createCommandProcessor({ store: deps.results, transport: deps.replies, logger: deps.logger });
  let consumer: ConsumerHandle | undefined;

  function command<T extends SchedulingCommand>(type: T) {
    const handler = commandHandlers[type] as (d: HandlerDeps, m: Parameters<(typeof commandHandlers)[T]>[1]) => Promise<unknown>;
    return processor.wrap<T>(async (message) => {
      const touched: OutboxHint[] = [];
      try {
        return await handler(
          { store: deps.store, users: deps.users, webUrl: deps.webUrl, inviteTtlSeconds: deps.inviteTtlSeconds, touched: (source, docId) => touched.push({ source, docId }) },
          message,
        );
      } finally {
        if (touched.length > 0) relay.wake(touched);
      }
    });
  }

  return {
    async start() {
      await ensureTopics(deps.kafka, SCHEDULING_WORKER_TOPICS);
      await publisher.connect();
      relay.start();
      consumer = await runConsumer({
        client: deps.kafka,
        groupId: 'scheduling-worker',
        component: 'scheduling-worker',
        topics: [SCHEDULING_TOPICS.commands],
        onDeadLetter: (meta) => processor.replyDeadLettered(meta),
        ...(deps.sessionTimeoutMs ? { sessionTimeoutMs: deps.sessionTimeoutMs } : {}),
        partitionsConsumedConcurrently: deps.partitionsConcurrency ?? 4,
        handlers: {
          [MessageTypeNames.TeamCommand]: command(MessageTypeNames.TeamCommand),
          [MessageTypeNames.MembershipCommand]: command(MessageTypeNames.MembershipCommand),
          [MessageTypeNames.EventTypeCommand]: command(MessageTypeNames.EventTypeCommand),
          [MessageTypeNames.ScheduleCommand]: command(MessageTypeNames.ScheduleCommand),
          [MessageTypeNames.BookingCommand]: command(MessageTypeNames.BookingCommand),
        },
      });
    },
    async ready() {
      await consumer?.ready;
    },
    async stop() {
      await consumer?.stop();
      await relay.stop();
      await publisher.disconnect();
    },
  };
}
